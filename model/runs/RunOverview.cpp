#include "RunOverview.h"

#include <cmath>
#include <cstdio>

namespace cs {

RunOverview overviewOf(RunReader& r, int maxPoints) {
    RunOverview o;
    o.info = r.info();
    const int64_t end = r.info().endNs;
    o.busyMean = r.statHistory(Metric::GpuBusy, FrameStat::Mean, 0, end, maxPoints);
    o.busyLow = r.statHistory(Metric::GpuBusy, FrameStat::P5, 0, end, maxPoints);
    o.busyHigh = r.statHistory(Metric::GpuBusy, FrameStat::P95, 0, end, maxPoints);
    for (int k = 0; k < kTierCount; ++k)
        o.tiers[size_t(k)] = r.history(Metric::TierBytesPerS, k, 0, end, maxPoints);
    o.storage = r.statHistory(Metric::StorageBytesPerS, FrameStat::Sum, 0, end, maxPoints);
    o.stepTime = r.scalars(Metric::StepTimeS, 0, end, maxPoints);
    o.mfu = r.scalars(Metric::Mfu, 0, end, maxPoints);
    o.sitePowerW = r.history(Metric::SitePowerW, 0, 0, end, maxPoints);
    o.events = r.events();
    for (int m = 0; m < kMetricCount; ++m)
        if (r.has(Metric(m))) o.metrics.push_back(Metric(m));
    return o;
}

namespace {

std::string format(const char* fmt, double a, double b = 0) {
    char buf[96];
    std::snprintf(buf, sizeof buf, fmt, a, b);
    return buf;
}

std::optional<float> valueOf(const RunFrame& f, Metric m, int32_t index) {
    const std::vector<float>& v = f.of(m);
    if (index < 0 || size_t(index) >= v.size() || std::isnan(v[size_t(index)])) return std::nullopt;
    return v[size_t(index)];
}

} // namespace

std::vector<std::pair<std::string, std::string>> liveValues(const RunFrame& f, const Topology& t,
                                                            Endpoint e) {
    std::vector<std::pair<std::string, std::string>> out;
    if (e.kind == EntityKind::Gpu) {
        const auto busy = valueOf(f, Metric::GpuBusy, e.index);
        out.emplace_back("busy (now)", busy ? format("%.0f%%", double(*busy) * 100) : "no data");
        if (auto w = valueOf(f, Metric::GpuPowerW, e.index))
            out.emplace_back("power (now)", format("%.1f W", double(*w)));
        if (auto c = valueOf(f, Metric::GpuTemperatureC, e.index))
            out.emplace_back("temperature (now)", format("%.0f °C", double(*c)));
        if (auto b = valueOf(f, Metric::GpuMemoryUsedBytes, e.index))
            out.emplace_back("memory used (now)", format("%.1f GiB", double(*b) / (1 << 30)));
    }
    // Traffic against the entity's own capacity.
    auto traffic = [&](Metric m) {
        const auto v = valueOf(f, m, e.index);
        out.emplace_back("traffic (now)",
                         v ? format("%.2f GB/s (%.0f%% of capacity)", double(*v) / 1e9,
                                    double(*v) / capacityOf(m, t, e.index) * 100)
                           : "no data");
    };
    if (e.kind == EntityKind::Link) traffic(Metric::LinkBytesPerS);
    if (e.kind == EntityKind::Storage) traffic(Metric::StorageBytesPerS);
    if (e.kind == EntityKind::Host || e.kind == EntityKind::Rack) {
        // The members' distribution: an outlier is what an engineer looks for.
        double sum = 0, lo = INFINITY, hi = -INFINITY;
        int n = 0;
        const std::vector<float>& busy = f.of(Metric::GpuBusy);
        for (size_t h = 0; h < t.hosts.size() && !busy.empty(); ++h) {
            const Host& host = t.hosts[h];
            if (e.kind == EntityKind::Host ? int32_t(h) != e.index : host.rack != e.index) continue;
            for (int g = 0; g < host.gpuCount; ++g) {
                const float v = busy[size_t(host.firstGpu + g)];
                if (std::isnan(v)) continue;
                sum += v, lo = std::min(lo, double(v)), hi = std::max(hi, double(v)), ++n;
            }
        }
        if (n > 0) {
            out.emplace_back("GPU busy mean (now)", format("%.0f%%", sum / n * 100));
            out.emplace_back("GPU busy range (now)",
                             format("%.0f%% to %.0f%%", lo * 100, hi * 100));
        }
    }
    return out;
}

} // namespace cs
