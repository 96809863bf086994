#pragma once
// Stragglers in lock-step: GPUs of one model run their kernels at different speeds (the best
// GEMM rate of the GPUs of one 8-GPU host spreads by 5 % or more: cooling, silicon). A
// synchronous job waits for its slowest GPU at every collective, so a step lasts as long as
// the slowest of its GPUs needs. Speeds taken as normal: sigma = host spread / E[range of 8],
// and the job runs at 1 + sigma x E[largest of its GPUs' draws] of the mean GPU's time.
// Source: docs/reference/microbenchmarks.md, "Spread between GPUs".

namespace cs {

// Expected largest of n independent standard normal draws (0 for n = 1).
double expectedMaxOfNormals(long long n);

// Time of a lock-step job of `gpus` GPUs over the mean GPU's, for a host spread of
// `hostSpreadFraction` ((fastest - slowest) / mean over the 8 GPUs of a host).
double lockStepSlowdown(double hostSpreadFraction, long long gpus);

} // namespace cs
