#pragma once
// Interruptions of a long run, drawn from the Llama 3 paper's Table 5 (a 54-day snapshot of
// 405B pre-training on about 16K GPUs): each cause's rate per GPU-hour is its count there
// divided by 54 days x 24 h x 16,384 GPUs; planned interruptions scale with time only.
// Every interruption hits a concrete entity of the topology used by the job.
// Table 5 and the entity each cause hits: docs/reference/failures.md.
#include "FailureParams.h"
#include "Topology.h"

#include <random>
#include <string>
#include <vector>

namespace cs {

enum class FailureTarget : uint8_t { Gpu, Host, Switch, Link, Nic, Job };

struct FailureCause {
    const char* name;
    int countIn54Days; // Table 5
    FailureTarget target;
    bool planned = false;
};

const std::vector<FailureCause>& failureCauses();

struct Interruption {
    double atS = 0;   // since the run's start
    int cause = 0;    // index into failureCauses()
    Endpoint entity;  // what it hit
    double lostS = 0; // detection + restart + recomputation since the last checkpoint
    // A failed backend link or switch: after the restart the job runs on the fabric without
    // it until its repair, each step taking degradedStepS (0: not degraded).
    double degradedS = 0, degradedStepS = 0;
    // The training time the degraded stretch costs: its steps run slower.
    double degradationLossS(double stepS) const {
        return degradedStepS > stepS ? degradedS * (1 - stepS / degradedStepS) : 0;
    }
};

// Interruptions over `spanS` for a job on `jobGpus` (GPU indices), deterministic for `seed`.
// `checkpointIntervalS` sets how much work each one throws away. With `linkBytes` (per link
// direction, a step's) a failed cable or switch is one the job's traffic crosses (Table 5
// counts failures that interrupted the job); without, any fibre link or backend switch.
std::vector<Interruption> drawInterruptions(const Topology& t, const std::vector<int32_t>& jobGpus,
                                            double spanS, double checkpointIntervalS, uint64_t seed,
                                            const FailureParams& p = {},
                                            const std::vector<double>* linkBytes = nullptr);

} // namespace cs
