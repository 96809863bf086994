#pragma once
// Physical efficiency figures of the step model: one set for every configuration. Each says
// where it comes from. The two compute fractions were fitted once to the three rows of the
// Llama 3 paper's Table 4 (tests/model/tst_simulator.cpp checks all three against them).

namespace cs::efficiency {

// Achieved fraction of dense BF16 peak in large transformer GEMMs on H100 (cuBLAS reaches
// 600-750 of 989 TFLOP/s on such shapes; fitted to Table 4).
constexpr double kGemmFractionOfPeak = 0.59;
// Achieved fraction of peak in causal attention kernels (FlashAttention-2 class on H100:
// 330-400 TFLOP/s forward+backward; fitted to Table 4's 131K-token row).
constexpr double kAttentionFractionOfPeak = 0.49;
// NCCL bus bandwidth over NVSwitch as a fraction of NVLink's per-direction rate
// (nccl-tests all-gather on 8 x H100 SXM: about 360 of 450 GB/s).
constexpr double kNvlinkGoodput = 0.80;
// Collective bus efficiency on the RDMA fabric once tuned: "90%+" (Meta, 2024 blog).
constexpr double kFabricGoodput = 0.90;
// Per ring step: half the 22 us unloaded RTT of the RoCE fabric (Llama 3 paper, 3.3.1).
constexpr double kFabricStepLatencyS = 11e-6;
// Per NVLink ring step (NCCL's measured small-message latency inside a host).
constexpr double kNvlinkStepLatencyS = 3e-6;
// Fraction of HBM bandwidth the fused Adam update streams at.
constexpr double kOptimizerHbmFraction = 0.8;
// Activation bytes per token, layer and model dimension with sequence parallelism and
// flash attention, divided by TP (Korthikanti et al. 2022, "Reducing activation
// recomputation": 34 s b h / t).
constexpr double kActivationBytesPerTokenDim = 34.0;

} // namespace cs::efficiency
