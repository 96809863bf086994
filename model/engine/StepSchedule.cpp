#include "StepSchedule.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace cs {
namespace {

struct Op {
    bool forward;
    int chunk, micro;
};

// The order in which one stage runs its passes: warm-up forwards, then one forward and one
// backward in turn, then the remaining backwards (Megatron-LM's interleaved 1F1B; plain 1F1B
// with one chunk).
std::vector<Op> stageOrder(int stage, int stages, int chunks, int micro) {
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
    std::vector<Op> ops;
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

} // namespace

ScheduleResult runSchedule(const ScheduleInput& in) {
    const int p = in.stages, v = in.chunks, m = in.microBatches;
    if (p < 1 || v < 1 || m < 1) throw std::invalid_argument("empty schedule");
    ScheduleResult out;
    out.compute.resize(size_t(p));
    out.passes.resize(size_t(p));
    out.gathers.resize(size_t(p));
    out.reduces.resize(size_t(p));
    out.sends.resize(size_t(std::max(0, p - 1)));
    const double never = std::numeric_limits<double>::infinity();
    // Finish times of every pass: [stage][chunk][micro].
    auto index = [&](int s, int c, int j) {
        return (size_t(s) * size_t(v) + size_t(c)) * size_t(m) + size_t(j);
    };
    std::vector<double> fwdDone(size_t(p) * v * m, never), bwdDone(size_t(p) * v * m, never),
        bwdStart(size_t(p) * v * m, 0);
    // DP parameter gathers: streamed chunk by chunk from the start; without overlap all
    // before the first forward.
    auto layersOf = [&](int s, int c) {
        return s < int(in.layersPerChunk.size()) && c < int(in.layersPerChunk[size_t(s)].size())
                   ? std::max(1, in.layersPerChunk[size_t(s)][size_t(c)])
                   : 1;
    };
    std::vector<std::vector<double>> gatheredAt(size_t(p), std::vector<double>(size_t(v), 0));
    for (int s = 0; s < p; ++s) {
        const double per = s < int(in.gatherS.size()) ? in.gatherS[size_t(s)] / v : 0;
        double at = 0;
        for (int c = 0; c < v && per > 0; ++c) {
            out.gathers[size_t(s)].push_back({at, at + per});
            at += per;
            // Layer by layer: the chunk's forward may start once its first layer is there, as
            // long as the last arrives before the forward reaches it.
            const double lag = (layersOf(s, c) - 1.0) / layersOf(s, c);
            gatheredAt[size_t(s)][size_t(c)] =
                in.overlapGather
                    ? std::max(at - per * lag, at - in.forwardS[size_t(s)][size_t(c)] * lag)
                    : per * v;
        }
    }
    std::vector<std::vector<Op>> order(static_cast<size_t>(p));
    std::vector<size_t> next(size_t(p), 0);
    std::vector<double> freeAt(size_t(p), 0);
    for (int s = 0; s < p; ++s)
        order[size_t(s)] = stageOrder(s, p, v, m);
    // When a pass's input arrives: the pass it depends on, plus the send between stages.
    auto readyAt = [&](int s, const Op& op) -> double {
        if (op.forward) {
            double t = gatheredAt[size_t(s)][size_t(op.chunk)];
            if (s > 0) return std::max(t, fwdDone[index(s - 1, op.chunk, op.micro)] + in.sendS);
            if (op.chunk > 0)
                return std::max(t, fwdDone[index(p - 1, op.chunk - 1, op.micro)] + in.sendS);
            return t;
        }
        if (s < p - 1) return bwdDone[index(s + 1, op.chunk, op.micro)] + in.sendS;
        if (op.chunk < v - 1) return bwdDone[index(0, op.chunk + 1, op.micro)] + in.sendS;
        return fwdDone[index(s, op.chunk, op.micro)]; // the loss: right after its own forward
    };
    size_t remaining = 0;
    for (const auto& o : order)
        remaining += o.size();
    // Runs whichever stage's next pass can start earliest, until every pass ran.
    while (remaining > 0) {
        int best = -1;
        double bestStart = never;
        for (int s = 0; s < p; ++s) {
            if (next[size_t(s)] >= order[size_t(s)].size()) continue;
            const double start =
                std::max(freeAt[size_t(s)], readyAt(s, order[size_t(s)][next[size_t(s)]]));
            if (start < bestStart) bestStart = start, best = s;
        }
        if (best < 0) throw std::logic_error("the pipeline schedule deadlocked");
        const Op op = order[size_t(best)][next[size_t(best)]++];
        const double dur = op.forward ? in.forwardS[size_t(best)][size_t(op.chunk)]
                                      : in.backwardS[size_t(best)][size_t(op.chunk)];
        const double end = bestStart + dur;
        (op.forward ? fwdDone : bwdDone)[index(best, op.chunk, op.micro)] = end;
        if (!op.forward) bwdStart[index(best, op.chunk, op.micro)] = bestStart;
        freeAt[size_t(best)] = end;
        out.passes[size_t(best)].push_back({bestStart, end, op.forward, op.chunk, op.micro});
        auto& busy = out.compute[size_t(best)];
        if (!busy.empty() && busy.back().toS >= bestStart - 1e-12)
            busy.back().toS = end; // back to back: one interval
        else
            busy.push_back({bestStart, end});
        // The send this pass feeds: forward to the next stage, backward to the previous one.
        const int boundary = op.forward ? (best < p - 1 ? best : -1) : (best > 0 ? best - 1 : -1);
        if (boundary >= 0 && in.sendS > 0)
            out.sends[size_t(boundary)].push_back({end, end + in.sendS});
        --remaining;
        ++out.events;
    }
    // DP gradient reductions, one chunk after another per stage, each once its last backward
    // is done; without overlap all after the stage's compute.
    for (int s = 0; s < p; ++s) {
        const double per = s < int(in.reduceS.size()) ? in.reduceS[size_t(s)] / v : 0;
        double at = freeAt[size_t(s)];
        if (per > 0 && in.overlapReduce) {
            // Chunks in the order their last backward ends; each chunk's layers hand their
            // gradients over one by one during it.
            std::vector<std::pair<double, int>> chunkOrder;
            for (int c = 0; c < v; ++c) {
                int lastMicro = 0;
                for (int j = 0; j < m; ++j)
                    if (bwdDone[index(s, c, j)] > bwdDone[index(s, c, lastMicro)]) lastMicro = j;
                chunkOrder.emplace_back(bwdDone[index(s, c, lastMicro)], c * m + lastMicro);
            }
            std::sort(chunkOrder.begin(), chunkOrder.end());
            at = 0;
            for (const auto& [end, key] : chunkOrder) {
                const int c = key / m, j = key % m;
                const double b0 = bwdStart[index(s, c, j)];
                const int layers = layersOf(s, c);
                for (int l = 0; l < layers; ++l) {
                    const double ready = b0 + (end - b0) * (l + 1) / layers;
                    const double start = std::max(at, ready);
                    at = start + per / layers;
                    if (!out.reduces[size_t(s)].empty() &&
                        out.reduces[size_t(s)].back().toS >= start - 1e-12)
                        out.reduces[size_t(s)].back().toS = at;
                    else
                        out.reduces[size_t(s)].push_back({start, at});
                }
            }
        } else if (per > 0) {
            out.reduces[size_t(s)].push_back({at, at + per * v});
            at += per * v;
        }
        out.computeEndS = std::max(out.computeEndS, freeAt[size_t(s)]);
        out.stepS = std::max(out.stepS, std::max(at, freeAt[size_t(s)]));
    }
    for (auto& s : out.sends)
        std::sort(s.begin(), s.end(),
                  [](const Interval& a, const Interval& b) { return a.fromS < b.fromS; });
    out.stepS += in.optimizerS;
    return out;
}

} // namespace cs
