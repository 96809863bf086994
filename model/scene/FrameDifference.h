#pragma once
// Two runs' frames on two topologies, as one frame of differences A - B for the views' colours:
// where both topologies name an entity alike (the same preset with another oversubscription),
// each GPU, link and storage server shows its own difference; otherwise each GPU shows its
// pod's (pods matched by position) and each link its tier's (NIC, rack, pod uplinks).
#include "FrameValues.h"

#include <vector>

namespace cs {

// Which entity of B stands for each entity of A (kNone: none), worked out once per pair.
struct EntityMatch {
    std::vector<int32_t> gpu, link, storage; // indexed by A's entity
    bool byName = false; // most GPUs and links found by name; else by pod and tier
};

// GPUs and storage by id; links by their two ends' ids (and their rank among parallel links).
// byName when at least 90 % of A's GPUs and links have a match.
EntityMatch matchEntities(const Topology& a, const Topology& b);

// A - B of two frames of fractions (fractionsOfCapacity), on A's entities: each from -1 to 1,
// NaN where either side has no data.
FrameValues frameDifference(const Topology& a, const FrameValues& va, const Topology& b,
                            const FrameValues& vb, const EntityMatch& m);

} // namespace cs
