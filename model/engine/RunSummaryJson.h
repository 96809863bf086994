#pragma once
// A run's summary as JSON: what `simulate --json` prints, a stored run keeps and studies
// record (the step, its parts, memory, the spread of steps, failures, the run file that runs it
// again), and the step's segments read back from a stored summary.
#include "RunResult.h"
#include "RunSpec.h"

#include <QJsonObject>

#include <vector>

namespace cs {

// A step's parts as the summary gives them: {"computeS": ..., "bubbleS": ..., ...}.
QJsonObject stepPartsJson(const StepParts& parts);
// The slowest stage's step as a stored run's summary keeps it ("stepSegments"); entries that
// are not [from, to, part] with 0 <= from < to and a known part are left out, and at most
// 100,000 are read (a hostile store cannot make the timeline draw millions).
std::vector<StepSegment> stepSegmentsOf(const QJsonObject& summary);
QJsonObject runSummaryJson(const RunResult& r, const RunSpec& spec);

} // namespace cs
