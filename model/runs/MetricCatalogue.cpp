#include "MetricCatalogue.h"

#include <cmath>
#include <iterator>
#include <limits>

namespace cs {

const std::vector<MetricDef>& metricCatalogue() {
    using enum Metric;
    using E = MetricEntity;
    using A = Aggregation;
    using C = Capacity;
    // In enum order: metricDef() indexes this table.
    static const std::vector<MetricDef> table{
        {GpuBusy, "gpu_busy", "fraction", "GPU busy", E::Gpu, A::Mean, C::Unit, 0, 1 + 1e-9},
        {GpuPowerW, "gpu_power_w", "W", "GPU power", E::Gpu, A::Mean, C::None, 0, 2e4},
        {GpuTemperatureC, "gpu_temperature_c", "°C", "GPU temperature", E::Gpu, A::Max, C::None,
         -60, 250},
        {GpuMemoryUsedBytes, "gpu_memory_used_bytes", "B", "GPU memory used", E::Gpu, A::Mean,
         C::None, 0, 1e13},
        {GpuSmClockHz, "gpu_sm_clock_hz", "Hz", "GPU SM clock", E::Gpu, A::Mean, C::None, 0, 1e10},
        {LinkBytesPerS, "link_bytes_per_s", "B/s", "link traffic", E::Link, A::Max, C::LinkSpeed, 0,
         1e14},
        {StorageBytesPerS, "storage_bytes_per_s", "B/s", "storage traffic", E::Storage, A::Sum,
         C::StorageBandwidth, 0, 1e14},
        {TierBytesPerS, "tier_bytes_per_s", "B/s", "network tier throughput", E::Tier, A::Sum,
         C::None, 0, 1e14},
        {StepTimeS, "step_time_s", "s", "step time", E::Run, A::Mean, C::None},
        {Mfu, "mfu", "fraction", "MFU", E::Run, A::Mean, C::Unit},
        {SitePowerW, "site_power_w", "W", "site power", E::Site, A::Sum, C::None},
    };
    return table;
}

const MetricDef& metricDef(Metric m) {
    return metricCatalogue()[size_t(m)];
}

std::optional<Metric> metricByName(std::string_view name) {
    for (const MetricDef& d : metricCatalogue())
        if (name == d.name) return d.metric;
    return std::nullopt;
}

std::string metricNames() {
    std::string out;
    for (const MetricDef& d : metricCatalogue())
        out += (out.empty() ? "" : ", ") + std::string(d.name);
    return out;
}

namespace {
constexpr const char* kEntityNames[] = {"gpu", "link", "storage", "tier", "run", "site"};
constexpr const char* kEventNames[] = {"step", "checkpoint", "failure", "maintenance", "restart"};
} // namespace

std::string_view toString(MetricEntity e) {
    return kEntityNames[size_t(e)];
}

std::optional<MetricEntity> parseMetricEntity(std::string_view s) {
    for (size_t i = 0; i < std::size(kEntityNames); ++i)
        if (s == kEntityNames[i]) return MetricEntity(i);
    return std::nullopt;
}

size_t entityCount(MetricEntity e, const Topology& t) {
    switch (e) {
    case MetricEntity::Gpu:
        return t.gpus.size();
    case MetricEntity::Link:
        return t.links.size();
    case MetricEntity::Storage:
        return t.storage.size();
    case MetricEntity::Tier:
        return kTierCount;
    case MetricEntity::Run:
        return 0;
    case MetricEntity::Site:
        return 1;
    }
    return 0;
}

std::optional<Endpoint> endpointOf(MetricEntity e, int32_t index) {
    switch (e) {
    case MetricEntity::Gpu:
        return Endpoint{EntityKind::Gpu, index};
    case MetricEntity::Link:
        return Endpoint{EntityKind::Link, index};
    case MetricEntity::Storage:
        return Endpoint{EntityKind::Storage, index};
    default:
        return std::nullopt;
    }
}

std::optional<MetricEntity> metricEntityOf(EntityKind k) {
    switch (k) {
    case EntityKind::Gpu:
        return MetricEntity::Gpu;
    case EntityKind::Link:
        return MetricEntity::Link;
    case EntityKind::Storage:
        return MetricEntity::Storage;
    default:
        return std::nullopt;
    }
}

double capacityOf(Metric m, const Topology& t, int32_t entity) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    if (entity < 0) return nan;
    switch (metricDef(m).capacity) {
    case Capacity::Unit:
        return 1.0;
    case Capacity::LinkSpeed:
        return size_t(entity) < t.links.size() ? double(t.links[size_t(entity)].gbps) * 1e9 / 8
                                               : nan;
    case Capacity::StorageBandwidth:
        return size_t(entity) < t.storage.size() ? double(t.storage[size_t(entity)].gbps) * 1e9 / 8
                                                 : nan;
    case Capacity::None:
        break;
    }
    return nan;
}

const char* tierName(int tier) {
    static const char* names[kTierCount] = {"NIC - rack switch", "rack - pod switch",
                                            "pod - core switch"};
    return tier >= 0 && tier < kTierCount ? names[tier] : "";
}

int tierOfLink(const Topology& t, int32_t link) {
    const Link& k = t.links[size_t(link)];
    const bool aSw = k.a.kind == EntityKind::Switch, bSw = k.b.kind == EntityKind::Switch;
    if (aSw != bSw && (k.a.kind == EntityKind::Nic || k.b.kind == EntityKind::Nic)) return 0;
    if (aSw && bSw) {
        const int tier = std::max(tierOf(t.switches[size_t(k.a.index)].role),
                                  tierOf(t.switches[size_t(k.b.index)].role)) -
                         1;
        return tier >= 0 && tier < kTierCount ? tier : -1;
    }
    return -1;
}

std::string_view toString(EventKind k) {
    return kEventNames[size_t(k)];
}

std::optional<EventKind> parseEventKind(std::string_view s) {
    for (int i = 0; i < kEventKindCount; ++i)
        if (s == kEventNames[i]) return EventKind(i);
    return std::nullopt;
}

} // namespace cs
