#pragma once
// The order in which a pipeline stage runs its passes: Megatron-LM's (interleaved) 1F1B, and
// DualPipe's, as StepSchedule's simulation takes them.
#include <vector>

namespace cs {

struct PassOp {
    bool forward;
    int chunk, micro;
    bool weight = false; // a deferred weight gradient of a backward (ZB-H1, DualPipe)
    bool split = false;  // DualPipe: a backward whose weight gradient runs later
    bool paired = false; // DualPipe: a forward run with the backward after it, or that backward
    int sendAfter = 0;   // DualPipe: its output leaves once this many more passes are done
};

std::vector<PassOp> stageOrder(int stage, int stages, int chunks, int micro);
std::vector<PassOp> dualPipeOrder(int stage, int stages, int micro);

} // namespace cs
