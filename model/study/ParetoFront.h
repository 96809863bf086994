#pragma once
// The Pareto front of points where less is better on both axes (cost and step time, cost and
// days to train): the points no other point matches or beats on both while beating on one.
#include <cstddef>
#include <utility>
#include <vector>

namespace cs {

// Indices of the front, by x ascending. Points with a NaN coordinate are never on it; equal
// points are both on it when they are. O(n log n).
std::vector<size_t> paretoFront(const std::vector<std::pair<double, double>>& points);

} // namespace cs
