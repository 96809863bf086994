#include "PassOrder.h"

#include <algorithm>
#include <deque>

namespace cs {

// The order in which one stage runs its passes: warm-up forwards, then one forward and one
// backward in turn, then the remaining backwards (Megatron-LM's interleaved 1F1B; plain 1F1B
// with one chunk).
std::vector<PassOp> stageOrder(int stage, int stages, int chunks, int micro) {
    const int total = micro * chunks;
    int warmup =
        chunks == 1 ? stages - stage - 1 : (stages - stage - 1) * 2 + (chunks - 1) * stages;
    warmup = std::clamp(warmup, 0, total);
    // The k-th forward (backward) of the stage: micro-batches in groups of `stages`, chunk by
    // chunk (backwards from the last chunk).
    auto chunkOf = [&](int k, bool forward) {
        const int c = (k / stages) % chunks;
        return forward ? c : chunks - 1 - c;
    };
    auto microOf = [&](int k) { return (k / (stages * chunks)) * stages + k % stages; };
    std::vector<PassOp> ops;
    ops.reserve(size_t(2 * total));
    int f = 0, b = 0;
    for (; f < warmup; ++f)
        ops.push_back({true, chunkOf(f, true), microOf(f)});
    while (b < total) {
        if (f < total) {
            ops.push_back({true, chunkOf(f, true), microOf(f)});
            ++f;
        }
        ops.push_back({false, chunkOf(b, false), microOf(b)});
        ++b;
    }
    return ops;
}

// DualPipe's order for one stage (DeepSeek's reference implementation, dualpipe.py, its eight
// steps). "Phase 0" is the direction whose micro-batches reach the stage first: chunk 0 on the
// first half of the stages, chunk 1 on the second. Weight gradients of split backwards wait
// in a queue and run where a step says, oldest first.
std::vector<PassOp> dualPipeOrder(int stage, int stages, int micro) {
    const int half = stages / 2, halfRank = std::min(stage, stages - 1 - stage);
    const int halfMicro = micro / 2;
    const bool middle = halfRank == half - 1;
    const int flip = stage >= half ? 1 : 0;
    int nextF[2] = {0, 0}, nextB[2] = {0, 0};
    std::deque<PassOp> weights;
    std::vector<PassOp> ops;
    auto forward = [&](int phase, bool paired = false, int sendAfter = 0) {
        const int c = phase ^ flip;
        ops.push_back({true, c, nextF[c]++, false, false, paired, sendAfter});
    };
    auto backward = [&](int phase, bool split = false, bool paired = false) {
        const int c = phase ^ flip;
        ops.push_back({false, c, nextB[c], false, split, paired, 0});
        if (split) weights.push_back({false, c, nextB[c], true});
        ++nextB[c];
    };
    auto weight = [&] {
        ops.push_back(weights.front());
        weights.pop_front();
    };
    auto forwardBackward = [&](int f, int b) {
        forward(f, true);
        backward(b, false, true);
    };
    for (int i = 0; i < (half - halfRank - 1) * 2; ++i) // 1: forwards of phase 0
        forward(0);
    // 2: phase 0 and 1 in turn; phase 0's output leaves with phase 1's, and on the middle
    // stages the last phase 1 output with the next phase 0's.
    for (int i = 0; i < halfRank + 1; ++i) {
        forward(0, false, middle ? 0 : 1);
        forward(1, false, middle && i == halfRank ? 1 : 0);
    }
    for (int i = 0; i < half - halfRank - 1; ++i) { // 3: B1 W1 F1, zero bubble
        backward(1, true);
        weight();
        forward(1);
    }
    for (int i = 0; i < halfMicro - stages + halfRank + 1; ++i) { // 4: the main part
        if (i == 0 && middle) { // not overlapped: it would widen the bubble
            forward(0, false, 1);
            backward(1);
        } else {
            forwardBackward(0, 1);
        }
        forwardBackward(1, 0);
    }
    for (int i = 0; i < half - halfRank - 1; ++i) { // 5: B1, F1 with B0
        backward(1);
        forwardBackward(1, 0);
    }
    bool split = false;
    for (int i = 0; i < halfRank + 1; ++i) { // 6: B1 B0, the later half zero bubble
        if (i == (halfRank + 1) / 2 && halfRank % 2 == 1) split = true;
        backward(1, split);
        if (i == (halfRank + 1) / 2 && halfRank % 2 == 0) split = true;
        backward(0, split);
    }
    for (int i = 0; i < half - halfRank - 1; ++i) { // 7: W, B0 zero bubble
        weight();
        backward(0, true);
    }
    while (!weights.empty()) // 8: the weight gradients left
        weight();
    return ops;
}

} // namespace cs
