#pragma once
// Where a step's time goes, measured from the schedule's own timeline: every moment of every
// stage's step is given to exactly one part, so the parts add up to the step time.
//  - compute: the stage's kernels run (ScheduleResult::busy);
//  - exposed CP: a layer's CP phase (ScheduleResult::cpExposed); exposed EP likewise (a MoE
//    layer's all-to-all, ScheduleResult::epExposed); host-bound likewise (the GPU waiting for
//    the host to issue a layer's kernels, ScheduleResult::hostBound);
//  - exposed TP: inside a pass, compute done and the layer's TP collective still running;
//  - waiting before a pass: while the pass's input has not been sent (the neighbouring stage
//    is still computing it) the stage is in the pipeline bubble; while the input is on the
//    wire or queued behind other sends, exposed PP; with the input there but the layer's
//    parameters not yet gathered, exposed DP (also inside a pass, for later layers);
//  - after its last pass: the stage's own gradient reductions (exposed DP), waiting for other
//    stages still computing (bubble) or reducing (exposed DP), then the optimizer.
// Data loading is a part of the layout but zero today: the loader's batch is ready at the
// step's start. What no rule claims is `other` (≈ 0).
#include "StepSchedule.h"

#include <array>
#include <string_view>
#include <vector>

namespace cs {

enum class StepPart {
    Compute,
    Bubble,
    ExposedTp,
    ExposedCp,
    ExposedPp,
    ExposedDp,
    ExposedEp,
    Optimizer,
    DataLoad,
    Other,
    HostBound // last: stored runs name parts by index
};
constexpr int kStepParts = 11;

struct StepPartName {
    StepPart part;
    std::string_view key;   // the JSON field: "computeS"
    std::string_view label; // what the GUI shows: "Compute"
};
const std::array<StepPartName, kStepParts>& stepPartNames();

struct StepParts {
    std::array<double, kStepParts> s{}; // seconds per StepPart
    double& operator[](StepPart p) { return s[size_t(p)]; }
    double operator[](StepPart p) const { return s[size_t(p)]; }
    double totalS() const;
};

struct StepSegment {
    double fromS = 0, toS = 0;
    StepPart part = StepPart::Other;
};

struct StepBreakdown {
    std::vector<StepParts> stages;                  // per pipeline stage
    std::vector<std::vector<StepSegment>> segments; // per stage, in time order, covering the step
    int slowestStage = 0; // the stage that waits least: the one on the critical path
    // Its parts; all zero for a step not broken down (a default-made result).
    const StepParts& slowest() const {
        static const StepParts none{};
        return stages.empty() ? none : stages[size_t(slowestStage)];
    }
};

StepBreakdown breakdownOfStep(const ScheduleResult& r);

} // namespace cs
