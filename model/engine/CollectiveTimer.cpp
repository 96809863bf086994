#include "CollectiveTimer.h"

#include "KernelModel.h"
#include "TrainingEfficiency.h"

#include <algorithm>
#include <limits>

namespace cs {

CollectiveTimer::CollectiveTimer(const Topology& t, FabricRouter& router, const GpuSpec& gpu,
                                 int flowsPerPair)
    : t_(t), router_(router),
      nvlinkBps_(gpu.nvlinkGBpsPerDirection * 1e9 * kernelConstants(gpu).nvlinkGoodput),
      flowsPerPair_(std::max(1, flowsPerPair)),
      capacity_(router.capacities(efficiency::kFabricGoodput)) {}

PhaseResult CollectiveTimer::transfer(const std::vector<Edge>& edges, double bytesPerEdge,
                                      std::vector<double>* linkBytes, LinkBytesByClass byClass,
                                      int flowsPerEdge) {
    const int flows = flowsPerEdge > 0 ? flowsPerEdge : flowsPerPair_;
    PhaseResult out;
    out.edgeRateBps.assign(edges.size(), nvlinkBps_);
    FlowPaths paths;
    std::vector<int32_t> flowEdge;
    std::vector<int32_t> route;
    for (size_t e = 0; e < edges.size(); ++e) {
        if (t_.sameNvlinkDomain(edges[e].src, edges[e].dst)) continue;
        for (int q = 0; q < flows; ++q) {
            route.clear();
            const uint64_t hash =
                (uint64_t(uint32_t(edges[e].src)) << 32 | uint32_t(edges[e].dst)) * 31 +
                uint64_t(q);
            if (!router_.route(edges[e].src, edges[e].dst, hash, route) || route.empty()) continue;
            paths.add(route);
            flowEdge.push_back(int32_t(e));
        }
    }
    const std::vector<double> rate = maxMinFairRates(capacity_, paths);
    std::vector<double> fabricRate(edges.size(), 0.0);
    for (size_t f = 0; f < rate.size(); ++f)
        fabricRate[size_t(flowEdge[f])] += rate[f];
    for (size_t e = 0; e < edges.size(); ++e)
        if (fabricRate[e] > 0) out.edgeRateBps[e] = fabricRate[e];
    for (size_t e = 0; e < edges.size(); ++e)
        out.seconds = std::max(out.seconds, bytesPerEdge / out.edgeRateBps[e]);
    if (linkBytes || byClass.bytes)
        for (size_t f = 0; f < rate.size(); ++f) {
            const double share = bytesPerEdge * rate[f] / fabricRate[size_t(flowEdge[f])];
            std::vector<float>* cls =
                byClass.bytes ? &(*byClass.bytes)[size_t((*byClass.edgeClass)[size_t(flowEdge[f])])]
                              : nullptr;
            for (int32_t r : paths.of(f)) {
                if (linkBytes) (*linkBytes)[size_t(r)] += share; // per direction
                if (cls) (*cls)[size_t(r)] += float(share);
            }
        }
    return out;
}

double CollectiveTimer::ring(const std::vector<std::vector<int32_t>>& groups, double shardBytes,
                             std::vector<double>* linkBytes, double repeat) {
    return rings(groups, {shardBytes * repeat}, linkBytes).front();
}

std::vector<double> CollectiveTimer::rings(const std::vector<std::vector<int32_t>>& groups,
                                           const std::vector<double>& shardBytes,
                                           std::vector<double>* linkBytes,
                                           const std::vector<int32_t>* groupClass,
                                           std::vector<std::vector<float>>* bytesByClass) {
    std::vector<double> times(shardBytes.size(), 0.0);
    std::vector<Edge> edges;
    std::vector<int32_t> groupOfEdge, classOfEdge;
    for (size_t g = 0; g < groups.size(); ++g) {
        const auto& ring = groups[g];
        if (ring.size() < 2) continue;
        for (size_t i = 0; i < ring.size(); ++i) {
            edges.push_back({ring[i], ring[(i + 1) % ring.size()]});
            groupOfEdge.push_back(int32_t(g));
            if (groupClass) classOfEdge.push_back((*groupClass)[g]);
        }
    }
    if (edges.empty()) return times;
    const double steps = double(groups.front().size() - 1);
    double volume = 0;
    for (double b : shardBytes)
        volume += b * steps;
    const PhaseResult phase =
        transfer(edges, volume, linkBytes,
                 {groupClass ? &classOfEdge : nullptr, groupClass ? bytesByClass : nullptr});
    // Each step waits for the slowest edge of its ring, plus the per-step latency.
    std::vector<double> slowestRate(groups.size(), std::numeric_limits<double>::infinity());
    std::vector<uint8_t> crossesFabric(groups.size(), 0);
    for (size_t e = 0; e < edges.size(); ++e) {
        const auto g = size_t(groupOfEdge[e]);
        slowestRate[g] = std::min(slowestRate[g], phase.edgeRateBps[e]);
        crossesFabric[g] |= !t_.sameNvlinkDomain(edges[e].src, edges[e].dst);
    }
    for (size_t k = 0; k < shardBytes.size(); ++k)
        for (size_t g = 0; g < groups.size(); ++g) {
            if (groups[g].size() < 2) continue;
            const double latency = crossesFabric[g] ? efficiency::kFabricStepLatencyS
                                                    : efficiency::kNvlinkStepLatencyS;
            times[k] = std::max(times[k], steps * (shardBytes[k] / slowestRate[g] + latency));
        }
    return times;
}

} // namespace cs
