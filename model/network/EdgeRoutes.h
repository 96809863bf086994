#pragma once
// One transfer between two GPUs as its cluster's transport puts it on the fabric: the link
// directions its bytes cross and the fraction of them on each. ECMP hashes each of the
// connection's queue pairs onto one path and splits the bytes evenly over them (NCCL splits a
// transfer over its queue pairs); packet spraying spreads the bytes evenly over every
// equal-cost next hop as UEC does, over a set of entropy values each hashed like a flow (64,
// htsim's and UEC's default); adaptive routing in proportion to the capacity each next hop has
// (a slowed link, or one others load, gets less), as a switch sending each packet to its
// shortest queue does.
#include "FabricRouter.h"
#include "Transport.h"

#include <utility>
#include <vector>

namespace cs {

constexpr int kSprayEntropies = 64;

struct Edge {
    int32_t src, dst; // GPUs
};

class EdgeRouter {
public:
    // `capacity`: per link direction, what adaptive routing weighs next hops by.
    // `qpsOverride` > 0 replaces the transport's flows per GPU pair (its channels' queue pairs).
    EdgeRouter(FabricRouter& router, const FabricTransports& transports,
               const std::vector<double>& capacity, int qpsOverride = 0)
        : router_(router), transports_(transports), capacity_(capacity), qps_(qpsOverride) {}
    // Fills `out` with (link direction, fraction of the edge's bytes), one entry per direction,
    // ascending; empty inside an NVLink domain. False when no route exists.
    bool route(const Edge& e, std::vector<std::pair<int32_t, double>>& out);
    // The flows ECMP opens for the edge (1 for spraying and adaptive routing: one spread flow).
    int flowsOf(const Edge& e) const;

private:
    FabricRouter& router_;
    const FabricTransports& transports_;
    const std::vector<double>& capacity_;
    int qps_;
    std::vector<int32_t> path_;
};

// The hash of queue pair q of an edge: the same ECMP choice wherever the edge is routed.
inline uint64_t edgeFlowHash(const Edge& e, int q) {
    return (uint64_t(uint32_t(e.src)) << 32 | uint32_t(e.dst)) * 31 + uint64_t(q);
}

} // namespace cs
