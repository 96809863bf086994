#pragma once
// A workload run on one cluster: jobs arrive, wait in the queue, get hosts from the scheduler,
// and run on the fabric they share, each job's step time following what the others running at
// the time do (SharedFabric.h). Between two events (an arrival, an end) the running set is
// fixed and each job runs at its step time for that set.
#include "ClusterScheduler.h"
#include "TopologyDocument.h"
#include "Workload.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace cs {

enum class ClusterJobState { Done, Running, Waiting, Refused };
inline constexpr EnumNames<ClusterJobState, 4> kClusterJobStateNames{
    {{{ClusterJobState::Done, "done", "Done"},
      {ClusterJobState::Running, "running", "Running"},
      {ClusterJobState::Waiting, "waiting", "Waiting"},
      {ClusterJobState::Refused, "refused", "Refused"}}}};

struct ClusterJobResult {
    std::string name, model;
    long long gpus = 0;
    int priority = 0;
    ClusterJobState state = ClusterJobState::Waiting;
    std::string error; // why a refused job could not run
    double submitS = 0, startS = -1, endS = -1, waitS = 0;
    std::vector<int32_t> hosts; // ascending: its last placement's
    double hostsFromS = -1;     // when it got them (a requeued job starts again elsewhere)
    int pods = 0, racks = 0;    // that its hosts span
    // Step time alone on the cluster (the same hosts, the fabric its own as it was when the job
    // last started), and on average as it ran (time stepping over steps stepped, lost ones too).
    double aloneStepS = 0, stepS = 0;
    double steps = 0, runS = 0; // kept steps; time spent stepping (not restarting)
    // Checkpoints written, those written while another job wrote one (sharing the storage),
    // the time spent writing them, and one's write time alone on the storage and on average
    // as it ran; the jobs it wrote checkpoints with.
    int checkpoints = 0, checkpointsShared = 0;
    std::vector<std::string> checkpointMet;
    double checkpointTimeS = 0, aloneCheckpointS = 0;
    double checkpointS() const {
        return checkpoints > 0 ? checkpointTimeS / checkpoints : aloneCheckpointS;
    }
    int restarts = 0;     // fabric failures it crossed
    double lostSteps = 0; // done since a checkpoint when a failure hit
    double slowdown() const { return aloneStepS > 0 && stepS > 0 ? stepS / aloneStepS : 1; }
    // Its step time from each time it changed: {at, step}.
    std::vector<std::pair<double, double>> stepTimeline;
    // The steps it took at each step time it ran at: {step, steps}, for the spread of its
    // steps as other jobs' traffic came and went (stepTimeDistribution in the JSON).
    std::vector<std::pair<double, double>> stepsAt;
    // The links where it met others, busiest first: who, and how busy they kept it.
    struct Meeting {
        int32_t link = 0;
        double othersBusy = 0; // the most over the run
        std::vector<std::string> jobs;
    };
    std::vector<Meeting> meetings;
};

// The cluster after each event.
struct FragmentationSample {
    double atS = 0;
    long long freeGpus = 0;
    long long largestFreeBlock = 0; // most free GPUs in one pod
    long long idleWhileWaiting = 0; // free GPUs while some job waits
    int queued = 0, running = 0;
    std::vector<long long> freeGpusPerPod;
};

struct ClusterRunResult {
    SchedulerPolicy scheduler = SchedulerPolicy::TopologyAware;
    double simulatedS = 0; // to the span's end, or the last job's
    long long totalGpus = 0;
    std::vector<ClusterJobResult> jobs; // in the workload's order
    std::vector<FragmentationSample> fragmentation;
    long long stepEstimates = 0; // engine runs it took (alone, and programs for joint runs)
    long long jointRuns = 0;     // joint simulations of jobs that met on a link
};

using ClusterProgressFn = std::function<void(double fraction)>;

// A running job as it is from one event to the next, for a stored run.
struct ClusterFrameJob {
    int job = 0; // index into the workload's jobs
    std::shared_ptr<const std::vector<int32_t>> gpus;
    double computeFraction = 0; // of its step, its GPUs compute (0 while it restarts)
    // Bytes per step on each link direction it loads, and its step now.
    std::shared_ptr<const std::vector<std::pair<int32_t, float>>> bytesPerStep;
    double stepS = 0;
    // Its write rate per storage server while it checkpoints alone, and the fraction of that
    // it writes on average (over its checkpoint interval, sharing the storage).
    std::shared_ptr<const std::vector<float>> checkpointServerBps;
    double checkpointWeight = 0;
};
using ClusterFrameFn = std::function<void(double atS, const std::vector<ClusterFrameJob>&)>;

// `spanS` 0: until every job ends. Throws InputException for a job that cannot run on this
// cluster whatever the others do (too many GPUs, a bad configuration), naming it as
// "jobs[i].run.<field>", and for a failure naming no part of the fabric ("failures[i].part").
// `onFrame` sees the running jobs after each event (a restarting job computes nothing until
// it resumes, a frame of its own).
ClusterRunResult simulateCluster(const TopologyDocument& doc, const Workload& w, double spanS,
                                 const ClusterProgressFn& progress = {},
                                 const ClusterFrameFn& onFrame = {});

} // namespace cs
