#include "KernelModel.h"

#include "TrainingEfficiency.h"

#include <algorithm>
#include <cmath>

namespace cs {

const KernelConstants& kernelConstants(const GpuSpec& g) {
    // resources/reference/microbenchmarks.md gives each value's measurement. GEMM: the
    // sustained rate of large BF16 GEMMs (cuBLAS 8192^3 about 740 TFLOP/s on H100; cuBLASLt
    // 16384^3 256.5 on A100) over the shape terms below. Attention: FlashAttention-3 (H100)
    // and -2 (A100) forward + backward, causal, head dim 128 at 8K. HBM: BabelStream Triad.
    // NVLink: nccl-tests ring bus bandwidth on 8 GPUs. Inner-dimension half point: fitted on
    // the calibration rows (Korthikanti et al. Table 4 layers for Ampere). In training:
    // Ampere's Selene rows agree with the kernels (1); Hopper's Llama 3 rows run at 0.82 of
    // them, a loss no measured mechanism yet explains (see the reference).
    static const KernelConstants hopper{0.79, 0.58, 0.89, 160, 0.82, 0.80};
    static const KernelConstants ampere{0.83, 0.61, 0.83, 96, 0.78, 0.98};
    // [assumption] Blackwell as Hopper until calibration rows exist.
    if (g.family == "ampere") return ampere;
    return hopper;
}

namespace {

// Output tiles of the GEMM kernels (CUTLASS / cuBLAS BF16 configurations) and the fraction of
// a full tile's throughput each reaches.
struct Tile {
    double m, n, reach;
};
constexpr Tile kTiles[] = {{128, 256, 1.0}, {256, 128, 1.0}, {128, 128, 0.95}, {64, 128, 0.85}};

// `batch` independent GEMMs of one shape in one launch (BF16), in 128 x 128 tiles.
double batchedGemmSeconds(const GpuSpec& g, double batch, double m, double n, double k) {
    const KernelConstants& c = kernelConstants(g);
    const double tiles = batch * std::ceil(m / 128) * std::ceil(n / 128);
    const double waves = std::ceil(tiles / g.sms);
    const double fill = 0.95 * tiles / (waves * g.sms) * k / (k + c.innerHalfK);
    const double computeS =
        batch * 2 * m * n * k /
        (g.peakBf16Tflops * 1e12 * c.gemmPeakFraction * c.inTrainingFraction * fill);
    return std::max(computeS, streamSeconds(g, batch * 2 * (m * k + k * n + m * n)));
}

} // namespace

namespace {

double gemmAtFraction(const GpuSpec& g, Precision p, double m, double n, double k, double rate) {
    if (m <= 0 || n <= 0 || k <= 0) return 0;
    const KernelConstants& c = kernelConstants(g);
    // The library picks the tile shape that best fills the SMs (smaller tiles reuse less
    // data: they reach less of peak).
    // A tile past the matrix's edge computes its padding too.
    double best = 0;
    for (const auto& [tm, tn, reach] : kTiles) {
        const double tiles = std::ceil(m / tm) * std::ceil(n / tn);
        const double waves = std::ceil(tiles / g.sms);
        best = std::max(best, reach * m * n / (waves * g.sms * tm * tn));
    }
    const double inner = k / (k + c.innerHalfK);
    const double flops = 2 * m * n * k;
    const double computeS = flops / (g.peakTflops(p) * 1e12 * rate * best * inner);
    const double bytes = (p == Precision::Fp8 ? 1.0 : 2.0) * (m * k + k * n) + 2.0 * m * n;
    return std::max(computeS, streamSeconds(g, bytes));
}

} // namespace

double gemmSeconds(const GpuSpec& g, Precision p, double m, double n, double k) {
    const KernelConstants& c = kernelConstants(g);
    return gemmAtFraction(g, p, m, n, k, c.gemmPeakFraction * c.inTrainingFraction);
}

double gemmKernelSeconds(const GpuSpec& g, Precision p, double m, double n, double k) {
    return gemmAtFraction(g, p, m, n, k, kernelConstants(g).gemmPeakFraction);
}

double nvlinkRingSeconds(const GpuSpec& g, int n, double shardBytes) {
    if (n < 2) return 0;
    const double bps = g.nvlinkGBpsPerDirection * 1e9 * kernelConstants(g).nvlinkGoodput;
    return (n - 1) * (shardBytes / bps + efficiency::kNvlinkStepLatencyS);
}

double streamSeconds(const GpuSpec& g, double bytes) {
    return bytes / (g.hbmGBps * 1e9 * kernelConstants(g).hbmFraction);
}

LayerTimes layerTimes(const ModelSpec& m, const GpuSpec& g, const ParallelConfig& c,
                      double tokens) {
    const double t = c.tp, h = m.modelDim, f = m.ffnDim, kv = m.kvDim();
    const Precision p = c.precision;
    // The four GEMMs of a layer; backward runs two of each shape (input and weight gradients).
    const double gemms = gemmSeconds(g, p, tokens, (h + 2 * kv) / t, h) + // QKV
                         gemmSeconds(g, p, tokens, h, h / t) +            // attention output
                         gemmSeconds(g, p, tokens, (m.ffnMatrices() - 1) * f / t, h) + // up (+gate)
                         gemmSeconds(g, p, tokens, h, f / t);                          // down
    // Attention core: QK^T and AV over the context, per rank's heads.
    const double seqContext = c.seqLen;
    const double headsHere = m.heads / t, headDim = h / m.heads;
    const double b = tokens / (c.seqLen / double(c.cp)); // sequences in the micro-batch
    struct {
        double gemmS = 0, streamS = 0;
    } core;
    if (c.fusedAttention) {
        const double flops = 4 * tokens * seqContext * h / t * 0.5; // causal: half is masked
        const KernelConstants& k = kernelConstants(g);
        core.gemmS =
            flops / (g.peakBf16Tflops * 1e12 * k.attentionPeakFraction * k.inTrainingFraction);
    } else {
        // Two batched GEMMs per head, then the s x s scores through HBM: written, softmax
        // read and written, dropout read, written and its mask (about 11 bytes per score).
        // Batched over sequences and heads: one launch fills the SMs with all their tiles.
        const double batch = b * headsHere, rows = tokens / b;
        core.gemmS = batchedGemmSeconds(g, batch, rows, seqContext, headDim) +
                     batchedGemmSeconds(g, batch, rows, headDim, seqContext);
        const double scores = batch * rows * seqContext;
        core.streamS = streamSeconds(g, 11 * scores);
    }
    // Element-wise work on the residual stream (norms, dropout, residual adds: about 24 bytes
    // per token and hidden unit), divided over TP by sequence parallelism, and the MLP's
    // activation function on its sharded width.
    const double residual = streamSeconds(g, 24 * tokens * h / (c.sequenceParallel ? t : 1));
    const double activation = streamSeconds(g, (m.ffn == FfnKind::SwiGlu ? 6 : 4) * tokens * f / t);
    LayerTimes out;
    out.gemmS = gemms;
    out.attentionForwardS = core.gemmS + core.streamS;
    out.forwardS = gemms + out.attentionForwardS + residual + activation;
    // Backward: two GEMMs per forward GEMM (input and weight gradients); streaming kernels
    // read the saved input and the incoming gradient and write one: 1.5 times the bytes.
    out.backwardS = 2 * (gemms + core.gemmS) + 1.5 * (core.streamS + residual + activation);
    if (c.recompute == Recompute::Full) out.recomputeS = out.forwardS;
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
