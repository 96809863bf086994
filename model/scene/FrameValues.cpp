#include "FrameValues.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <limits>
#include <span>

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

// Each rack's runs of consecutive members (index order), racks in order; members without a
// rack are left out. runsOf gets the offsets of each rack's first run.
template <typename RackOf>
std::vector<RackMembers::Run> runsByRack(size_t racks, size_t members, RackOf&& rackOf,
                                         std::vector<int32_t>& runsOf) {
    std::vector<std::pair<int32_t, RackMembers::Run>> found; // (rack, run)
    for (size_t i = 0; i < members; ++i) {
        const int32_t r = rackOf(i);
        if (r == kNone) continue;
        if (!found.empty() && found.back().first == r && size_t(found.back().second.end) == i)
            ++found.back().second.end;
        else
            found.push_back({r, {int32_t(i), int32_t(i + 1)}});
    }
    std::stable_sort(found.begin(), found.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    runsOf.assign(racks + 1, 0);
    for (const auto& f : found)
        ++runsOf[size_t(f.first) + 1];
    for (size_t r = 0; r < racks; ++r)
        runsOf[r + 1] += runsOf[r];
    std::vector<RackMembers::Run> runs;
    runs.reserve(found.size());
    for (const auto& f : found)
        runs.push_back(f.second);
    return runs;
}

// A rack's runs of `values` into four independent lanes, without branches: one chain of
// dependent adds (or comparisons) is what a frame's rack aggregates at 1M GPUs waited on.
template <typename Op>
void reduceRuns(const float* values, std::span<const RackMembers::Run> runs, float identity, Op op,
                std::array<float, 4>& lane, int& n) {
    auto add = [&](size_t k, float v) {
        const bool has = v == v; // NaN: no data
        lane[k] = op(lane[k], has ? v : identity);
        n += int(has);
    };
    for (const RackMembers::Run& run : runs) {
        int32_t i = run.first;
        for (; i + 4 <= run.end; i += 4)
            for (size_t k = 0; k < 4; ++k)
                add(k, values[i + int32_t(k)]);
        for (; i < run.end; ++i)
            add(0, values[i]);
    }
}

// A rack's members combined by op, and how many have a value.
struct Combined {
    float value;
    int n;
};

template <typename Op>
Combined combineRack(const RackMembers& m, const FrameValues& v, size_t rack, float identity,
                     Op op) {
    std::array<float, 4> lane;
    lane.fill(identity);
    int n = 0;
    auto runs = [&](const std::vector<RackMembers::Run>& all, const std::vector<int32_t>& of) {
        return std::span<const RackMembers::Run>(all.data() + of[rack], all.data() + of[rack + 1]);
    };
    if (v.gpu.size() == m.gpus)
        reduceRuns(v.gpu.data(), runs(m.gpuRuns, m.gpuRunsOf), identity, op, lane, n);
    if (v.storage.size() == m.storage)
        reduceRuns(v.storage.data(), runs(m.storageRuns, m.storageRunsOf), identity, op, lane, n);
    return {op(op(lane[0], lane[1]), op(lane[2], lane[3])), n};
}

float aggregateRack(const RackMembers& m, const FrameValues& v, size_t rack, Aggregate a) {
    constexpr float kInf = std::numeric_limits<float>::infinity();
    Combined c{};
    switch (a) {
    case Aggregate::Mean:
        c = combineRack(m, v, rack, 0.f, std::plus<float>());
        c.value /= float(std::max(c.n, 1));
        break;
    case Aggregate::Max:
        c = combineRack(m, v, rack, -kInf, [](float x, float y) { return std::max(x, y); });
        break;
    case Aggregate::Min:
        c = combineRack(m, v, rack, kInf, [](float x, float y) { return std::min(x, y); });
        break;
    }
    return c.n == 0 ? std::numeric_limits<float>::quiet_NaN() : c.value;
}

} // namespace

RackMembers RackMembers::of(const Topology& t) {
    RackMembers m;
    m.gpus = t.gpus.size();
    m.storage = t.storage.size();
    m.gpuRuns = runsByRack(
        t.racks.size(), t.gpus.size(),
        [&](size_t g) {
            const int32_t host = t.gpus[g].host;
            return host == kNone ? kNone : t.hosts[size_t(host)].rack;
        },
        m.gpuRunsOf);
    m.storageRuns = runsByRack(
        t.racks.size(), t.storage.size(), [&](size_t s) { return t.storage[s].rack; },
        m.storageRunsOf);
    return m;
}

void aggregateRacks(const RackMembers& m, const FrameValues& v, Aggregate a,
                    std::vector<float>& out) {
    out.resize(m.racks());
    for (size_t r = 0; r < out.size(); ++r)
        out[r] = aggregateRack(m, v, r, a);
}

std::vector<Endpoint> rackOutliers(const RackMembers& m, const std::vector<float>& gpuBusy,
                                   float apart) {
    std::vector<Endpoint> out;
    if (gpuBusy.size() != m.gpus) return out;
    for (size_t r = 0; r < m.racks(); ++r) {
        const std::span<const RackMembers::Run> runs(m.gpuRuns.data() + m.gpuRunsOf[r],
                                                     m.gpuRuns.data() + m.gpuRunsOf[r + 1]);
        double sum = 0;
        int n = 0;
        for (const RackMembers::Run& run : runs)
            for (int32_t g = run.first; g < run.end; ++g)
                if (!std::isnan(gpuBusy[size_t(g)])) sum += gpuBusy[size_t(g)], ++n;
        if (n < 2) continue;
        const double mean = sum / n;
        for (const RackMembers::Run& run : runs)
            for (int32_t g = run.first; g < run.end; ++g)
                if (std::abs(gpuBusy[size_t(g)] - mean) > apart) // false for NaN
                    out.push_back({EntityKind::Gpu, g});
    }
    std::sort(out.begin(), out.end(),
              [](const Endpoint& a, const Endpoint& b) { return a.index < b.index; });
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

// The ranges cover the GPUs of docs/reference/gpus.md: B200's 1,000 W TDP and 180 GB of
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
