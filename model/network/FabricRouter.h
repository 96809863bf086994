#pragma once
// Routes between GPUs over the backend fabric: GPU -> its NIC -> rack switch -> ... ->
// rack switch -> NIC -> GPU, along shortest paths (where the GPU's NIC sits on another plane
// than the destination's, from a NIC of its host on that plane, as NCCL's PXN relays over
// NVLink), choosing among equal-cost next hops by a
// hash of the flow (ECMP; with one hash per queue pair this is Meta's "enhanced ECMP").
// Resources are directed links: 2 x link + (0 for a->b, 1 for b->a). A link that carries
// nothing (gbps 0: failed, see FabricFaults) is not there for routing.
#include "Topology.h"
#include "TopologyIndex.h"
#include "Transport.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace cs {

class FabricRouter {
public:
    // `capacityLeft`: per resource, the fraction of its capacity that is this job's where the
    // fabric is shared with others (empty: all of it); routes do not change with it.
    FabricRouter(const Topology& t, const TopologyIndex& ix, std::vector<double> capacityLeft = {});

    // Appends the directed links from GPU src to GPU dst for flow `flowHash`; empty when both
    // sit in one host (NVLink, outside the fabric). False if no route exists.
    bool route(int32_t srcGpu, int32_t dstGpu, uint64_t flowHash, std::vector<int32_t>& out);
    // The same path spread over every equal-cost next hop instead of one, as packet spraying
    // and adaptive routing spread a flow: appends (link direction, fraction of the flow's bytes
    // there). `weightOf` (null: equal shares) weighs a candidate direction at each hop:
    // adaptive routing sends more where more capacity is left. Empty when both sit in one
    // host; false if no route exists.
    bool spread(int32_t srcGpu, int32_t dstGpu, const std::vector<double>* weightOf,
                std::vector<std::pair<int32_t, double>>& out);
    // Why GPU src cannot reach GPU dst ("its NIC x has no working link to a switch (link y
    // failed)"), naming the part that is missing; empty when it can.
    std::string whyUnreachable(int32_t srcGpu, int32_t dstGpu);
    // Every GPU of a job (by rank) reaches rank 0's over the fabric (failed parts taken out), or
    // InputException (field "fabric") names the GPU, its rank and what it lacks: flows without
    // a route would otherwise vanish from a step and make it faster.
    void requireReachable(const std::vector<int32_t>& gpuOfRank);
    // One-way latency of the path in nanoseconds (sum of its links).
    double latencyNs(const std::vector<int32_t>& path) const;
    size_t resourceCount() const { return 2 * t_.links.size(); }
    // Bytes per second each direction of a link carries at most: its rate after the headers of
    // its cluster's transport, and after others' share.
    std::vector<double> capacities(const FabricTransports& transports) const;
    // Per link direction, what its cluster's congestion control keeps of it where two or more
    // transfers saturate it (Transport::contendedEfficiency).
    std::vector<double> contendedEfficiencies(const FabricTransports& transports) const;
    // Per link direction leaving a switch, the buffer of its cluster's leaf switches per port
    // (0 elsewhere).
    std::vector<double> switchBuffers(const FabricTransports& transports) const;
    // Per link direction, whether it carries a NIC's sending into the fabric (NIC to switch).
    std::vector<uint8_t> injectionLinks() const;
    // The same at one fraction of every link's rate (storage writes over the frontend).
    std::vector<double> capacities(double goodputFraction) const;

private:
    std::vector<double> capacityLeft_;
    struct Hop {
        int32_t link;
        int32_t next; // switch
    };
    // Hops from every switch to `leaf`, as a function of the switch.
    class Distances {
    public:
        Distances(const std::vector<uint16_t>& fromRepresentative, int32_t representative,
                  int32_t leaf)
            : d_(fromRepresentative), representative_(representative), leaf_(leaf) {}
        uint16_t operator[](size_t s) const {
            if (int32_t(s) == leaf_) return 0;
            // The representative is as far from `leaf` as `leaf` is from it.
            if (int32_t(s) == representative_) return d_[size_t(leaf_)];
            return d_[s];
        }

    private:
        const std::vector<uint16_t>& d_;
        int32_t representative_, leaf_;
    };
    Distances distancesTo(int32_t leaf);
    const std::vector<uint16_t>& bfsFrom(int32_t leaf);
    int32_t resource(int32_t link, int32_t from) const;
    int32_t clusterOfLink(size_t link) const; // kNone: outside every cluster
    // The NICs and leaves of a route from src to dst: false if none; `dstLeaf` set, `relay`
    // the sending NIC (PXN), kNone for a route inside one NVLink domain.
    struct Ends {
        int32_t relay = kNone, dst = kNone, srcLeaf = kNone, dstLeaf = kNone;
    };
    bool ends(int32_t srcGpu, int32_t dstGpu, Ends& e);
    int32_t upResource(int32_t nic) const;
    int32_t downResource(int32_t nic) const;
    // Switches reached at each hop of a spread and their share of the flow, reused between
    // calls.
    std::vector<std::pair<int32_t, double>> frontier_, next_;
    std::vector<int32_t> slotOf_;
    // The NIC that sends toward the leaf `d` measures from: the GPU's own, or (PXN) another of
    // its host whose leaf reaches it; kNone if none does.
    int32_t sendingNic(int32_t nic, int32_t host, const Distances& d) const;

    const Topology& t_;
    std::vector<int32_t> nicOfGpu_, nicLink_, leafOfNic_;
    std::vector<int32_t> hostNicOffsets_, hostNics_; // per host, its backend NICs
    std::vector<int32_t> adjOffsets_;
    std::vector<Hop> adj_;
    // Switches with the same neighbours are the same distance from every other switch (a
    // shortest path never passes through one to reach the other), so one breadth-first search
    // serves a whole group: a pod's leaves of one plane in a fat tree. Per switch its group's
    // representative (the first of the group); distances kept per representative.
    std::vector<int32_t> representative_;
    std::unordered_map<int32_t, std::vector<uint16_t>> dist_;
};

} // namespace cs
