#pragma once
// One pipeline stage's step as the inspector's small Gantt draws it for a GPU of that stage:
// the step's parts in time order (as StepBreakdown gave them), its forward and backward passes
// (micro-batch and chunk each), and the stage's collectives by kind. The collectives of a row
// that lie closer than a resolution are merged into one bar: a picture a few hundred pixels
// wide needs no more, and a stored run's summary stays small.
#include "StepBreakdown.h"

#include <QJsonObject>

#include <array>
#include <optional>
#include <string_view>
#include <vector>

namespace cs {

enum class GanttRow { Forward, Backward, Tp, PpSend, DpGather, DpReduce };
constexpr int kGanttRows = 6;
std::string_view ganttRowLabel(GanttRow row); // "forward", "TP", "PP sends", ...

struct GanttBar {
    double fromS = 0, toS = 0;
    int micro = -1, chunk = -1; // passes only
};

struct StageGantt {
    int stage = 0;
    double stepS = 0;
    std::vector<StepSegment> parts;                       // in time order
    std::array<std::vector<GanttBar>, kGanttRows> rows{}; // each in time order
    const std::vector<GanttBar>& row(GanttRow r) const { return rows[size_t(r)]; }
};

// Every stage's Gantt; collectives closer than `mergeS` become one bar.
std::vector<StageGantt> ganttOfStep(const ScheduleResult& r, const StepBreakdown& b, double mergeS);
// Stored in a run's summary as "stageGantt" (times rounded to the microsecond), read back
// for one stage. None when the summary has no Gantt or not this stage; entries that are not
// well-formed bars inside the step are left out, and at most kMaxGanttBars are read per row.
constexpr size_t kMaxGanttBars = 20000;
QJsonObject ganttJson(const std::vector<StageGantt>& stages);
std::optional<StageGantt> stageGanttOf(const QJsonObject& summary, int stage);

} // namespace cs
