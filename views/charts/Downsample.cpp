#include "Downsample.h"

#include <algorithm>
#include <cmath>

namespace cs::views {

XY downsampleMinMax(const std::vector<double>& x, const std::vector<double>& y, double x0,
                    double x1, int pixels) {
    XY out;
    const size_t n = std::min(x.size(), y.size());
    if (n == 0 || pixels <= 0 || !(x1 > x0)) return out;
    if (n <= size_t(pixels) * 2) { // already small: keep as is
        for (size_t i = 0; i < n; ++i)
            if (x[i] >= x0 && x[i] <= x1 && !std::isnan(y[i]))
                out.x.push_back(x[i]), out.y.push_back(y[i]);
        return out;
    }
    const double width = (x1 - x0) / pixels;
    size_t i = size_t(std::lower_bound(x.begin(), x.begin() + long(n), x0) - x.begin());
    for (int p = 0; p < pixels && i < n; ++p) {
        const double end = p == pixels - 1 ? x1 : x0 + (p + 1) * width;
        size_t lo = n, hi = n;
        for (; i < n && x[i] <= end; ++i) {
            if (std::isnan(y[i])) continue;
            if (lo == n || y[i] < y[lo]) lo = i;
            if (hi == n || y[i] > y[hi]) hi = i;
        }
        if (lo == n) continue;
        const size_t a = std::min(lo, hi), b = std::max(lo, hi); // keep time order
        out.x.push_back(x[a]), out.y.push_back(y[a]);
        if (b != a) out.x.push_back(x[b]), out.y.push_back(y[b]);
    }
    return out;
}

} // namespace cs::views
