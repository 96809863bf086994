#pragma once
// Time arithmetic that cannot overflow: int64 nanoseconds span about ±292 years, and a
// hostile store or an extreme seek can ask for sums beyond that. These clamp to the int64
// range instead (signed overflow is undefined behaviour in C++).
#include <cmath>
#include <cstdint>
#include <limits>

namespace cs {

inline int64_t addSaturating(int64_t a, int64_t b) {
    int64_t sum;
    if (__builtin_add_overflow(a, b, &sum))
        return b > 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
    return sum;
}

inline int64_t subtractSaturating(int64_t a, int64_t b) {
    int64_t difference;
    if (__builtin_sub_overflow(a, b, &difference))
        return b < 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
    return difference;
}

// A double (ns) to int64, clamped; NaN is 0. (double(INT64_MAX) rounds up to 2^63, which
// does not convert.)
inline int64_t toNsSaturating(double ns) {
    if (std::isnan(ns)) return 0;
    if (ns >= 9.2233720368547758e18) return std::numeric_limits<int64_t>::max();
    if (ns <= -9.2233720368547758e18) return std::numeric_limits<int64_t>::min();
    return int64_t(ns);
}

} // namespace cs
