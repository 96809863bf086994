#include "FrameValues.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace cs {
namespace {

struct Accumulator {
    Aggregate mode;
    float sum = 0, max = -std::numeric_limits<float>::infinity(),
          min = std::numeric_limits<float>::infinity();
    int n = 0;
    void add(float v) {
        if (std::isnan(v)) return;
        sum += v;
        max = std::max(max, v);
        min = std::min(min, v);
        ++n;
    }
    float result() const {
        if (n == 0) return std::numeric_limits<float>::quiet_NaN();
        switch (mode) {
        case Aggregate::Max:
            return max;
        case Aggregate::Min:
            return min;
        case Aggregate::Mean:
            break;
        }
        return sum / float(n);
    }
};

} // namespace

void aggregateRacks(const Topology& t, const FrameValues& v, Aggregate a, std::vector<float>& out) {
    std::vector<Accumulator> acc(t.racks.size(), Accumulator{a});
    if (v.gpu.size() == t.gpus.size())
        for (size_t g = 0; g < t.gpus.size(); ++g)
            acc[size_t(t.hosts[size_t(t.gpus[g].host)].rack)].add(v.gpu[g]);
    if (v.storage.size() == t.storage.size())
        for (size_t s = 0; s < t.storage.size(); ++s)
            if (t.storage[s].rack != kNone) acc[size_t(t.storage[s].rack)].add(v.storage[s]);
    out.resize(t.racks.size());
    for (size_t r = 0; r < acc.size(); ++r)
        out[r] = acc[r].result();
}

std::vector<Endpoint> rackOutliers(const Topology& t, const std::vector<float>& gpuBusy,
                                   float apart) {
    std::vector<Endpoint> out;
    if (gpuBusy.size() != t.gpus.size()) return out;
    std::vector<double> sum(t.racks.size(), 0);
    std::vector<int> n(t.racks.size(), 0);
    auto rackOf = [&](size_t g) { return t.hosts[size_t(t.gpus[g].host)].rack; };
    for (size_t g = 0; g < t.gpus.size(); ++g) {
        const int32_t r = rackOf(g);
        if (r == kNone || std::isnan(gpuBusy[g])) continue;
        sum[size_t(r)] += gpuBusy[g];
        ++n[size_t(r)];
    }
    for (size_t g = 0; g < t.gpus.size(); ++g) {
        const int32_t r = rackOf(g);
        if (r == kNone || std::isnan(gpuBusy[g]) || n[size_t(r)] < 2) continue;
        const double mean = sum[size_t(r)] / n[size_t(r)];
        if (std::abs(gpuBusy[g] - mean) > apart) out.push_back({EntityKind::Gpu, int32_t(g)});
    }
    return out;
}

void aggregateBundles(const LinkBundles& b, const FrameValues& v, Aggregate a,
                      std::vector<float>& out) {
    const size_t n = b.a.size();
    out.resize(n);
    for (size_t k = 0; k < n; ++k) {
        Accumulator acc{a};
        if (!v.link.empty())
            for (int32_t l : b.members.of(int32_t(k)))
                acc.add(v.link[size_t(l)]);
        out[k] = acc.result();
    }
}

void fillTestPattern(const Topology& t, double timeS, FrameValues& out) {
    const auto phase = float(timeS);
    out.gpu.resize(t.gpus.size());
    for (size_t g = 0; g < t.gpus.size(); ++g)
        out.gpu[g] =
            0.5f + 0.5f * std::sin(phase + float(g) * 0.0021f) * std::cos(float(g % 977) * 0.013f);
    out.link.resize(t.links.size());
    for (size_t l = 0; l < t.links.size(); ++l)
        out.link[l] = 0.5f + 0.5f * std::sin(1.7f * phase + float(l) * 0.0007f);
    out.storage.resize(t.storage.size());
    for (size_t s = 0; s < t.storage.size(); ++s)
        out.storage[s] = 0.5f + 0.5f * std::sin(0.6f * phase + float(s) * 0.05f);
}

void fillLinkSpeed(const Topology& t, FrameValues& out) {
    float fastest = 1;
    for (const Link& l : t.links)
        fastest = std::max(fastest, l.gbps);
    out.link.resize(t.links.size());
    // log scale: 10 Gb/s -> 0 ... fastest -> 1
    const float lo = std::log(10.f), hi = std::log(fastest);
    for (size_t i = 0; i < t.links.size(); ++i)
        out.link[i] =
            hi > lo
                ? std::clamp((std::log(std::max(t.links[i].gbps, 10.f)) - lo) / (hi - lo), 0.f, 1.f)
                : 1.f;
    out.gpu.assign(t.gpus.size(), std::numeric_limits<float>::quiet_NaN());
    out.storage.assign(t.storage.size(), std::numeric_limits<float>::quiet_NaN());
}

// The ranges cover the GPUs of resources/reference/gpus.md: B200's 1,000 W TDP and 180 GB of
// HBM; the SM clock up to 2,000 MHz, above H100's 1,980 MHz maximum; 20-100 °C spans an idle
// GPU to a throttling one.
GpuMetricScale gpuMetricScale(Metric m) {
    switch (m) {
    case Metric::GpuPowerW:
        return {0, 1000, 1, "GPU power, W"};
    case Metric::GpuTemperatureC:
        return {20, 100, 1, "GPU temperature, \u00b0C"};
    case Metric::GpuMemoryUsedBytes:
        return {0, 180e9, 1e-9, "GPU memory used, GB"};
    case Metric::GpuSmClockHz:
        return {0, 2000e6, 1e-6, "GPU SM clock, MHz"};
    default:
        return {0, 1, 100, "Busy / load, %"};
    }
}

const std::vector<Metric>& gpuColourMetrics() {
    static const std::vector<Metric> metrics{Metric::GpuBusy, Metric::GpuPowerW,
                                             Metric::GpuTemperatureC, Metric::GpuMemoryUsedBytes,
                                             Metric::GpuSmClockHz};
    return metrics;
}

FrameValues fractionsOfCapacity(const RunFrame& f, const Topology& t, Metric gpuMetric) {
    FrameValues v;
    if (gpuMetric != Metric::GpuBusy) {
        const GpuMetricScale s = gpuMetricScale(gpuMetric);
        const std::vector<float>& in = f.of(gpuMetric);
        v.gpu.assign(t.gpus.size(), std::numeric_limits<float>::quiet_NaN()); // none stored
        for (size_t i = 0; i < in.size() && i < v.gpu.size(); ++i)
            if (!std::isnan(in[i]))
                v.gpu[i] = std::clamp(float((in[i] - s.lo) / (s.hi - s.lo)), 0.f, 1.f);
        v.link.assign(t.links.size(), std::numeric_limits<float>::quiet_NaN());
        v.storage.assign(t.storage.size(), std::numeric_limits<float>::quiet_NaN());
        return v;
    }
    v.gpu = f.of(Metric::GpuBusy);
    auto scaled = [&](Metric m, std::vector<float>& out) {
        const std::vector<float>& in = f.of(m);
        out.resize(in.size());
        for (size_t i = 0; i < in.size(); ++i)
            out[i] = std::isnan(in[i])
                         ? in[i]
                         : std::clamp(float(in[i] / capacityOf(m, t, int32_t(i))), 0.f, 1.f);
    };
    scaled(Metric::LinkBytesPerS, v.link);
    scaled(Metric::StorageBytesPerS, v.storage);
    return v;
}

} // namespace cs
