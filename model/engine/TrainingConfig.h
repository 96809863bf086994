#pragma once
// A training configuration before any step is estimated: its defaults settled, what cannot
// run refused, its memory per GPU and its model FLOPs (TrainingConfig.cpp).
#include "TrainingSpecs.h"

namespace cs {

struct MemoryEstimate {
    double weightsGiB = 0, gradientsGiB = 0, optimizerGiB = 0, activationsGiB = 0;
    double totalGiB() const { return weightsGiB + gradientsGiB + optimizerGiB + activationsGiB; }
};

// The configuration with its "follows" defaults settled: virtualStages 0 becomes 1 without
// PP, else the largest V <= kMaxAutoVirtualStages whose PP x V chunks split the layers (evenly,
// or with one fewer on the first and last stage) and, for V > 1, whose micro-batches are a
// multiple of PP. Every other field as given.
constexpr int kMaxAutoVirtualStages = 8;
ParallelConfig withResolvedDefaults(const ModelSpec& m, ParallelConfig c);
// Rejects what cannot run (TP x CP x PP x DP vs GPUs, divisibility, memory) with the option
// to change named as the field. Throws InputException.
void checkTrainingConfig(const ModelSpec& m, const GpuSpec& g, const ParallelConfig& c);
MemoryEstimate estimateMemory(const ModelSpec& m, const ParallelConfig& c);
// Model FLOPs of one step (forward + backward, attention included, no recomputation).
double modelFlopsPerStep(const ModelSpec& m, const ParallelConfig& c);

} // namespace cs
