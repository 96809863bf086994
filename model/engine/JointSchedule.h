#pragma once
// Several jobs' steps on one fabric, event by event: every job runs its own step schedule
// (ScheduleStepper) step after step on one clock, and whenever the transfers running change in
// any of them, one max-min fair solve over all of them gives each its rates. So bursts that
// fall together share the links they meet on while they overlap, and interleave where they do
// not; what each job's steps take then is its step as it ran beside the others.
#include "TrainingStepModel.h"

#include <memory>
#include <vector>

namespace cs {

struct JointJob {
    std::shared_ptr<const StepProgram> program; // from estimateStep(..., program)
    double startOffsetS = 0;                    // when its first step starts
};

struct JointJobSteps {
    std::vector<double> stepS; // each step it completed, in order
    double meanStepS() const;
};

struct JointStats {
    long long events = 0, solves = 0;
};

// Runs until every job has completed `minSteps` steps, or `maxEvents` events once every job
// has completed one. The jobs' programs must be on the same topology.
std::vector<JointJobSteps> runJointSchedule(const std::vector<JointJob>& jobs, int minSteps,
                                            long long maxEvents = 20'000'000,
                                            JointStats* stats = nullptr);

} // namespace cs
