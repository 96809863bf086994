#pragma once
// Every metric a stored run can hold, in one table: its name in the store, its unit (values
// are stored in that unit: B/s, never a fraction of capacity), the entity kind it belongs
// to, how members aggregate, and the capacity a value is compared with. Event kinds
// likewise. The simulator, the importers, the reader, the views and the CLI name metrics
// only through this table.
#include "Topology.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cs {

enum class Metric : uint8_t {
    GpuBusy,            // fraction of the interval the GPU computes
    GpuPowerW,          // board power
    GpuTemperatureC,    // die temperature
    GpuMemoryUsedBytes, // framebuffer in use
    GpuSmClockHz,       // SM clock
    LinkBytesPerS,      // the busier direction of a link
    StorageBytesPerS,   // a storage server's traffic (reads + writes)
    TierBytesPerS,      // the sum over the links of one network tier
    StepTimeS,          // run-wide: duration of the step in progress
    Mfu,                // run-wide: model FLOPs utilisation
    SitePowerW,         // the whole site's power, from its GPUs' busy (model/power)
};
constexpr int kMetricCount = 11;

// What a metric's values are indexed by. Site: one value for the whole site, stored in frames
// of the run's patterns as the per-entity metrics are (a step is stored once however often it
// plays); Run: a series of scalars at absolute times.
enum class MetricEntity : uint8_t { Gpu, Link, Storage, Tier, Run, Site };
enum class Aggregation : uint8_t { Mean, Max, Sum };
// The capacity of one entity the values are compared with (colour scales, "% of capacity").
enum class Capacity : uint8_t { None, Unit, LinkSpeed, StorageBandwidth };

struct MetricDef {
    Metric metric;
    const char* name; // in the store and on the command line
    const char* unit;
    const char* label; // for people
    MetricEntity entity;
    Aggregation aggregation;
    Capacity capacity;
    // What a device can report: values outside (and infinities) are faults of an exporter
    // or a file, not readings. Generous bounds: a board draws under 20 kW, a die is between
    // -60 and 250 C, a GPU holds under 10 TB, clocks under 10 GHz, one link or server moves
    // under 100 TB/s; unbounded where nothing records the metric.
    double possibleMin = -std::numeric_limits<double>::max();
    double possibleMax = std::numeric_limits<double>::max();
};

const std::vector<MetricDef>& metricCatalogue();
const MetricDef& metricDef(Metric m);
std::optional<Metric> metricByName(std::string_view name);
// "gpu_busy, gpu_power_w, ..." for error messages.
std::string metricNames();

std::string_view toString(MetricEntity e);
std::optional<MetricEntity> parseMetricEntity(std::string_view s);
// How many values a frame of this entity kind holds on a topology (Run: none, Site: one).
size_t entityCount(MetricEntity e, const Topology& t);
// The topology entity behind a metric entity index (tiers and runs have none).
std::optional<Endpoint> endpointOf(MetricEntity e, int32_t index);
std::optional<MetricEntity> metricEntityOf(EntityKind k);

// One entity's capacity in the metric's unit; NaN when the metric has none.
double capacityOf(Metric m, const Topology& t, int32_t entity);

// The network tiers of TierBytesPerS, in entity order.
constexpr int kTierCount = 3;
const char* tierName(int tier); // "NIC - rack switch", ...
// The tier of a link (0 NIC to rack switch, 1 rack to pod switch, 2 pod to cluster
// switch), or -1 for links inside hosts and others.
int tierOfLink(const Topology& t, int32_t link);

enum class EventKind : uint8_t { Step, Checkpoint, Failure, Maintenance, Restart };
constexpr int kEventKindCount = 5;
std::string_view toString(EventKind k);
std::optional<EventKind> parseEventKind(std::string_view s);

} // namespace cs
