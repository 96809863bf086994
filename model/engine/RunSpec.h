#pragma once
// What a simulated run is asked to be: the model, GPU and parallel layout, steps or a span,
// checkpoints, failures, storage and the parts of the fabric down. Plain data (no engine);
// read and written by RunSpecJson, simulated by SimulationRun.
#include "FabricFaultList.h"
#include "FailureParams.h"
#include "TrainingSpecs.h"

#include <optional>
#include <string>

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
// 8: kernel constants from microbenchmarks, stragglers, NCCL size; 9: the summary's
// stepTimeDistribution.
constexpr int kEngineRevision = 9;

} // namespace cs
