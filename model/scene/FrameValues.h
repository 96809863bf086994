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

// Rack value from its GPUs (compute racks) or storage servers (storage racks).
void aggregateRacks(const Topology& t, const FrameValues& v, Aggregate a, std::vector<float>& out);
void aggregateBundles(const LinkBundles& b, const FrameValues& v, Aggregate a,
                      std::vector<float>& out);

// A deterministic moving pattern standing in for data until a run is loaded: waves across
// the GPU and link indices, phase advancing with time.
void fillTestPattern(const Topology& t, double timeS, FrameValues& out);
// Link speed relative to the fastest link (log scale), GPUs and storage without data.
void fillLinkSpeed(const Topology& t, FrameValues& out);
// A run's frame as fractions: GPU busy as it is, link and storage traffic over each one's
// capacity (clamped to 1).
FrameValues fractionsOfCapacity(const RunFrame& f, const Topology& t);

} // namespace cs
