#pragma once
// One frame of values for the views' colours: one fraction 0..1 per GPU, per link and per
// storage server (NaN = no data), and how aggregates (racks, link bundles) summarise their
// members. A run's frame (values in their units) becomes one through the metric catalogue.
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
constexpr Aggregate kAggregates[] = {Aggregate::Mean, Aggregate::Max, Aggregate::Min};
const char* aggregateName(Aggregate a); // "mean", "max", "min": CLI, session files, tooltips
std::optional<Aggregate> parseAggregate(std::string_view name);
constexpr const char* kAggregateChoices = "mean, max or min"; // for messages

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
