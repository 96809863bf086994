#include "CollectiveTimer.h"

#include "NcclConstants.h"

#include <algorithm>
#include <limits>

namespace cs {

CollectiveTimer::CollectiveTimer(const Topology& t, FabricRouter& router, double nvlinkBps,
                                 int flowsPerPair)
    : t_(t), router_(router), transports_(t), nvlinkBps_(nvlinkBps), flowsPerPair_(flowsPerPair),
      capacity_(router.capacities(transports_)) {}

PhaseResult CollectiveTimer::transfer(const std::vector<Edge>& edges, double bytesPerEdge,
                                      std::vector<double>* linkBytes, LinkBytesByClass byClass,
                                      int flowsPerEdge) {
    PhaseResult out;
    out.edgeRateBps.assign(edges.size(), nvlinkBps_);
    // Each edge crossing the fabric is one transfer over the link directions it loads.
    TransferLoads loads;
    std::vector<int32_t> transferEdge;
    std::vector<std::pair<int32_t, double>> spread;
    EdgeRouter routes(router_, transports_, capacity_,
                      flowsPerEdge > 0 ? flowsPerEdge : flowsPerPair_);
    for (size_t e = 0; e < edges.size(); ++e) {
        if (t_.sameNvlinkDomain(edges[e].src, edges[e].dst)) continue;
        if (!routes.route(edges[e], spread) || spread.empty()) continue;
        loads.add(spread, std::numeric_limits<double>::infinity());
        transferEdge.push_back(int32_t(e));
    }
    if (!transferEdge.empty()) {
        loads.index(capacity_.size());
        const std::vector<double> rate = maxMinFairTransferRates(capacity_, loads, {}, scratch_);
        for (size_t k = 0; k < rate.size(); ++k)
            out.edgeRateBps[size_t(transferEdge[k])] = rate[k];
        if (linkBytes || byClass.bytes)
            for (size_t k = 0; k < rate.size(); ++k) {
                const auto e = size_t(transferEdge[k]);
                std::vector<float>* cls =
                    byClass.bytes ? &(*byClass.bytes)[size_t((*byClass.edgeClass)[e])] : nullptr;
                for (auto i = size_t(loads.offsets[k]); i < size_t(loads.offsets[k + 1]); ++i) {
                    const double share = bytesPerEdge * loads.coefficients[i];
                    const auto r = size_t(loads.resources[i]);
                    if (linkBytes) (*linkBytes)[r] += share; // per direction
                    if (cls) (*cls)[r] += float(share);
                }
            }
    }
    for (size_t e = 0; e < edges.size(); ++e)
        out.seconds = std::max(out.seconds, bytesPerEdge / out.edgeRateBps[e]);
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
            const double latency =
                crossesFabric[g] ? nccl::kFabricStepLatencyS : nccl::kNvlinkStepLatencyS;
            times[k] = std::max(times[k], steps * (shardBytes[k] / slowestRate[g] + latency));
        }
    return times;
}

} // namespace cs
