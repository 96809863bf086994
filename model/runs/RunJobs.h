#pragma once
// The jobs a stored run's summary lists (a cluster run's, or a recording's whose series name
// their jobs): each job's name, hosts and time, as the Jobs dock and "colour by job" show
// them. Read leniently and bounded: entries that are not objects with a name are left out, at
// most kMaxRunJobs are read, hosts the topology does not have are skipped.
#include "Topology.h"
#include "TopologyIndex.h"

#include <QJsonObject>

#include <cmath>
#include <string>
#include <vector>

namespace cs {

struct RunJob {
    std::string name, state, model; // state and model: empty where the run does not say
    long long gpus = 0;
    std::vector<int32_t> hosts;    // ascending host indices
    std::vector<int32_t> metLinks; // where it met other jobs (a simulated cluster run's)
    // Its link traffic sources (a simulated cluster run's "trafficSources": "job NAME", "job
    // NAME (route N)"), ascending.
    std::vector<int32_t> trafficSources;
    // Seconds from the run's start; endS NaN: still running at the run's end. waitS and
    // slowdown (its step over its step alone): NaN where the run does not say.
    double submitS = NAN, startS = NAN, endS = NAN, waitS = NAN, slowdown = NAN;
    double hostsFromS = NAN; // when it got `hosts` (after startS when requeued); NaN: at start
    // Times as the replay's clock holds them, whole nanoseconds: a moment within half a
    // nanosecond of a start is that start (a seek to a job's start lands on it).
    bool runsAt(double tS) const {
        return !std::isnan(startS) && tS >= startS - kHalfNs &&
               (std::isnan(endS) || tS < endS - kHalfNs);
    }
    // Whether it runs on `hosts` at tS (a requeued job had others before hostsFromS).
    bool holdsHostsAt(double tS) const {
        return runsAt(tS) && (std::isnan(hostsFromS) || tS >= hostsFromS - kHalfNs);
    }
    static constexpr double kHalfNs = 0.5e-9;
};

constexpr size_t kMaxRunJobs = 100000;
constexpr size_t kMaxRunJobMetLinks = 64;

std::vector<RunJob> runJobsOf(const QJsonObject& summary, const Topology& t,
                              const TopologyIndex& ix);
// What a selected job lights up in the view: the racks whose hosts are all its own, its hosts
// in racks it shares, and the links where it met other jobs; racks, then hosts, then links,
// each ascending. (Racks and hosts rather than each GPU and NIC cable: outlines around every
// one would hide their colours at a distance.)
std::vector<Endpoint> jobEntities(const RunJob& job, const Topology& t);
// The job's GPUs, ascending.
std::vector<int32_t> jobGpus(const RunJob& job, const Topology& t);

// Job k's place on the colour scale: the golden ratio's multiples modulo 1, so that jobs next
// to each other in the list (often running side by side) get colours far apart.
double jobColourFraction(size_t k);
// Per GPU, the colour fraction of the job running on it at `tS`, NaN where none runs: the
// view's colours by job.
std::vector<float> jobFractionsAt(const std::vector<RunJob>& jobs, const Topology& t, double tS);

} // namespace cs
