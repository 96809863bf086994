#pragma once
// Min/max per pixel column: a long series reduced to at most 2 points per pixel, keeping
// every spike, so charts of 10 M points stay interactive.
#include <vector>

namespace cs::views {

struct XY {
    std::vector<double> x, y;
};

// x must be ascending. Points outside [x0, x1] are dropped; NaN values are skipped.
XY downsampleMinMax(const std::vector<double>& x, const std::vector<double>& y, double x0,
                    double x1, int pixels);

} // namespace cs::views
