#pragma once
// A generated job mix, as a workload file's "mix" describes it:
//   {"jobs": 100, "seed": 1, "arrivalSpanS": 172800, "minDurationS": 3600,
//    "maxDurationS": 86400, "sizes": [{"gpus": 64, "weight": 30}, ...]}
// Arrivals uniform over the span (a Poisson process given its count), durations log-uniform
// between the bounds, sizes drawn by weight. A job of N GPUs trains the Llama 3 shape a team
// of that size would: 8B up to 256 GPUs (TP 8), 70B up to 2,048 (TP 8, PP 4), else 405B
// (TP 8, PP 16), DP making up the rest.
#include "JsonObjectReader.h"
#include "Workload.h"

namespace cs {

struct MixSize {
    int gpus = 0;
    double weight = 0;
};

struct WorkloadMix {
    int jobs = 100;
    uint64_t seed = 1;
    double arrivalSpanS = 2 * 86400.0;
    double minDurationS = 3600, maxDurationS = 24 * 3600.0;
    // [assumption] no mix of Meta's clusters is published: sizes from one host to a third of
    // a 24K cluster, enough that 100 jobs over two days keep it about as busy as it is large.
    std::vector<MixSize> sizes = {{8, 10},    {64, 15},   {256, 20}, {1024, 25},
                                  {2048, 15}, {4096, 10}, {8192, 5}};
};

// Reads a "mix" object; throws JsonFieldError below `r`'s path.
WorkloadMix readWorkloadMix(JsonObjectReader& r);
// The mix's jobs, named "mix-1", "mix-2", ... in arrival order.
std::vector<WorkloadJob> generateJobs(const WorkloadMix& mix);
// The run of a mix job of `gpus` GPUs (a multiple of 8).
RunSpec mixJobRun(int gpus);

} // namespace cs
