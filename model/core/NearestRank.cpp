#include "NearestRank.h"

#include <algorithm>

namespace cs {

double nearestRankOfCounted(const std::vector<std::pair<double, double>>& valueAndCount, double q) {
    if (valueAndCount.empty()) return 0;
    double total = 0;
    for (const auto& vc : valueAndCount)
        total += vc.second;
    double seen = 0;
    // The tolerance keeps q x total from missing the rank it names by a rounding.
    for (const auto& [value, count] : valueAndCount)
        if ((seen += count) >= q * total * (1 - 1e-12)) return value;
    return valueAndCount.back().first;
}

double nearestRank(std::vector<double> values, double q) {
    std::sort(values.begin(), values.end());
    std::vector<std::pair<double, double>> counted;
    counted.reserve(values.size());
    for (double v : values)
        counted.emplace_back(v, 1.0);
    return nearestRankOfCounted(counted, q);
}

} // namespace cs
