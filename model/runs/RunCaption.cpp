#include "RunCaption.h"

#include "Duration.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace cs {

std::optional<long long> stepAt(const Series& steps, int64_t now) {
    long long before = 0;
    for (size_t i = 0; i < steps.tsNs.size() && steps.tsNs[i] <= now; ++i) {
        const double stepNs = steps.value[i] * 1e9;
        if (!(stepNs > 0)) continue;
        const bool last = i + 1 == steps.tsNs.size() || steps.tsNs[i + 1] > now;
        const int64_t until = last ? now : steps.tsNs[i + 1];
        const auto inStretch = (long long)(double(until - steps.tsNs[i]) / stepNs);
        if (last) return before + inStretch + 1;
        before += inStretch;
    }
    return std::nullopt;
}

std::optional<double> stepPhaseAt(const Series& steps, int64_t now) {
    std::optional<double> phase;
    for (size_t i = 0; i < steps.tsNs.size() && steps.tsNs[i] <= now; ++i) {
        const double stepNs = steps.value[i] * 1e9;
        if (!(stepNs > 0)) continue;
        const double done = double(now - steps.tsNs[i]) / stepNs; // steps of this stretch
        phase = done - std::floor(done);
    }
    return phase;
}

std::vector<int64_t> stepStarts(const Series& steps, int64_t fromNs, int64_t toNs,
                                size_t maxCount) {
    std::vector<int64_t> out;
    for (size_t i = 0; i < steps.tsNs.size(); ++i) {
        const double stepNs = steps.value[i] * 1e9;
        if (!(stepNs >= 1)) continue;
        const int64_t end = i + 1 < steps.tsNs.size() ? steps.tsNs[i + 1] : toNs;
        const int64_t from = std::max(fromNs, steps.tsNs[i]);
        if (end <= from) continue;
        // The first step of the stretch that starts at or after `from`.
        const double k0 = std::ceil(double(from - steps.tsNs[i]) / stepNs);
        for (double k = k0;; ++k) {
            const auto t = int64_t(double(steps.tsNs[i]) + k * stepNs);
            if (t >= end || t > toNs) break;
            if (out.size() == maxCount) return {};
            out.push_back(t);
        }
    }
    return out;
}

std::string runCaption(const Series& stepTimeS, const Series& mfu, int64_t nowNs) {
    std::string out = "t = " + formatElapsed(nowNs);
    if (const auto step = stepAt(stepTimeS, nowNs)) out += "  |  step " + std::to_string(*step);
    const auto m = std::upper_bound(mfu.tsNs.begin(), mfu.tsNs.end(), nowNs);
    if (m != mfu.tsNs.begin()) {
        const double v = mfu.value[size_t(m - mfu.tsNs.begin() - 1)];
        if (std::isfinite(v)) {
            char buf[32];
            std::snprintf(buf, sizeof buf, "  |  MFU %.1f %%", v * 100);
            out += buf;
        }
    }
    return out;
}

} // namespace cs
