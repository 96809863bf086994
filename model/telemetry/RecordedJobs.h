#pragma once
// The jobs a recording names, so that a recorded run can be told apart job by job as a
// simulated cluster run is. A GPU series names its job by DCGM exporter's `hpc_job` label, or
// `slurm_job_id`, `slurm_job`, `jobid` or `job_id`; by `job` only where that is not
// Prometheus's scrape job: when its values are Slurm-like numbers or differ between GPUs (a
// scrape job labels every series alike). Per job: the GPUs its series are on, and its first
// and last sample.
#include "TelemetryParsers.h"
#include "Topology.h"

#include <QJsonArray>

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace cs {

struct RecordedJob {
    std::string name;
    std::vector<int32_t> gpus; // ascending
    std::vector<std::string> hosts;
    double startS = 0, endS = 0; // its first and last sample, from the run's start (NaN: on)
};

class RecordedJobs {
public:
    // A series on `gpu` and its samples (time, value).
    void add(const Labels& labels, int32_t gpu,
             const std::vector<std::pair<int64_t, double>>& samples);
    // By name; hosts named from the topology, times from `originNs` (the run's t = 0).
    std::vector<RecordedJob> jobs(const Topology& t, int64_t originNs) const;

private:
    struct Seen {
        std::set<int32_t> gpus;
        int64_t firstNs = INT64_MAX, lastNs = INT64_MIN;
    };
    static void note(Seen& s, int32_t gpu, const std::vector<std::pair<int64_t, double>>& samples);
    std::map<std::string, Seen> named_;     // by a job label
    std::map<std::string, Seen> scrapeJob_; // by `job`, kept if it names jobs
};

// [{"name", "gpus", "hosts": [...], "startS", "endS"}].
QJsonArray recordedJobsJson(const std::vector<RecordedJob>& jobs);

} // namespace cs
