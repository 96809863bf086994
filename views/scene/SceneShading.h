#pragma once
// How a view's state paints one value: by value (the load colours, or the difference colours
// when two runs are compared) or by kind, and how wide a line is drawn for it (its load, or
// its difference either way).
#include "ColorMaps.h"
#include "ViewState.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace cs::views {

struct Shading {
    bool byValue = false;
    bool difference = false;

    explicit Shading(const ViewState& s)
        : byValue(s.colorMode == ColorMode::Value),
          difference(s.metric == ValueMetric::Difference) {}
    Rgba color(float v) const { return difference ? differenceColor(v) : valueColor(v); }
    float width(float v) const { return difference ? std::fabs(v) : v; }
};

// Entity i's value, NaN (no value) past the end of a frame that does not cover it.
inline float valueAt(const std::vector<float>& values, int32_t i) {
    return size_t(i) < values.size() ? values[size_t(i)] : std::numeric_limits<float>::quiet_NaN();
}

} // namespace cs::views
