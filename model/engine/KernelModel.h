#pragma once
// How long a GPU takes for the operations of a transformer layer: a roofline per operation
// (FLOPs at the achieved fraction of dense peak, or bytes at the achieved fraction of HBM
// bandwidth, whichever is longer) where a GEMM's achieved fraction follows its shape: output
// tiles that fill the SMs in whole waves, and thin inner dimensions that do not amortise a
// tile's prologue. The kernel constants come from kernel and collective measurements
// (docs/reference/microbenchmarks.md); one factor per GPU family, the tensor-core rate
// training reaches of what the kernels reach alone, is fitted on the calibration rows.
#include "TrainingSpecs.h"

namespace cs {

struct KernelConstants {
    double gemmPeakFraction;      // large, well-shaped BF16 GEMMs
    double gemmPeakFractionFp8;   // the same of the FP8 peak (FP8 tensor cores fill less of it)
    double attentionPeakFraction; // fused (FlashAttention-class) attention, head dim 128
    double attentionHeadDim64;    // of that rate, what head dim 64 reaches
    double hbmFraction;           // streaming element-wise kernels
    double innerHalfK;            // K at which a tile reaches half its efficiency: K / (K + this)
    double nvlinkGoodput;         // NCCL bus bandwidth over NVSwitch / NVLink per direction
    // Of the GEMM and attention rates above, what a training step reaches (fitted per family
    // on docs/reference/calibration.md; 1 where the measurements explain the rows).
    double inTrainingFraction;
};

const KernelConstants& kernelConstants(const GpuSpec& g);

// Of the GPU's full clock, what its tensor cores run at under a power limit of `limitW` (0 or
// the TDP and above: 1). A GPU computing flat out draws its TDP; above its idle power (a fifth of
// the TDP, as measured on H100) the power it draws grows with the cube of the clock (dynamic
// power f V^2 with the voltage following the clock) [assumption]. HBM and NVLink keep their
// rates.
double gpuClockUnderPowerLimit(const GpuSpec& g, double limitW);
constexpr double kGpuIdleFractionOfTdp = 0.2;
// The GPU as its kernels see it under the run's power limit: its tensor-core peaks scaled by
// that clock.
GpuSpec gpuUnderPowerLimit(const GpuSpec& g, double limitW);

// One GEMM in a training step, and alone as a kernel benchmark measures it.
double gemmSeconds(const GpuSpec& g, Precision p, double m, double n, double k);
double gemmKernelSeconds(const GpuSpec& g, Precision p, double m, double n, double k);
double streamSeconds(const GpuSpec& g, double bytes);
// What NCCL moves per second and direction between two GPUs of one NVLink domain.
double nvlinkBytesPerS(const GpuSpec& g);
// One ring collective inside a host: n - 1 steps of `shardBytes` over NVLink.
double nvlinkRingSeconds(const GpuSpec& g, int n, double shardBytes);

// At what rate the kernels run: in a training step (the family's in-training fraction of what
// they reach alone) or alone, as a layer benchmark times them.
enum class KernelRate { InTraining, Alone };

// One layer on one GPU for one micro-batch of `tokens` tokens (b x s / CP) with context `seq`,
// split TP ways: compute only (the TP collectives are timed on the fabric).
struct LayerTimes {
    double forwardS = 0, backwardS = 0, recomputeS = 0;
    double gemmS = 0; // the forward's four weight GEMMs (backward's weight gradients last as long)
    double attentionForwardS = 0; // the attention core alone (what selective recomputation redoes)
};
// `moeLayer`: the layer's MLP is the model's experts (the routed experts of this EP rank).
// `rate` Alone: without the family's in-training fraction (what that fraction costs is the
// difference).
LayerTimes layerTimes(const ModelSpec& m, const GpuSpec& g, const ParallelConfig& c, double tokens,
                      bool moeLayer = false, KernelRate rate = KernelRate::InTraining);
// Token copies the busiest EP rank's experts process per micro-batch of `tokens` tokens.
double expertTokensPerRank(const ModelSpec& m, const ParallelConfig& c, double tokens);
// The MLP of a MoE layer on one EP rank for a micro-batch of `tokens` tokens: the router, the
// token permutations, the routed experts this rank holds, the shared experts and the FP8
// casts; compute only (the all-to-alls are ExpertAllToAll.h's).
struct MoeBlockTimes {
    double forwardS = 0, backwardS = 0;
};
MoeBlockTimes moeBlockTimes(const ModelSpec& m, const GpuSpec& g, const ParallelConfig& c,
                            double tokens, KernelRate rate);
// The output layer (LM head and cross-entropy), forward + backward.
double headSeconds(const ModelSpec& m, const GpuSpec& g, const ParallelConfig& c, double tokens);

} // namespace cs
