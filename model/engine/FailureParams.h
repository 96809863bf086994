#pragma once
// How long an interruption of a long run lasts and a failed fabric part stays down (plain
// data): FailureModel.h draws the interruptions, RunSpec.h carries the times a run uses.

namespace cs {

struct FailureParams {
    double detectionS = 5 * 60; // [assumption] watchdogs and health checks notice a hang
    double restartS = 10 * 60;  // [assumption] reschedule, reload the checkpoint, warm up
    // [assumption] a failed cable or switch is replaced by the site's technicians within a
    // working shift; until then routes go around it.
    double fabricRepairS = 4 * 3600;
};

} // namespace cs
