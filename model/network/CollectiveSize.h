#pragma once
// NCCL's bus bandwidth falls with the message size: a collective reaches half of its
// large-message rate only at 16-32 MiB on one 8-GPU host (nccl-tests all_reduce_perf on A100,
// H100 and H200). The measured curves, as fractions of their 8 GiB rate, are in
// docs/reference/microbenchmarks.md, section "NCCL bus bandwidth by message size".
#include <string>

namespace cs {

// Fraction of its large-message bus bandwidth a collective of `messageBytes` (the buffer
// size nccl-tests reports: the all-reduce's buffer, the all-gather's output) reaches over
// NVLink inside one host of the GPU family ("ampere", "hopper", "blackwell"). Between measured
// sizes: linear in log2(size); below the smallest: proportional to the size (latency-bound); above
// the largest: 1.
double ncclSizeFraction(const std::string& gpuFamily, double messageBytes);

} // namespace cs
