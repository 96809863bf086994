#pragma once
// NCCL's side of a collective as the engine and `collective` time it: per-step latencies, PAT's
// model, the all-to-all's measured loss across hosts. Sources: docs/reference/
// microbenchmarks.md and docs/reference/network-transport.md.

namespace cs::nccl {

// Per ring step: half the 22 us unloaded RTT of the RoCE fabric (Llama 3 paper, 3.3.1).
constexpr double kFabricStepLatencyS = 11e-6;
// Per NVLink ring step: NCCL's per-hop NVLink latency, Ring / Simple (tuning.cc;
// docs/reference/microbenchmarks.md). TP inside a host takes the measured message-size
// curve instead, which includes its steps.
constexpr double kNvlinkStepLatencyS = 3.4e-6;
// NCCL's PAT all-gather / reduce-scatter (tuning.cc, NCCL 2.23 on): its log2(n) network steps
// cost a ring step's latency / 3.5 each, it keeps a part linear in the ranks (2.8 us each), and
// its bus bandwidth is 0.75 of the ring's. docs/reference/microbenchmarks.md, section 4.
constexpr double kPatLogStepDivisor = 3.5;
constexpr double kPatPerRankLatencyS = 2.8e-6;
constexpr double kPatBandwidthFraction = 0.75;
// NCCL's all-to-all across 3 to 8 hosts of 8 H800: about 37 GB/s per GPU of its 50 GB/s NICs
// (2 x 200 Gb/s), against 90 % on two hosts (NVIDIA/nccl #1316, NCCL 2.19 and 2.20); a 4-node
// B200 all-reduce gets 36.5-37 of 50 GB/s per GPU too. Newer NCCL on one 400G NIC per GPU: an
// assumption. docs/reference/microbenchmarks.md, "Mixtures of experts".
constexpr double kNcclAllToAllManyHostsGoodput = 37.0 / 50.0;
// DeepEP's normal kernels across nodes reach 43, 44 and 46 GB/s of a 400G NIC's 50 (EP 16, 32,
// 64, DeepSeek-V3's setting, README at ebfe47e): 0.89 of the NIC, the mean.
// docs/reference/microbenchmarks.md, "Mixtures of experts".
constexpr double kDeepEpRdmaGoodput = (43.0 + 44.0 + 46.0) / 3 / 50.0;
// NCCL's ring channels per NIC: its ring graph puts one channel on each NIC and doubles the
// channels once the rings are connected (src/graph/connect.cc, "nChannels * 2").
constexpr int kChannelsPerNic = 2;
// What one channel moves across hosts: two channels on a 400G NIC bring all_reduce_perf to
// 0.82 of the NICs' rate on 4 and 8 hosts of 8 H100 (about 330 of 400 GB/s; 24 channels,
// NCCL_MIN_CTAS=24, reach 391), so one channel 20.5 GB/s.
// docs/reference/collectives.md, "Channels".
constexpr double kChannelNetBytesPerS = 20.5e9;
// A point-to-point operation's latency besides its bytes: NCCL's base latency and one step,
// across hosts or over NVLink (tuning.cc, Ring / Simple).
constexpr double kP2pNetLatencyS = (8.4 + 14.0) * 1e-6;
constexpr double kP2pNvlinkLatencyS = (8.4 + 3.4) * 1e-6;
} // namespace cs::nccl
