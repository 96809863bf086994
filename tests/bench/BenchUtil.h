#pragma once
// Wall time and resident memory for benchmarks (Linux /proc).
#include <chrono>

namespace bench {

double nowSeconds();
double rssMiB();
// Hands memory freed by earlier work back to the system, so that a later peak counts what
// the next work allocates instead of heap it reuses.
void releaseFreed();
// Peak RSS since the last resetPeak() (Linux >= 4.0: writing 5 to clear_refs).
void resetPeak();
double peakMiB();

template <typename F> double timeSeconds(F&& f) {
    const double t0 = nowSeconds();
    f();
    return nowSeconds() - t0;
}

} // namespace bench
