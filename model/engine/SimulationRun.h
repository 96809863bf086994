#pragma once
// A simulated run: N steps, or a wall-clock span with checkpoints and failures. Produces
// the summary and the time series for the views (into a RunStore); ChromeTrace.h traces a step.
#include "FabricFaults.h"
#include "FailureModel.h"
#include "RunStore.h"
#include "StorageTraffic.h"
#include "TopologyDocument.h"
#include "TrainingStepModel.h"

#include <QJsonObject>

#include <functional>

namespace cs {

struct StorageFabric {
    double sustainedBytesPerS = 2e12; // [paper] Tectonic: 2 TB/s sustained
    double peakBytesPerS = 7e12;      // [paper] 7 TB/s peak
};

struct RunSpec {
    std::string model = "llama3-405b";    // a preset name, or the name of customModel
    std::optional<ModelSpec> customModel; // a shape given in the run file
    std::string gpu = "h100-sxm";
    ParallelConfig parallel;
    int steps = 0;    // either steps ...
    double spanS = 0; // ... or a wall-clock span
    // [assumption] Meta did not publish their interval; 15 minutes with the detection and
    // restart times of FailureParams keeps 54 days at 16K GPUs above the paper's 90%.
    double checkpointIntervalS = 15 * 60;
    double resolutionS = 0.010; // frame interval inside a step, for the replay
    double memoryBudgetGiB = 0; // refuse runs estimated to need more; 0: the machine's memory
    bool failures = false;
    uint64_t seed = 1;
    StorageFabric storage;
    FailureParams failureTimes{3 * 60, 5 * 60};
    FabricFaults fabric; // parts down or slowed for the whole run
};

// The model a spec trains: its own shape or the preset it names.
std::optional<ModelSpec> modelOf(const RunSpec& spec);

// Changes whenever the engine's output for one run description changes, so that cached
// runs (the GUI's default run) are simulated again rather than replayed stale.
constexpr int kEngineRevision =
    8; // 8: kernel constants from microbenchmarks, stragglers, NCCL size

struct RunResult {
    StepEstimate step;
    double checkpointS = 0;
    double checkpointBytes = 0;
    StorageFlows checkpointFlows;   // the writes, routed from the job's hosts to Tectonic
    std::string checkpointLastHost; // whose shard is written last (empty: no frontend)
    double simulatedS = 0;          // steps x step time, or the span
    long long steps = 0;
    std::vector<Interruption> interruptions;
    std::vector<int32_t> failedLinks; // down for the whole run (RunSpec::fabric), sorted
    double lostS = 0;
    double effectiveTrainingTime = 1; // fraction of the span spent on kept progress
};

using ProgressFn = std::function<void(double fraction)>;

// Throws InputException for bad specs (unknown model or GPU, configs that do not fit).
RunResult simulateRun(const TopologyDocument& doc, const RunSpec& spec, RunStore* store,
                      const ProgressFn& progress = {});
// A step's parts as the summary gives them: {"computeS": ..., "bubbleS": ..., ...}.
QJsonObject stepPartsJson(const StepParts& parts);
// The slowest stage's step as a stored run's summary keeps it ("stepSegments"); entries that
// are not [from, to, part] with 0 <= from < to and a known part are left out, and at most
// 100,000 are read (a hostile store cannot make the timeline draw millions).
std::vector<StepSegment> stepSegmentsOf(const QJsonObject& summary);
QJsonObject runSummaryJson(const RunResult& r, const RunSpec& spec);

} // namespace cs
