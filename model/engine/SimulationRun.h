#pragma once
// A simulated run: N steps, or a wall-clock span with checkpoints and failures. Produces
// the summary and the time series for the views (into a RunStore); ChromeTrace.h traces a step.
#include "RunResult.h"
#include "RunSpec.h"
#include "RunStore.h"
#include "TopologyDocument.h"

#include <QJsonObject>

#include <functional>

namespace cs {

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
