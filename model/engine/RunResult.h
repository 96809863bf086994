#pragma once
// What a simulated run gives: the step, the checkpoint, the interruptions and what they cost.
// Plain data handed from the engine's thread to whoever shows it.
#include "FailureModel.h"
#include "StorageTraffic.h"
#include "TrainingStepModel.h"

#include <functional>
#include <string>
#include <vector>

namespace cs {

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

} // namespace cs
