#pragma once
// A cluster's workload: jobs arriving over time, each a run on part of the cluster. The file:
//   {"format": "clusterscope-workload", "version": 1,
//    "scheduler": "topology-aware" | "first-fit" | "fragmented",
//    "podCrossing": "allow" | "wait", "backfill": true, "seed": 1,
//    "jobs": [{"name": "a", "run": {a run-file object}, "submitS": 0,
//              "steps": 100 | "durationS": 3600, "priority": 0}, ...],
//    "mix": {a generated job mix, WorkloadMix.h},
//    "failures": [{"atS": 3600, "part": "LINK, SWITCH OR NIC ID", "repairS": 14400}, ...]}
// "jobs", "mix" or both (the mix's jobs follow the listed ones). Every value is checked here,
// with its place in the file; each job's run as a run file's, without steps or span.
#include "EnumNames.h"
#include "InputError.h"
#include "RunSpec.h"

#include <QByteArray>
#include <QString>

#include <optional>
#include <string>
#include <vector>

namespace cs {

// topology-aware: as few racks and pods as the job fits in (Meta's scheduler); first-fit: free
// hosts in index order; fragmented: free hosts drawn at random (seeded), what a busy cluster
// hands out.
enum class SchedulerPolicy { TopologyAware, FirstFit, Fragmented };
inline constexpr EnumNames<SchedulerPolicy, 3> kSchedulerPolicyNames{
    {{{SchedulerPolicy::TopologyAware, "topology-aware", "Topology-aware"},
      {SchedulerPolicy::FirstFit, "first-fit", "First fit"},
      {SchedulerPolicy::Fragmented, "fragmented", "Fragmented"}}}};

// A job that fits in one pod but finds no pod with room: allow takes GPUs of several pods,
// wait keeps it queued until one pod has room (topology-aware only).
enum class PodCrossing { Allow, Wait };
inline constexpr EnumNames<PodCrossing, 2> kPodCrossingNames{
    {{{PodCrossing::Allow, "allow", "Allow"}, {PodCrossing::Wait, "wait", "Wait"}}}};

struct WorkloadJob {
    std::string name;
    RunSpec run;            // run.steps: the job's steps, or 0 with durationS
    double submitS = 0;     // since the workload starts
    double durationS = 0;   // run time when steps are not given
    int priority = 0;       // higher first; equal: earlier submitted first
    bool generated = false; // drawn by the workload's "mix", not listed in its "jobs"
};

// A part of the fabric that fails while the jobs run, until its repair. The jobs whose traffic
// crosses it restart from their last checkpoint and run around it; a job it cuts off goes back
// to the queue, and the hosts it cuts off take no job until the repair.
struct WorkloadFailure {
    double atS = 0;
    std::string part;
    double repairS = FailureParams{}.fabricRepairS;
    int index = 0; // in the file's "failures", for messages
};

struct Workload {
    std::string fileName; // for messages
    SchedulerPolicy scheduler = SchedulerPolicy::TopologyAware;
    PodCrossing podCrossing = PodCrossing::Allow;
    bool backfill = true; // later jobs start when an earlier one does not fit
    uint64_t seed = 1;    // the fragmented policy's draws
    std::vector<WorkloadJob> jobs;
    std::vector<WorkloadFailure> failures; // by time
};

constexpr int kWorkloadFileVersion = 1;
constexpr size_t kMaxWorkloadJobs = 10000;
constexpr size_t kMaxWorkloadFailures = 10000;
constexpr qint64 kMaxWorkloadFileBytes = 16 * 1024 * 1024;

// Why a job's run cannot run on any cluster (an unknown model, a configuration that does not
// divide, too much memory), its field a run option's key ("parallel.tp"); nothing if it can.
std::optional<InputError> jobRunError(const RunSpec& run);

// Throws InputException naming file, line, column and field ("jobs[3].run.parallel.tp").
Workload parseWorkload(const QByteArray& text, const std::string& fileName);
Workload loadWorkload(const QString& path);

} // namespace cs
