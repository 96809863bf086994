#include "ExpertAllToAll.h"

#include "KernelModel.h"
#include "TrainingEfficiency.h"

#include <algorithm>
#include <unordered_map>

namespace cs {

AllToAllResult timeAllToAll(const Topology& t, CollectiveTimer& timer, const GpuSpec& g,
                            const AllToAllInput& in) {
    AllToAllResult out;
    std::vector<Edge> crossing;
    std::vector<int32_t> stageOfEdge;
    std::unordered_map<int32_t, int> inHostPeers; // per GPU: peers it reaches over NVLink
    for (size_t k = 0; k < in.groups.size(); ++k) {
        const auto& group = in.groups[k];
        out.peers = std::max(out.peers, int(group.size()) - 1);
        for (int32_t a : group)
            for (int32_t b : group) {
                if (a == b) continue;
                if (t.gpus[size_t(a)].host == t.gpus[size_t(b)].host) {
                    ++inHostPeers[a];
                } else {
                    crossing.push_back({a, b});
                    stageOfEdge.push_back(in.stageOfGroup[k]);
                }
            }
    }
    // NVLink: a GPU's copies to its host peers share its link; with node-limited routing the
    // copies that arrived over the fabric are forwarded inside the host too.
    const double nvlinkBps = g.nvlinkGBpsPerDirection * 1e9 * kernelConstants(g).nvlinkGoodput;
    int mostPeers = 0;
    for (const auto& [gpu, n] : inHostPeers)
        mostPeers = std::max(mostPeers, n);
    const double forwarded = crossing.empty() ? 0 : (1 - in.fabricByteFraction);
    out.nvlinkS = mostPeers * in.bytesPerPeer * (1 + forwarded) / nvlinkBps;
    out.linkBytesByStage.assign(size_t(in.stages), std::vector<float>(2 * t.links.size(), 0.f));
    if (!crossing.empty()) {
        out.crossesFabric = true;
        const PhaseResult phase = timer.transfer(crossing, in.bytesPerPeer * in.fabricByteFraction,
                                                 nullptr, {&stageOfEdge, &out.linkBytesByStage});
        out.fabricS = phase.seconds;
    }
    const double latencyS =
        out.crossesFabric ? efficiency::kFabricStepLatencyS : efficiency::kNvlinkStepLatencyS;
    out.seconds = out.peers > 0 ? std::max(out.nvlinkS, out.fabricS) + latencyS : 0;
    return out;
}

} // namespace cs
