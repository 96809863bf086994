#include "NcclModel.h"

#include "CollectiveSize.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace cs {
namespace {

constexpr int kProtos = 3;
// NCCL's tuner constants (src/graph/tuning.cc at v2.30.7, microseconds and GB/s), per
// protocol LL, LL128, Simple.
struct AlgoLatency {
    double base[kProtos], nvlink[kProtos], net[kProtos];
};
constexpr AlgoLatency kRing{{6.6, 14.0, 8.4}, {0.6, 1.9, 3.4}, {2.7, 4.0, 14.0}};
constexpr AlgoLatency kTree{{6.8, 14.0, 8.4}, {0.6, 1.25, 4.0}, {5.0, 8.5, 14.0}};
constexpr AlgoLatency kNvlsTree{{0, 0, 0}, {0, 0, 25.0}, {0, 0, 20.9}};
constexpr AlgoLatency kCollNet{{0, 0, 0}, {0, 0, 3.7}, {0, 0, 31.0}};
constexpr AlgoLatency kPat{{8.0, 8.0, 8.0}, {0, 0, 4.0}, {0, 0, 14.0}};
// Network post overhead per step of an inter-node ring (x3 for Simple), x86 Intel.
constexpr double kNetOverheadUs = 1.0;
// NCCL's latencies as nccl-tests shows them, per protocol LL, LL128, Simple: the tuner's own for
// a ring's LL; LL128 and Simple move chunks a hop at a time, and their per-step latencies
// across hosts x 6 and x 3 on a ring, x 2 (LL), x 4 and x 5 on a tree, and inside a host x 1 on
// a ring and x 0.25 on a tree bring alpha to what all_reduce_perf and all_gather_perf measure
// on 2 to 8 hosts of 8 H100 (docs/reference/collectives.md, "NCCL's latencies").
struct LatencyScale {
    double nvlink[kProtos], net[kProtos];
};
constexpr LatencyScale kRingScale{{1.0, 1.0, 1.0}, {1.0, 6.0, 3.0}};
constexpr LatencyScale kTreeScale{{1.0, 0.25, 0.25}, {2.0, 4.0, 5.0}};
// Protocol efficiencies and caps (tuning.cc): LL carries 8 of 16 bytes, LL128 120 of 128.
constexpr double kLlEfficiency = 0.5, kLl128Efficiency = 0.92;
constexpr double kTreeEfficiency = 0.92, kPatEfficiency = 0.75;
constexpr double kCollNetHopperEfficiency = 0.85;
constexpr double kTreeLlDivisor = 3.8, kTreeLl128Efficiency = 120.0 / 128.0;
constexpr double kTreeLlAcrossHostsHopperGBs = 45.0;

int protoIndex(NcclProto p) {
    return p == NcclProto::LL ? 0 : p == NcclProto::LL128 ? 1 : 2;
}

// NCCL's tables indexed by nodes: 1, 2, 3 or more.
int nodeIndex(int nodes) {
    return nodes <= 1 ? 0 : nodes == 2 ? 1 : 2;
}
double llMaxGBs(const NcclGroup& g) {
    if (g.nodes == 1) return g.family == "ampere" ? 87.7 : g.family == "blackwell" ? 282.0 : 141.0;
    return g.nodes == 2 ? 39.0 : 20.4; // x86 Intel hosts
}
// What a tree's LL moves across hosts: NCCL's tuner caps it as a ring's (20.4 GB/s from 3
// hosts), but all_reduce_perf's LL sizes on 2, 4 and 8 hosts of 8 H100 run at about 45
// (docs/reference/collectives.md, "NCCL's latencies") [derived]; Ampere and Blackwell keep the
// tuner's cap (no log).
double treeLlMaxGBs(const NcclGroup& g) {
    return g.nodes > 1 && g.family == "hopper" ? kTreeLlAcrossHostsHopperGBs : llMaxGBs(g);
}
double ringLl128PerChannelGBs(const NcclGroup& g) {
    return g.family == "ampere" ? 20.0 : g.family == "blackwell" ? 40.0 : 36.7;
}
double treePerChannelGBs(const NcclGroup& g, NcclProto p) {
    const int n = nodeIndex(g.nodes);
    if (p == NcclProto::LL128) {
        constexpr double hopper[] = {36.7, 36.7, 29.0}, ampere[] = {20.0, 20.0, 20.0},
                         blackwell[] = {55.6, 31.67, 20.0};
        return g.family == "ampere"      ? ampere[n]
               : g.family == "blackwell" ? blackwell[n]
                                         : hopper[n];
    }
    constexpr double hopper[] = {38.7, 41.4, 36.0}, ampere[] = {24.0, 23.6, 17.8},
                     blackwell[] = {70.0, 42.8, 24.0};
    return g.family == "ampere" ? ampere[n] : g.family == "blackwell" ? blackwell[n] : hopper[n];
}

bool reduces(NcclOp op) {
    return op == NcclOp::AllReduce;
}

// Bus bandwidth (GB/s) of the algorithm and protocol; 0 where it cannot run.
double busGBs(NcclOp op, const NcclGroup& g, NcclAlgo a, NcclProto p) {
    const double net = g.netBusBps / 1e9, nvlink = g.nvlinkBps / 1e9, nvls = g.nvlsBusBps / 1e9;
    const double nvlinkRing = g.perNode > 1 ? nvlink * g.perNode / (g.perNode - 1) : 1e300;
    const bool chain = op == NcclOp::Broadcast || op == NcclOp::Reduce;
    double b = 0;
    switch (a) {
    case NcclAlgo::Ring:
        b = chain ? std::min(net, nvlink) : std::min(net, nvlinkRing);
        if (p == NcclProto::LL) return std::min(b * kLlEfficiency, llMaxGBs(g));
        if (p == NcclProto::LL128)
            return std::min(b * kLl128Efficiency, g.channels * ringLl128PerChannelGBs(g));
        return b;
    case NcclAlgo::Tree:
        if (!reduces(op)) return 0;
        b = std::min(std::min(net, nvlinkRing) * kTreeEfficiency,
                     g.channels * treePerChannelGBs(g, NcclProto::Simple));
        if (p == NcclProto::LL) return std::min(b / kTreeLlDivisor, treeLlMaxGBs(g));
        if (p == NcclProto::LL128)
            return std::min(b * kTreeLl128Efficiency, g.channels * treePerChannelGBs(g, p));
        return b;
    case NcclAlgo::NvlsTree:
        if (!reduces(op) || nvls <= 0 || g.perNode < 2 || p != NcclProto::Simple) return 0;
        // Two nodes exchange their reduced halves directly: twice the network's share.
        return std::min(nvls, net * (g.nodes <= 2 ? 2 : 1));
    case NcclAlgo::CollNet:
        if (!reduces(op) || !g.sharp || p != NcclProto::Simple) return 0;
        // Each node's data crosses the network once up and once down, reduced in the switches.
        b = std::min(2 * net, nvls > 0 ? nvls : nvlinkRing);
        return g.family == "ampere" ? b : b * kCollNetHopperEfficiency;
    case NcclAlgo::Pat:
        if ((op != NcclOp::AllGather && op != NcclOp::ReduceScatter) || g.perNode != 1 ||
            p != NcclProto::Simple)
            return 0;
        return std::min(net, nvlinkRing) * kPatEfficiency;
    case NcclAlgo::Nvls:
        return 0; // inside one node only
    }
    return 0;
}

double alphaUs(NcclOp op, const NcclGroup& g, NcclAlgo a, NcclProto p) {
    const int k = protoIndex(p);
    const int n = g.ranks, nodes = g.nodes;
    const double log2Nodes = std::log2(double(std::max(1, nodes)));
    // Rings (and PAT) step by step; trees, NVLS trees and CollNet up and down a hierarchy.
    const LatencyScale& scale = a == NcclAlgo::Ring || a == NcclAlgo::Pat ? kRingScale : kTreeScale;
    auto intra = [&](const AlgoLatency& l) { return l.nvlink[k] * scale.nvlink[k]; };
    auto inter = [&](const AlgoLatency& l) { return l.net[k] * scale.net[k]; };
    switch (a) {
    case NcclAlgo::Ring: {
        const bool twice = op == NcclOp::AllReduce;
        const int steps = twice ? 2 * (n - 1) : n - 1;
        const int interSteps = nodes > 1 ? (twice ? 2 : 1) * (nodes - 1) : 0;
        const double overhead =
            nodes > 1 ? kNetOverheadUs * (p == NcclProto::Simple ? 3 : 1) * scale.nvlink[k] : 0.0;
        return kRing.base[k] + (steps - interSteps) * std::max(intra(kRing), overhead) +
               interSteps * inter(kRing);
    }
    case NcclAlgo::Tree:
        return kTree.base[k] + 2 * ((g.perNode - 1) * intra(kTree) + log2Nodes * inter(kTree));
    case NcclAlgo::NvlsTree:
        return intra(kNvlsTree) + 2 * log2Nodes * inter(kNvlsTree);
    case NcclAlgo::CollNet:
        return 2 * (std::min(1, g.perNode - 1) * intra(kCollNet) + (g.perNode - 1) * 0.4) +
               inter(kCollNet);
    case NcclAlgo::Pat:
        return kPat.base[k] + log2Nodes * inter(kPat) / 3.5 + n * 2.8;
    case NcclAlgo::Nvls:
        return 0;
    }
    return 0;
}

} // namespace

