#pragma once
// A simulated run: N steps, or a wall-clock span with checkpoints and failures. Produces
// the summary (RunSummaryJson.h) and the time series for the views (into a RunStore);
// ChromeTrace.h traces a step.
#include "RunResult.h"
#include "RunSpec.h"
#include "RunStore.h"
#include "RunSummaryJson.h"
#include "TopologyDocument.h"

#include <functional>

namespace cs {

// Throws InputException for bad specs (unknown model or GPU, configs that do not fit).
RunResult simulateRun(const TopologyDocument& doc, const RunSpec& spec, RunStore* store,
                      const ProgressFn& progress = {});

} // namespace cs
