#include "KernelModel.h"

#include "NcclConstants.h"
#include "PipelineLayers.h"
#include "TrainingEfficiency.h"

#include <algorithm>
#include <cmath>
#include <span>

namespace cs {

const KernelConstants& kernelConstants(const GpuSpec& g) {
    // docs/reference/microbenchmarks.md gives each value's measurement. GEMM: the
    // sustained rate of large BF16 GEMMs (cuBLAS 8192^3 about 740 TFLOP/s on H100; cuBLASLt
    // 16384^3 256.5 on A100) over the shape terms below. Attention: FlashAttention-3 (H100)
    // and -2 (A100) forward + backward, causal, head dim 128 at 8K; head dim 64 of that:
    // FlashAttention-3's and -2's charts on H100 at 8K (FA-2's kernels are A100's). HBM:
    // BabelStream Triad.
    // NVLink: nccl-tests ring bus bandwidth on 8 GPUs. Inner-dimension half point: fitted on
    // the calibration rows (Korthikanti et al. Table 4 layers for Ampere). FP8: the best-shape
    // search on H100 (e4m3 1,402.6 TFLOP/s, 70.9 % of peak, against BF16's 80.3 %). In training,
    // beyond the SMs communication holds (TrainingEfficiency.h): Ampere's Selene rows agree with
    // the kernels (1); Hopper's Llama 3 rows run at 0.805 of them, a loss no measured mechanism
    // yet explains (see the reference; the engine reports it as computeLosses.unexplainedS).
    static const KernelConstants hopper{0.79, 0.71, 0.58, 0.82, 0.89, 160, 0.82, 0.805};
    static const KernelConstants ampere{0.83, 0.83, 0.61, 0.90, 0.83, 96, 0.78, 1.0};
    // [assumption] Blackwell as Hopper until calibration rows exist.
    if (g.family == "ampere") return ampere;
    return hopper;
}

double gpuClockUnderPowerLimit(const GpuSpec& g, double limitW) {
    if (!(limitW > 0) || !(g.tdpWatts > 0) || limitW >= g.tdpWatts) return 1;
    const double idleW = kGpuIdleFractionOfTdp * g.tdpWatts;
    if (limitW <= idleW) return 0;
    return std::cbrt((limitW - idleW) / (g.tdpWatts - idleW));
}

GpuSpec gpuUnderPowerLimit(const GpuSpec& g, double limitW) {
    GpuSpec out = g;
    const double clock = gpuClockUnderPowerLimit(g, limitW);
    out.peakBf16Tflops *= clock;
    out.peakFp8Tflops *= clock;
    return out;
}

namespace {

// Sequence parallelism casts its shard of a full-width (hidden) tensor before gathering it.
double fullWidthShare(const ParallelConfig& c) {
    return c.sequenceParallel ? 1.0 / c.tp : 1.0;
}

// Bytes streamed per element cast from BF16 (see layerTimes).
double castBytes(const GpuSpec& g, Precision p) {
    // One scale per tensor: an amax pass (read 2), the cast (read 2, write 1) and, on Hopper,
    // the transposed copy its FP8 GEMMs take in the other pass (write 1; Blackwell's take
    // either layout).
    if (p == Precision::Fp8) return g.family == "blackwell" ? 5 : 6;
    // A scale per 32 elements, found in the cast itself: read 2, write the row-wise and
    // column-wise copies (1 + 1) and their scales (1 byte per 32 elements each).
    if (p == Precision::Mxfp8) return 4 + 2.0 / 32;
    return 0;
}

// Output tiles of the GEMM kernels (CUTLASS / cuBLAS BF16 configurations) and the fraction of
// a full tile's throughput each reaches.
struct Tile {
    double m, n, reach;
};
constexpr Tile kTiles[] = {{128, 256, 1.0}, {256, 128, 1.0}, {128, 128, 0.95}, {64, 128, 0.85}};
constexpr Tile kSquareTile[] = {{128, 128, 0.95}};

// `groups` GEMMs of one shape in one launch (one group: a plain GEMM) at `rate` of peak: the
// library picks the tile shape that best fills the SMs in whole waves across every group's
// tiles (smaller tiles reuse less data: they reach less of peak), each group computing the
// padding of its own edge tiles; a thin inner dimension fills less. Or, if longer, the time
// to stream each group's operands and result once.
double tiledGemmSeconds(const GpuSpec& g, Precision p, double groups, double m, double n, double k,
                        double rate, std::span<const Tile> tiles) {
    if (groups <= 0 || m <= 0 || n <= 0 || k <= 0) return 0;
    double best = 0;
    for (const auto& [tm, tn, reach] : tiles) {
        const double count = groups * std::ceil(m / tm) * std::ceil(n / tn);
        const double waves = std::ceil(count / g.sms);
        best = std::max(best, reach * groups * m * n / (waves * g.sms * tm * tn));
    }
    const double inner = k / (k + kernelConstants(g).innerHalfK);
    const double computeS = groups * 2 * m * n * k / (g.peakTflops(p) * 1e12 * rate * best * inner);
    const double bytes =
        groups * ((p == Precision::Bf16 ? 2.0 : 1.0) * (m * k + k * n) + 2.0 * m * n);
    return std::max(computeS, streamSeconds(g, bytes));
}

double peakFraction(const GpuSpec& g, Precision p) {
    const KernelConstants& c = kernelConstants(g);
    return p != Precision::Bf16 && g.hasPrecision(p) ? c.gemmPeakFractionFp8 : c.gemmPeakFraction;
}

double inTrainingRate(const GpuSpec& g, Precision p) {
    return peakFraction(g, p) * kernelConstants(g).inTrainingFraction;
}

double rateOf(const GpuSpec& g, Precision p, KernelRate r) {
    return r == KernelRate::Alone ? peakFraction(g, p) : inTrainingRate(g, p);
}

// `batch` independent GEMMs of one shape in one launch (BF16), in 128 x 128 tiles.
double batchedGemmSeconds(const GpuSpec& g, double batch, double m, double n, double k,
                          KernelRate r) {
    return tiledGemmSeconds(g, Precision::Bf16, batch, m, n, k, rateOf(g, Precision::Bf16, r),
                            kSquareTile);
}

} // namespace

double gemmSeconds(const GpuSpec& g, Precision p, double m, double n, double k) {
    return tiledGemmSeconds(g, p, 1, m, n, k, inTrainingRate(g, p), kTiles);
}

double gemmKernelSeconds(const GpuSpec& g, Precision p, double m, double n, double k) {
    return tiledGemmSeconds(g, p, 1, m, n, k, peakFraction(g, p), kTiles);
}

double nvlinkBytesPerS(const GpuSpec& g) {
    return g.nvlinkGBpsPerDirection * 1e9 * kernelConstants(g).nvlinkGoodput;
}

double nvlinkRingSeconds(const GpuSpec& g, int n, double shardBytes) {
    if (n < 2) return 0;
    const double bps = nvlinkBytesPerS(g);
    return (n - 1) * (shardBytes / bps + nccl::kNvlinkStepLatencyS);
}

double streamSeconds(const GpuSpec& g, double bytes) {
    return bytes / (g.hbmGBps * 1e9 * kernelConstants(g).hbmFraction);
}

double expertTokensPerRank(const ModelSpec& m, const ParallelConfig& c, double tokens) {
    // With TP the MoE layer sees the sequence-parallel shard of the tokens.
    return tokens / c.tp * m.moe.activeExperts * std::max(1.0, m.moe.routingSkew);
}

namespace {

// The MLP of a MoE layer on one rank: the router, the routed experts this EP rank holds (one
// grouped GEMM per weight; the busiest rank's share of the tokens), the shared experts split
// over TP as a dense MLP is, and the token permutations around the all-to-all.
struct MoeMlp {
    double gemmS = 0, streamS = 0;
    double gemmInputs = 0, gemmOutputs = 0; // elements in and out of its FP8-able GEMMs
};
MoeMlp moeMlp(const ModelSpec& m, const GpuSpec& g, const ParallelConfig& c, double tokens,
              KernelRate r) {
    const Precision p = c.precision;
    const auto gemm = [&](Precision q, double groups, double rows, double cols, double inner) {
        return tiledGemmSeconds(g, q, groups, rows, cols, inner, rateOf(g, q, r), kTiles);
    };
    const double h = m.modelDim, fe = m.moe.expertFfnDim, t = c.tp;
    const double local = tokens / t; // tokens this rank routes
    const double assigned = expertTokensPerRank(m, c, tokens);
    const double localExperts = double(m.moe.experts) / c.ep;
    // Expert TP: the ETP ranks of an expert group gather each other's tokens and each computes
    // its slice of the experts' width.
    const double etp = c.etp, perExpert = assigned * etp / localExperts;
    MoeMlp out;
    out.gemmS = gemm(Precision::Bf16, 1, local, m.moe.experts, h) + // router, in BF16
                gemm(p, localExperts, perExpert, 2 * fe / etp, h) +
                gemm(p, localExperts, perExpert, h, fe / etp);
    const double copies = perExpert * localExperts;
    out.gemmInputs = copies * (h + fe / etp);
    out.gemmOutputs = copies * (2 * fe / etp + h);
    if (m.moe.sharedExperts > 0) {
        const double fs = m.moe.sharedExperts * fe;
        out.gemmS += gemm(p, 1, tokens, 2 * fs / t, h) + gemm(p, 1, tokens, h, fs / t);
        out.gemmInputs += tokens * (h * fullWidthShare(c) + fs / t); // as a dense MLP's
        out.gemmOutputs += tokens * (2 * fs / t + h * fullWidthShare(c));
    }
    // Router: softmax and top-k over the scores. Permutation before the dispatch and after the
    // combine: each copy of a token read or written once, its hidden state in bf16. The gated
    // activation on the experts' width (6 bytes per unit, as a dense MLP's).
    out.streamS = streamSeconds(g, local * m.moe.experts * 4 * 3) +
                  streamSeconds(g, 2 * 2 * (local + assigned) * h) +
                  streamSeconds(g, 6 * assigned * fe);
    if (m.moe.sharedExperts > 0)
        out.streamS += streamSeconds(g, 6 * tokens * m.moe.sharedExperts * fe / t);
    return out;
}

// Bytes streamed to cast a pass's GEMM operands (see layerTimes).
double castSeconds(const GpuSpec& g, Precision p, double elements) {
    return g.hasPrecision(p) ? streamSeconds(g, castBytes(g, p) * elements) : 0;
}

} // namespace

MoeBlockTimes moeBlockTimes(const ModelSpec& m, const GpuSpec& g, const ParallelConfig& c,
                            double tokens, KernelRate rate) {
    const MoeMlp x = moeMlp(m, g, c, tokens, rate);
    // As layerTimes counts a layer's: backward two GEMMs per forward one, 1.5 times the bytes.
    return {x.gemmS + x.streamS + castSeconds(g, c.precision, x.gemmInputs),
            2 * x.gemmS + 1.5 * x.streamS + castSeconds(g, c.precision, x.gemmOutputs)};
}

LayerTimes layerTimes(const ModelSpec& m, const GpuSpec& g, const ParallelConfig& c, double tokens,
                      bool moeLayer, KernelRate rate) {
    const Precision p = c.precision;
    const auto gemm = [&](double rows, double cols, double inner) {
        return tiledGemmSeconds(g, p, 1, rows, cols, inner, rateOf(g, p, rate), kTiles);
    };
    const double t = c.tp, h = m.modelDim, f = m.ffnDim;
    // The attention's projections (MHA / GQA: QKV and output; MLA: its low-rank factors)
    // split over TP, then the MLP's GEMMs; backward runs two of each shape (input and weight
    // gradients).
    double gemms = 0;
    double gemmInputs = 0, gemmOutputs = 0; // elements per token in and out of the GEMMs
    const double share = fullWidthShare(c);
    for (const Projection& x : m.attentionProjections()) {
        const double in = x.split == Projection::Row ? x.in / t : x.in;
        const double out = x.split == Projection::Column ? x.out / t : x.out;
        gemms += gemm(tokens, out, in);
        gemmInputs += x.split == Projection::Column ? in * share : in;
        gemmOutputs += x.split == Projection::Row ? out * share : out;
    }
    gemmInputs *= tokens, gemmOutputs *= tokens;
    MoeMlp experts;
    if (moeLayer) {
        experts = moeMlp(m, g, c, tokens, rate);
        gemmInputs += experts.gemmInputs, gemmOutputs += experts.gemmOutputs;
    } else {
        gemms += gemm(tokens, (m.ffnMatrices() - 1) * f / t, h) + // up (+gate)
                 gemm(tokens, h, f / t);                          // down
        gemmInputs += tokens * (h * share + f / t);
        gemmOutputs += tokens * ((m.ffnMatrices() - 1) * f / t + h * share);
    }
    gemms += experts.gemmS;
    // FP8: each GEMM input in the forward and each output gradient in the backward is cast
    // from BF16 (the weights once per step, not counted).
    const double castForwardS = castSeconds(g, p, gemmInputs);
    const double castBackwardS = castSeconds(g, p, gemmOutputs);
    // Attention core: QK^T and AV over the context, per rank's heads; a sliding window
    // bounds the context on its share of the layers.
    double seqContext = c.seqLen;
    if (m.attention.slidingWindow > 0 && m.attention.slidingWindow < c.seqLen) {
        const double f = m.attention.slidingLayerFraction;
        seqContext = (1 - f) * c.seqLen + f * 2.0 * m.attention.slidingWindow;
    }
    const double headsHere = m.heads / t, headDim = m.headDim();
    const double b = tokens / (c.seqLen / double(c.cp)); // sequences in the micro-batch
    struct {
        double gemmS = 0, streamS = 0;
    } core;
    const double coreDim = (m.qkCoreDim() + m.vCoreDim()) / t; // q.k and a.v widths here
    if (c.fusedAttention) {
        const double flops = 2 * tokens * seqContext * coreDim * 0.5; // causal: half is masked
        const KernelConstants& k = kernelConstants(g);
        // Narrower heads do less work per tile load: linear between head dims 64 and 128.
        const double narrow = std::clamp((128 - m.headDim()) / 64, 0.0, 1.0);
        const double headDimFactor = 1 - narrow * (1 - k.attentionHeadDim64);
        core.gemmS = flops / (g.peakBf16Tflops * 1e12 * k.attentionPeakFraction * headDimFactor *
                              (rate == KernelRate::Alone ? 1 : k.inTrainingFraction));
    } else {
        // Two batched GEMMs per head, then the s x s scores through HBM: written, softmax
        // read and written, dropout read, written and its mask (about 11 bytes per score).
        // Batched over sequences and heads: one launch fills the SMs with all their tiles.
        const double batch = b * headsHere, rows = tokens / b;
        core.gemmS = batchedGemmSeconds(g, batch, rows, seqContext, headDim, rate) +
                     batchedGemmSeconds(g, batch, rows, headDim, seqContext, rate);
        const double scores = batch * rows * seqContext;
        core.streamS = streamSeconds(g, 11 * scores);
    }
    // Element-wise work on the residual stream (norms, dropout, residual adds: about 24 bytes
    // per token and hidden unit), divided over TP by sequence parallelism, and the MLP's
    // activation function on its sharded width.
    const double residual = streamSeconds(g, 24 * tokens * h / (c.sequenceParallel ? t : 1));
    const double activation =
        moeLayer ? experts.streamS
                 : streamSeconds(g, (m.ffn == FfnKind::SwiGlu ? 6 : 4) * tokens * f / t);
    LayerTimes out;
    out.gemmS = gemms;
    out.attentionForwardS = core.gemmS + core.streamS;
    out.forwardS = gemms + out.attentionForwardS + residual + activation + castForwardS;
    // Backward: two GEMMs per forward GEMM (input and weight gradients); streaming kernels
    // read the saved input and the incoming gradient and write one: 1.5 times the bytes.
    out.backwardS =
        2 * (gemms + core.gemmS) + 1.5 * (core.streamS + residual + activation) + castBackwardS;
    if (c.recompute == Recompute::Full) out.recomputeS = fullyRecomputedShare(m, c) * out.forwardS;
    if (c.recompute == Recompute::Selective) out.recomputeS = out.attentionForwardS;
    return out;
}

double headSeconds(const ModelSpec& m, const GpuSpec& g, const ParallelConfig& c, double tokens) {
    const double logits = gemmSeconds(g, c.precision, tokens, m.vocab / double(c.tp), m.modelDim);
    // Softmax cross-entropy over the sharded vocabulary: logits read and written twice.
    const double loss = streamSeconds(g, 8.0 * tokens * m.vocab / c.tp);
    return 3 * logits + loss;
}

} // namespace cs
