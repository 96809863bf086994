#include "RunPower.h"

#include <algorithm>
#include <cmath>
#include <deque>

namespace cs {
namespace {

constexpr int64_t kFinestNs = 10'000'000; // the simulator's default frame spacing
constexpr int64_t kMaxBuckets = 1'000'000;

} // namespace

PowerSwing largestSwing(const Series& s, int64_t windowNs) {
    PowerSwing best;
    const std::vector<double>& v = s.value;
    const std::vector<int64_t>& ts = s.tsNs;
    std::deque<size_t> hi, lo; // candidates for the window's max and min, in time order
    size_t first = 0;          // the point in force at the window's start
    for (size_t j = 0; j < v.size(); ++j) {
        while (first < j && ts[first + 1] <= ts[j] - windowNs)
            ++first;
        while (!hi.empty() && v[hi.back()] <= v[j])
            hi.pop_back();
        hi.push_back(j);
        while (!lo.empty() && v[lo.back()] >= v[j])
            lo.pop_back();
        lo.push_back(j);
        while (hi.front() < first)
            hi.pop_front();
        while (lo.front() < first)
            lo.pop_front();
        const double range = v[hi.front()] - v[lo.front()];
        if (range > best.w) {
            const size_t a = std::min(hi.front(), lo.front()), b = std::max(hi.front(), lo.front());
            best.w = range;
            best.fromS = double(std::max(ts[a], ts[j] - windowNs)) / 1e9;
            best.toS = double(ts[b]) / 1e9;
            best.rising = b == hi.front();
        }
    }
    return best;
}

RunPower runPower(RunReader& reader, const SitePowerModel& model, const std::string& file,
                  double windowS) {
    RunPower out;
    out.windowS = windowS;
    const int64_t endNs = reader.info().endNs;
    const int64_t buckets =
        std::clamp<int64_t>((endNs + kFinestNs - 1) / kFinestNs, 1, kMaxBuckets);
    out.resolutionS = double(endNs) / double(buckets) / 1e9;
    const int maxPoints = int(2 * buckets);
    Series s;
    if (reader.has(Metric::SitePowerW)) {
        s = reader.history(Metric::SitePowerW, 0, 0, endNs, maxPoints);
    } else if (reader.has(Metric::GpuBusy)) {
        out.fromBusy = true;
        s = reader.statHistory(Metric::GpuBusy, FrameStat::Sum, 0, endNs, maxPoints);
        for (double& x : s.value)
            x = model.powerW(x);
    } else {
        throw InputException(
            {file, 0, 0, "metrics",
             "the run \"" + reader.info().name + "\" holds neither site_power_w nor gpu_busy"});
    }
    out.points = (long long)s.value.size();
    if (s.value.empty()) return out;
    const auto [lo, hi] = std::minmax_element(s.value.begin(), s.value.end());
    out.troughW = *lo;
    out.peakW = *hi;
    out.troughAtS = double(s.tsNs[size_t(lo - s.value.begin())]) / 1e9;
    out.peakAtS = double(s.tsNs[size_t(hi - s.value.begin())]) / 1e9;
    out.swing = largestSwing(s, std::llround(windowS * 1e9));
    return out;
}

} // namespace cs
