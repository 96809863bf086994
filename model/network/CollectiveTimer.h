#pragma once
// Times for groups of concurrent transfers on the cluster: each transfer (edge) between two
// GPUs is put on the fabric as its transport spreads it (EdgeRoutes.h), and all edges of the
// phase share link bandwidth max-min fairly, each edge's bytes advancing together over its
// paths. Edges inside a host use NVLink.
#include "EdgeRoutes.h"
#include "FabricRouter.h"
#include "MaxMinFairShare.h"

#include <utility>
#include <vector>

namespace cs {

struct PhaseResult {
    double seconds = 0;              // until the slowest edge is done
    std::vector<double> edgeRateBps; // bytes per second per edge
};

// Per-class byte sums: edgeClass[e] < bytes->size() for each edge e.
struct LinkBytesByClass {
    const std::vector<int32_t>* edgeClass = nullptr;
    std::vector<std::vector<float>>* bytes = nullptr;
};

class CollectiveTimer {
public:
    // `nvlinkBps`: an edge inside an NVLink domain; `flowsPerPair` > 0 overrides the
    // transport's queue pairs per connection.
    CollectiveTimer(const Topology& t, FabricRouter& router, double nvlinkBps,
                    int flowsPerPair = 0);

    // All edges move `bytesPerEdge` at once. Adds the bytes each link carries to
    // `linkBytes` (per link direction, as the router numbers them) when given.
    // With `byClass`, the bytes of each link direction are also summed per class of edge:
    // the traffic of one pipeline stage, say.
    // `flowsPerEdge` > 0 overrides the flows per GPU pair (an all-to-all's many pairs spread
    // over ECMP paths by themselves).
    PhaseResult transfer(const std::vector<Edge>& edges, double bytesPerEdge,
                         std::vector<double>* linkBytes, LinkBytesByClass byClass = {},
                         int flowsPerEdge = 0);
    // Ring collectives (all-gather or reduce-scatter) over each group at once: n-1 steps of
    // `shardBytes` per edge. Returns the time of the slowest ring.
    double ring(const std::vector<std::vector<int32_t>>& groups, double shardBytes,
                std::vector<double>* linkBytes, double repeat = 1);
    // Several collectives over the same groups one after another (e.g. all-gather, then
    // reduce-scatter): the routing and fair shares are computed once. Times per collective.
    // groupClass, when given, classes the groups for per-class link bytes (see transfer).
    std::vector<double> rings(const std::vector<std::vector<int32_t>>& groups,
                              const std::vector<double>& shardBytes, std::vector<double>* linkBytes,
                              const std::vector<int32_t>* groupClass = nullptr,
                              std::vector<std::vector<float>>* bytesByClass = nullptr);

private:
    const Topology& t_;
    FabricRouter& router_;
    FabricTransports transports_;
    double nvlinkBps_;
    int flowsPerPair_;
    std::vector<double> capacity_;
    TransferSolveScratch scratch_;
};

} // namespace cs
