#include "NearestRank.h"

#include <algorithm>
#include <cmath>

namespace cs {

// The tolerance keeps q x total from missing the rank it names by a rounding.
constexpr double kRankTolerance = 1 - 1e-12;

double nearestRankOfCounted(const std::vector<std::pair<double, double>>& valueAndCount, double q) {
    if (valueAndCount.empty()) return 0;
    double total = 0;
    for (const auto& vc : valueAndCount)
        total += vc.second;
    double seen = 0;
    for (const auto& [value, count] : valueAndCount)
        if ((seen += count) >= q * total * kRankTolerance) return value;
    return valueAndCount.back().first;
}

double nearestRankOfSorted(const std::vector<double>& sorted, double q) {
    if (sorted.empty()) return 0;
    // The first index whose count of values at or below it reaches q of them, as above with
    // every count 1.
    const double rank = std::ceil(q * double(sorted.size()) * kRankTolerance) - 1;
    return sorted[size_t(std::clamp(rank, 0.0, double(sorted.size() - 1)))];
}

} // namespace cs