const char* toString(NcclAlgo a) {
    switch (a) {
    case NcclAlgo::Ring:
        return "ring";
    case NcclAlgo::Tree:
        return "tree";
    case NcclAlgo::Nvls:
        return "nvls";
    case NcclAlgo::NvlsTree:
        return "nvls_tree";
    case NcclAlgo::CollNet:
        return "collnet";
    case NcclAlgo::Pat:
        return "pat";
    }
    return "?";
}

const char* toString(NcclProto p) {
    switch (p) {
    case NcclProto::LL:
        return "LL";
    case NcclProto::LL128:
        return "LL128";
    case NcclProto::Simple:
        return "Simple";
    }
    return "?";
}

double ncclBusFactor(NcclOp op, int ranks) {
    const double n = std::max(1, ranks);
    switch (op) {
    case NcclOp::AllReduce:
        return 2 * (n - 1) / n;
    case NcclOp::AllGather:
    case NcclOp::ReduceScatter:
    case NcclOp::AllToAll:
        return (n - 1) / n;
    case NcclOp::Broadcast:
    case NcclOp::Reduce:
    case NcclOp::SendRecv:
        return 1;
    }
    return 1;
}

std::vector<NcclChoice> ncclCandidates(NcclOp op, const NcclGroup& g, double bytes,
                                       NcclAlgoFilter filter) {
    std::vector<NcclChoice> out;
    if (g.ranks < 2) return out;
    const double factor = ncclBusFactor(op, g.ranks);
    if (g.nodes <= 1) {
        // One host: the measured nccl-tests curve of NVLink (NVLS for an all-reduce where
        // NVSwitch reduces), its latencies included.
        const bool nvls = reduces(op) && g.nvlsBusBps > 0;
        const NcclAlgo a =
            nvls && (filter.any || filter.only == NcclAlgo::Nvls) ? NcclAlgo::Nvls : NcclAlgo::Ring;
        if (!filter.any && filter.only != a) return out;
        const double peak = a == NcclAlgo::Nvls ? g.nvlsBusBps : g.nvlinkBps;
        const double bus = peak * ncclSizeFraction(g.family, bytes);
        out.push_back({a, NcclProto::Simple, bus > 0 ? bytes * factor / bus : 0});
        return out;
    }
    for (NcclAlgo a :
         {NcclAlgo::Ring, NcclAlgo::Tree, NcclAlgo::NvlsTree, NcclAlgo::CollNet, NcclAlgo::Pat}) {
        if (!filter.any && filter.only != a &&
            !(filter.only == NcclAlgo::Nvls && a == NcclAlgo::NvlsTree))
            continue;
        for (NcclProto p : {NcclProto::LL, NcclProto::LL128, NcclProto::Simple}) {
            const double bus = busGBs(op, g, a, p) * 1e9;
            if (!(bus > 0)) continue;
            out.push_back({a, p, alphaUs(op, g, a, p) * 1e-6 + bytes * factor / bus});
        }
    }
    return out;
}

NcclChoice ncclFastest(NcclOp op, const NcclGroup& g, double bytes, NcclAlgoFilter filter) {
    const std::vector<NcclChoice> all = ncclCandidates(op, g, bytes, filter);
    NcclChoice best{NcclAlgo::Ring, NcclProto::Simple, std::numeric_limits<double>::infinity()};
    for (const NcclChoice& c : all)
        if (c.seconds < best.seconds) best = c;
    return best;
}

} // namespace cs
