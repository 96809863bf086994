#pragma once
// A run's step times as a distribution. The engine gives one step (the mean GPU's pace with
// the job's slowest GPU setting it); over a run steps differ by what the run meets, each
// mechanism with its published size (docs/model/step-distribution.md):
//  - the clock over the day: Llama 3's 405B throughput varied 1-2 % with the time of day
//    (temperature and clock scaling): a 24-hour sine of 1.5 % peak to peak, the run starting
//    at a time of day drawn from its seed;
//  - checkpoints (a span): the step during which one is due waits for its write;
//  - a degraded fabric (a span with failures): after a failed link or switch and the restart,
//    steps take the degraded step until the repair; the lost time itself holds no step.
// Not modelled: step-to-step jitter of single GPUs or of the network (no published size).
#include "RunResult.h"
#include "RunSpec.h"

#include <utility>
#include <vector>

namespace cs {

// Steps walked at most; a longer run is walked in evenly spaced samples of its steps.
constexpr long long kMaxWalkedSteps = 2'000'000;
// Llama 3 (arXiv 2407.21783, 3.3.4): "1-2% throughput variation based on time-of-day".
constexpr double kDiurnalPeakToPeak = 0.015;
constexpr double kDaySeconds = 24 * 3600.0;

struct StepTimeDistribution {
    long long steps = 0; // the steps it covers
    double meanS = 0;    // their mean (checkpoint waits included)
    double p50S = 0, p99S = 0, maxS = 0;
    // Of the engine's step: the time spent waiting for the job's slowest GPU (lock-step
    // stragglers, Stragglers.h): its busiest stage's compute less the mean GPU's.
    double slowestGpuShare = 0;
};

StepTimeDistribution stepTimeDistribution(const RunResult& r, const RunSpec& spec);

// The distribution of steps given as (step time, how many steps took it): nearest-rank
// percentiles over the steps; `steps` is the count rounded.
StepTimeDistribution distributionOfSteps(std::vector<std::pair<double, double>> stepAndCount);

} // namespace cs
