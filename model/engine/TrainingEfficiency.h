#pragma once
// Physical efficiency figures of the step model's communication and memory: one set for
// every configuration, each with its source. Kernel constants per GPU family live in
// KernelModel.cpp; NCCL's latencies and message-size curve in model/network/NcclConstants.h.
// Sources: docs/reference/calibration.md, section 3, and
// docs/reference/microbenchmarks.md.
#include "TrainingSpecs.h"

namespace cs::efficiency {

// Collective bus efficiency of checkpoint writes over the frontend network: "90%+" (Meta, 2024
// blog, of tuned RDMA collectives; taken for storage writes too [assumption]). The backend
// fabric's RDMA links carry what their transport's headers leave (model/network/Transport.h).
constexpr double kStorageGoodput = 0.90;
// Bytes the optimizer step streams per parameter with fp32 main gradients: inf check and
// gradient norm (read 4 + 4), Adam (read gradient, master, m, v; write master, m, v: 28), the
// bf16 copy of the weights (read 4, write 2) and zeroing the gradients (4).
constexpr double kOptimizerBytesPerParam = 46;
// Fraction of HBM bandwidth the fused Adam update streams at.
constexpr double kOptimizerHbmFraction = 0.8;
// Activation bytes per token, layer and model dimension with sequence parallelism and
// flash attention, divided by TP (Korthikanti et al. 2022, "Reducing activation
// recomputation": 34 s b h / t).
constexpr double kActivationBytesPerTokenDim = 34.0;
// Of those, the inputs the GEMMs keep for their weight gradients (QKV 2, projection 2, first
// MLP GEMM 2, second 8); 4 of the 14 (QKV's and the first MLP GEMM's) are among the 10 that
// stay whole without sequence parallelism. FP8 training keeps them cast, 1 byte an element:
// Transformer Engine saves a linear layer's quantized input for its backward. The projection's
// input is attention's output, which fused attention also keeps (bf16) for its own backward:
// there the cast copy comes on top.
constexpr double kActivationGemmInputBytesPerTokenDim = 14.0;
constexpr double kActivationUnsplitGemmInputBytesPerTokenDim = 4.0;
constexpr double kActivationProjectionInputBytesPerTokenDim = 2.0;

// SMs an overlapped expert all-to-all takes from the GEMMs while it runs: DeepSeek-V3 gives
// 20 of the H800's 132 SMs to communication (technical report 3.2.2), Megatron-Bridge's
// defaults 20 to DeepEP and 16 to HybridEP. docs/reference/microbenchmarks.md, "Mixtures of
// experts".
constexpr double kEpCommSms = 20;
constexpr double kHybridEpCommSms = 16;
// NCCL runs each channel as a block that keeps an SM from compute while the collective runs
// ("NCCL's blocks never share an SM with compute"); a DGX with 8 NICs runs its collectives on
// 16 SMs (NVIDIA/nccl issue 689). Taken for every NCCL collective beside compute: DP's
// overlapped gathers and reductions, and TP's beside the backward's weight-gradient GEMMs (that
// in-host collectives use as many is an [assumption]).
constexpr double kNcclCollectiveSms = 16;
// An overlapped expert all-to-all's SMs: DeepEP's, HybridEP's, or NCCL's own.
inline double epCommSms(EpDispatcher d) {
    return d == EpDispatcher::HybridEp ? kHybridEpCommSms
           : d == EpDispatcher::DeepEp ? kEpCommSms
                                       : kNcclCollectiveSms;
}
// Transformer Engine's userbuffer TP overlap (`parallel.overlap.tpComm`) in Megatron-Bridge's
// shipped H100 settings (training/comm_overlap.py, userbuffers_{bf16,fp8}_h100_h8192_tp4_mbs1_
// seqlen8192): forward, the reduce-scatters pipelined beside the projection's and fc2's GEMMs on
// 24 and 16 SMs and the all-gathers as ring exchanges on 1: 10.5 a collective on average in
// BF16; in FP8 all four ring exchanges: 1. Backward, bulk overlaps on 4, 24, 2 and 4 SMs: 8.5.
constexpr double kUserbufferForwardSmsBf16 = 10.5;
constexpr double kUserbufferForwardSmsFp8 = 1;
constexpr double kUserbufferBackwardSms = 8.5;
// The time compute of `computeS` loses beside communication kernels that hold `heldSms` of the
// GPU's `sms` for `besideS`: meanwhile the kernels run on the other SMs, and the work the held
// ones would have done comes after (all of the compute slowed, at most, when the communication
// outlasts it).
inline double smsHeldCostS(double computeS, double besideS, double heldSms, double sms) {
    const double f = sms > 0 ? heldSms / sms : 0;
    if (!(f > 0 && f < 1) || !(computeS > 0) || !(besideS > 0)) return 0;
    return f * (besideS < computeS / (1 - f) ? besideS : computeS / (1 - f));
}
// What a phase of `computeS` beside a collective of `besideS` grows by: it ends when both have,
// so the slowed compute costs only where it outlasts the collective.
inline double smsHeldExtraS(double computeS, double besideS, double heldSms, double sms) {
    const double slowedS = computeS + smsHeldCostS(computeS, besideS, heldSms, sms);
    const double phaseS = computeS > besideS ? computeS : besideS;
    return slowedS > phaseS ? slowedS - phaseS : 0;
}
// The host's time to issue one MoE layer's forward and backward (recomputation included) for
// one micro-batch, from Megatron-Core run eagerly, and with Transformer Engine's scoped CUDA
// graphs around attention, router and dispatch preprocessing. Megatron-Bridge measured
// GPT-OSS-20B on 16 H100 (TP 2, PP 4, EP 4, global batch 4: two micro-batches a pipeline,
// 5 x 6 = 30 layer passes in a row on the critical path, each layer's GPU work about a quarter
// of its host time): 467-520 ms a step eager, 391-399 ms with those graphs. These are the
// host times with which the engine comes within 0.4 % of the fastest of each (tst_host_bound).
// docs/reference/microbenchmarks.md, "Host time of a MoE layer".
constexpr double kMoeLayerHostEagerS = 14.8e-3;
constexpr double kMoeLayerHostScopedGraphsS = 12.3e-3;

} // namespace cs::efficiency
