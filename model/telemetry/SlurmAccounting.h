#pragma once
// Slurm's accounting of the jobs a recording saw, as `sacct --parsable2` prints it: a header
// naming the fields, then one line per job and step, fields split by '|'. Read: JobID,
// NodeList, Start, End (and JobName, State where given); job steps (1234.batch, 1234.0) are
// left out. Times as sacct prints them (2024-06-01T00:00:00), read as UTC: run sacct with
// TZ=UTC; "Unknown" or "None" for an end: still running. Node lists in Slurm's host-list
// syntax (node[01-04,07],login1) name the topology's hosts, directly or through a mapping
// file's names.
#include "RecordedJobs.h"
#include "SeriesMapping.h"
#include "TopologyIndex.h"

#include <QByteArray>
#include <QString>

#include <string>
#include <vector>

namespace cs {

constexpr size_t kMaxHostListNames = 100000; // a hostile range cannot make millions

// "node[01-03,7],gpu1" -> node01, node02, node03, node7, gpu1. Throws InputException (field
// "NodeList") for a malformed list or one naming more than kMaxHostListNames hosts.
std::vector<std::string> expandHostList(const std::string& list);

struct SlurmJobsRead {
    std::vector<RecordedJob> jobs;         // by JobID, times from `originNs`
    std::vector<std::string> unknownHosts; // named by a job, not in the topology (first 20)
};

// Throws InputException naming the file, line and field.
SlurmJobsRead parseSacct(const QByteArray& text, const std::string& fileName, const Topology& t,
                         const TopologyIndex& ix, const SeriesMapping& names, int64_t originNs);
SlurmJobsRead loadSacct(const QString& path, const Topology& t, const TopologyIndex& ix,
                        const SeriesMapping& names, int64_t originNs);

} // namespace cs
