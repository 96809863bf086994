#pragma once
// Link traffic (and a GPU's busy) as the engine makes it: a few sources (one stage's DP
// collectives, one boundary's pipeline sends), each loading its links' directions at fixed rates
// while on, and per frame how much of each source is on. Stored that way, a step of 16,384 GPUs at
// 10 ms is a few sources and a few floats per frame instead of 120,624 changing values; the
// writer and the reader compose frames with the same function.
#include "Topology.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace cs {

struct TrafficSource {
    std::vector<std::pair<uint32_t, float>> rates; // link direction (2 l, 2 l + 1) -> B/s, sorted
};

struct ComposedTraffic {
    std::vector<TrafficSource> sources;
    std::vector<uint32_t> noData; // links that hold no value (NaN), sorted
};

// One frame: each direction the weighted sum of the sources, at most the link's capacity;
// per link the busier direction.
void composeLinkFrame(const Topology& t, const ComposedTraffic& c,
                      const std::vector<float>& weights, std::vector<float>& out);
// A per-entity metric composed the same way (a GPU's busy: one source per pipeline stage,
// at rate 1 on its GPUs): each entity the weighted sum of the sources at its own slot, no
// directions, no capacity; NaN where noData names it.
void composeEntityFrame(size_t entities, const ComposedTraffic& c,
                        const std::vector<float>& weights, std::vector<float>& out);
// One entity's rate in every source, and its value in a frame from them.
std::vector<float> ratesOfEntity(const ComposedTraffic& c, uint32_t entity);
float composedEntityValue(const std::vector<float>& perSourceRates,
                          const std::vector<float>& weights, bool noData);
// One link over the frames of a pattern, the same way.
float composedLinkValue(const Topology& t, const ComposedTraffic& c,
                        const std::vector<std::pair<float, float>>& perSourceRates,
                        const std::vector<float>& weights, bool noData, uint32_t link);
// The two directions' rates of one link in every source (for a link's history).
std::vector<std::pair<float, float>> ratesOfLink(const ComposedTraffic& c, uint32_t link);

} // namespace cs
