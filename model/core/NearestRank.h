#pragma once
// Nearest-rank percentiles, one definition for every figure that states one (a collective's
// flow completions, a run's step times): the smallest value whose share of the values at or
// below it reaches q.
#include <utility>
#include <vector>

namespace cs {

// `valueAndCount` sorted by value, counts above 0 (a value that occurs count times); q in
// [0, 1]. 0 for no values.
double nearestRankOfCounted(const std::vector<std::pair<double, double>>& valueAndCount, double q);
// The same over plain values already sorted: no copy, so several percentiles of one list
// cost one sort.
double nearestRankOfSorted(const std::vector<double>& sorted, double q);

} // namespace cs
