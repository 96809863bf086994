#pragma once
// One training step as events: every pipeline stage runs its forward and backward passes of
// each micro-batch and virtual stage in the interleaved 1F1B order (Megatron-LM's), each
// waiting for the pass it depends on in the neighbouring stage plus the send between them;
// DP collectives stream per chunk (parameter gathers before a chunk's first forward,
// gradient reductions after its last backward) or, without overlap, before and after all
// compute. What comes out is the step's timeline per stage, from which the step time, the
// bubble and the replay's frames follow.
#include <vector>

namespace cs {

struct Interval {
    double fromS = 0, toS = 0;
};

struct ScheduleInput {
    int stages = 1, chunks = 1, microBatches = 1;
    std::vector<std::vector<double>> forwardS, backwardS; // [stage][chunk], per micro-batch
    // [stage][chunk]: DP collectives go in buckets of one layer, as a chunk's last backward
    // produces them (and its first forward needs them).
    std::vector<std::vector<int>> layersPerChunk;
    double sendS = 0;                     // one activation (or gradient) send
    std::vector<double> gatherS, reduceS; // per stage, the whole step's DP work
    bool overlapGather = true, overlapReduce = true;
    double optimizerS = 0;
};

struct PassRecord {
    double fromS = 0, toS = 0;
    bool forward = true;
    int chunk = 0, micro = 0;
};

struct ScheduleResult {
    double stepS = 0;
    double computeEndS = 0;                              // the last backward
    std::vector<std::vector<Interval>> compute;          // per stage, in time order
    std::vector<std::vector<PassRecord>> passes;         // per stage, in time order
    std::vector<std::vector<Interval>> gathers, reduces; // per stage
    std::vector<std::vector<Interval>> sends;            // per boundary (stage b and b + 1)
    long long events = 0;
};

ScheduleResult runSchedule(const ScheduleInput& in);

} // namespace cs
