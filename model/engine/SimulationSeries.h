#pragma once
// Writes a simulated run's time series through the run store's one door: a steady step at
// full time resolution (frames every 10 ms), a checkpoint and a "down" pattern, and the
// timeline of which plays when (training stretches, checkpoints every interval,
// interruptions from failure to restart), with events and run-wide scalars.
#include "RunResult.h"
#include "RunSpec.h"
#include "RunWriter.h"
#include "TopologyDocument.h"

namespace cs {

constexpr int kMaxFramesPerStep = 4096; // longer steps get a coarser interval than asked

void writeRunSeries(const TopologyDocument& doc, const RunSpec& spec, const RunResult& r,
                    RunStore& store, const ProgressFn& progress);

} // namespace cs
