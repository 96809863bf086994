#pragma once
// A layer's forward as the event schedule's phases: its compute and the TP collectives around
// or beside it.
#include "StepSchedule.h"
#include "TrainingSpecs.h"

#include <vector>

namespace cs {

// A forward (or a fully recomputed one) of `computeS`, `gemmS` of it in the GEMMs, whose TP
// ring passes move `tpPassBytes` per edge: with sequence parallelism an all-gather before and
// a reduce-scatter after attention and the MLP, else an all-reduce after each; with TP overlap
// all of them beside the GEMMs. `share`: of the layers, those that run it (recomputation's
// block method), their TP bytes and ring latencies averaged.
void addForwardPhases(const ParallelConfig& c, double computeS, double gemmS, double tpPassBytes,
                      std::vector<LayerPhase>& out, double share = 1);

} // namespace cs
