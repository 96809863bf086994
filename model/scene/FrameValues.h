#pragma once
// One frame of values for the views' colours: one fraction 0..1 per GPU, per link and per
// storage server (NaN = no data), and how aggregates (racks, link bundles) summarise their
// members. A run's frame (values in their units) becomes one through the metric catalogue.
#include "EnumNames.h"
#include "RunReader.h"
#include "SceneLayout.h"
#include "Topology.h"

#include <cmath>
#include <optional>
#include <string_view>
#include <vector>

namespace cs {

struct FrameValues {
    std::vector<float> gpu;     // busy fraction 0..1
    std::vector<float> link;    // traffic as a fraction of capacity 0..1
    std::vector<float> storage; // load fraction 0..1
};

// How a rack or a bundle summarises its members. Min finds the idle GPU or the quiet link
// in a busy rack or bundle; max the hot one.
enum class Aggregate : uint8_t { Mean, Max, Min };
// "mean", "max", "min": the command line, session files and tooltips; "Mean"... in menus.
inline constexpr EnumNames kAggregateNames{std::to_array<EnumName<Aggregate>>({
    {Aggregate::Mean, "mean", "Mean"},
    {Aggregate::Max, "max", "Max"},
    {Aggregate::Min, "min", "Min"},
})};
inline const char* aggregateName(Aggregate a) {
    return kAggregateNames.name(a).data();
}

// Which GPUs and storage servers each rack holds, as runs of consecutive indices: found once
// per topology, so that a frame's rack aggregates read only its values (a GPU's host and rack
// are two reads in structs far apart, 40 MB of them at 1M GPUs), rack by rack.
struct RackMembers {
    struct Run {
        int32_t first, end; // indices [first, end)
    };
    size_t gpus = 0, storage = 0;
    // Rack r's runs are gpuRuns[gpuRunsOf[r] .. gpuRunsOf[r + 1]), storage's alike.
    std::vector<int32_t> gpuRunsOf, storageRunsOf;
    std::vector<Run> gpuRuns, storageRuns;
    size_t racks() const { return gpuRunsOf.empty() ? 0 : gpuRunsOf.size() - 1; }
    static RackMembers of(const Topology& t);
};

// Rack value from its GPUs (compute racks) or storage servers (storage racks).
void aggregateRacks(const RackMembers& m, const FrameValues& v, Aggregate a,
                    std::vector<float>& out);
void aggregateBundles(const LinkBundles& b, const FrameValues& v, Aggregate a,
                      std::vector<float>& out);
// GPUs far from their rack's mean busy (by more than `apart`, of 0..1): the idle GPU among
// busy ones that no aggregate shows at the overview. Only a minority can be that far (a rack
// half idle, half busy has none); racks with one GPU with data have none.
std::vector<Endpoint> rackOutliers(const RackMembers& m, const std::vector<float>& gpuBusy,
                                   float apart = 0.5f);

// A deterministic moving pattern standing in for data until a run is loaded: waves across
// the GPU and link indices, phase advancing with time.
void fillTestPattern(const Topology& t, double timeS, FrameValues& out);
// Link speed relative to the fastest link (log scale), GPUs and storage without data.
void fillLinkSpeed(const Topology& t, FrameValues& out);
// A run's frame as fractions: GPU busy as it is, link and storage traffic over each one's
// capacity (clamped to 1).
// A GPU metric on the colour scale: the fixed range it is drawn over (in the metric's unit)
// and how the colour bar labels it. Fixed, not the frame's own range, so colours mean the same
// from frame to frame. Busy: 0..1, labelled in %.
struct GpuMetricScale {
    double lo = 0, hi = 1; // in the metric's unit
    double display = 100;  // the unit to the colour bar's ("%", W, °C, GB, MHz)
    std::string_view title;
};
GpuMetricScale gpuMetricScale(Metric m);
// The GPU metrics a run can be coloured by: busy, power, temperature, memory used, SM clock.
const std::vector<Metric>& gpuColourMetrics();
// A frame as fractions: GPUs by `gpuMetric` over its scale (busy: as stored); links and
// storage by their traffic over capacity, or no data when GPUs show another metric than busy
// (the colour bar then speaks of the GPUs alone).
FrameValues fractionsOfCapacity(const RunFrame& f, const Topology& t,
                                Metric gpuMetric = Metric::GpuBusy);

} // namespace cs
