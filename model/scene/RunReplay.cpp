#include "RunReplay.h"

#include "RunFrames.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

namespace cs {
namespace {

TimeSeries scalarSeries(const RunStore& s, int64_t run, const char* metric, const char* unit) {
    TimeSeries out{metric, unit, {}, {}};
    if (auto id = s.metricId(metric))
        for (const auto& [ts, v] : s.scalars(run, *id)) {
            out.tS.push_back(double(ts) / 1e9);
            out.value.push_back(v);
        }
    return out;
}

} // namespace

RunReplay::RunReplay(const QString& path, const Topology& t)
    : t_(t), store_(RunStore::openForReading(path)) {
    const std::vector<int64_t> runs = store_.runs();
    if (runs.empty()) throw InputException({path.toStdString(), 0, 0, {}, "holds no runs"});
    run_ = runs.back();
    range_ = store_.timeRange(run_);
    frameOfRun(store_, run_, t, range_.first); // checks the topology
    events_ = store_.events(run_, false);
    if (auto id = store_.metricId("gpu_busy")) {
        for (int64_t ts : store_.frameTimes(run_, *id)) {
            std::vector<float> f = store_.frameAt(run_, *id, ts);
            f.erase(std::remove_if(f.begin(), f.end(), [](float v) { return std::isnan(v); }),
                    f.end());
            if (f.empty()) continue;
            double sum = 0;
            for (float v : f)
                sum += v;
            const size_t lo = f.size() / 20, hi = std::min(f.size() - 1, f.size() * 19 / 20);
            std::nth_element(f.begin(), f.begin() + long(lo), f.end());
            const float low = f[lo];
            std::nth_element(f.begin(), f.begin() + long(hi), f.end());
            gpuBusy_.tS.push_back(double(ts) / 1e9);
            gpuBusy_.mean.push_back(sum / double(f.size()));
            gpuBusy_.low.push_back(low);
            gpuBusy_.high.push_back(f[hi]);
        }
    }
    for (const char* tier :
         {"throughput_nic_leaf", "throughput_leaf_spine", "throughput_spine_core"})
        tiers_.push_back(scalarSeries(store_, run_, tier, "B/s"));
    stepTime_ = scalarSeries(store_, run_, "step_time", "s");
    mfu_ = scalarSeries(store_, run_, "mfu", "fraction");
    storage_ = {"storage throughput", "B/s", {}, {}};
    if (auto id = store_.metricId("storage_load")) {
        double capacity = 0;
        for (const StorageServer& s : t.storage)
            capacity += s.gbps * 1e9 / 8;
        for (int64_t ts : store_.frameTimes(run_, *id)) {
            const std::vector<float> f = store_.frameAt(run_, *id, ts);
            double sum = 0;
            for (float v : f)
                sum += std::isnan(v) ? 0 : v;
            storage_.tS.push_back(double(ts) / 1e9);
            storage_.value.push_back(f.empty() ? 0 : sum / double(f.size()) * capacity);
        }
    }
}

TimeSeries RunReplay::gpuHistory(int32_t gpu) const {
    TimeSeries out{"GPU " + t_.gpuName(gpu) + " busy", "fraction", {}, {}};
    const auto id = store_.metricId("gpu_busy");
    if (!id || gpu < 0 || size_t(gpu) >= t_.gpus.size()) return out;
    for (const auto& [ts, v] : store_.entityHistory(run_, *id, gpu, range_.first, range_.second)) {
        out.tS.push_back(double(ts) / 1e9);
        out.value.push_back(v);
    }
    return out;
}

TimeSeries RunReplay::linkHistory(int32_t link) const {
    TimeSeries out{"link " + std::to_string(link), "B/s", {}, {}};
    const auto id = store_.metricId("link_bytes_per_s");
    if (!id || link < 0 || size_t(link) >= t_.links.size()) return out;
    out.name = t_.nameOf({EntityKind::Link, link});
    for (const auto& [ts, v] : store_.entityHistory(run_, *id, link, range_.first, range_.second)) {
        out.tS.push_back(double(ts) / 1e9);
        out.value.push_back(v);
    }
    return out;
}

std::vector<std::pair<std::string, std::string>> RunReplay::valuesAt(Endpoint e,
                                                                     int64_t tsNs) const {
    std::vector<std::pair<std::string, std::string>> out;
    auto value = [&](const char* metric, int32_t index) -> std::optional<float> {
        const auto id = store_.metricId(metric);
        if (!id) return std::nullopt;
        const std::vector<float> f = store_.frameAt(run_, *id, tsNs);
        if (index < 0 || size_t(index) >= f.size() || std::isnan(f[size_t(index)]))
            return std::nullopt;
        return f[size_t(index)];
    };
    char buf[64];
    if (e.kind == EntityKind::Gpu) {
        if (auto v = value("gpu_busy", e.index)) {
            std::snprintf(buf, sizeof buf, "%.0f%%", double(*v) * 100);
            out.emplace_back("busy (now)", buf);
        } else {
            out.emplace_back("busy (now)", "no data");
        }
        for (const char* m : {"DCGM_FI_DEV_POWER_USAGE", "DCGM_FI_DEV_GPU_TEMP"})
            if (auto v = value(m, e.index)) {
                std::snprintf(buf, sizeof buf, "%.1f", double(*v));
                out.emplace_back(m, buf);
            }
    }
    if (e.kind == EntityKind::Link) {
        if (auto v = value("link_bytes_per_s", e.index)) {
            const double cap = t_.links[size_t(e.index)].gbps * 1e9 / 8;
            std::snprintf(buf, sizeof buf, "%.2f GB/s (%.0f%% of capacity)", double(*v) / 1e9,
                          double(*v) / cap * 100);
            out.emplace_back("traffic (now)", buf);
        } else {
            out.emplace_back("traffic (now)", "no data");
        }
    }
    if (e.kind == EntityKind::Storage)
        if (auto v = value("storage_load", e.index)) {
            std::snprintf(buf, sizeof buf, "%.1f%%", double(*v) * 100);
            out.emplace_back("load (now)", buf);
        }
    return out;
}

} // namespace cs
