#include "ParetoFront.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace cs {

std::vector<size_t> paretoFront(const std::vector<std::pair<double, double>>& points) {
    std::vector<size_t> order;
    for (size_t i = 0; i < points.size(); ++i)
        if (!std::isnan(points[i].first) && !std::isnan(points[i].second)) order.push_back(i);
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return points[a] < points[b]; });
    std::vector<size_t> front;
    // The least y among points of a smaller x: a point at or above it is dominated.
    double bestBefore = std::numeric_limits<double>::infinity();
    for (size_t g = 0; g < order.size();) {
        const double x = points[order[g]].first;
        const double groupMin = points[order[g]].second; // sorted: the group's first
        size_t end = g;
        for (; end < order.size() && points[order[end]].first == x; ++end)
            if (points[order[end]].second == groupMin && groupMin < bestBefore)
                front.push_back(order[end]);
        bestBefore = std::min(bestBefore, groupMin);
        g = end;
    }
    return front;
}

} // namespace cs
