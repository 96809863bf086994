#include "ExpertAllToAll.h"

#include "KernelModel.h"
#include "TrainingEfficiency.h"

#include <algorithm>
#include <unordered_map>

namespace cs {

AllToAllResult timeAllToAll(const Topology& t, CollectiveTimer& timer, const GpuSpec& g,
                            const AllToAllInput& in) {
    AllToAllResult out;
    // Each stage's pairs that cross hosts; GPUs' peers inside their host.
    std::vector<std::vector<Edge>> crossing(size_t(in.stages));
    std::unordered_map<int32_t, int> inHostPeers, fabricPeers;
    for (size_t k = 0; k < in.groups.size(); ++k) {
        const auto& group = in.groups[k];
        out.peers = std::max(out.peers, int(group.size()) - 1);
        for (int32_t a : group)
            for (int32_t b : group) {
                if (a == b) continue;
                if (t.sameNvlinkDomain(a, b))
                    ++inHostPeers[a];
                else
                    crossing[size_t(in.stageOfGroup[k])].push_back({a, b}), ++fabricPeers[a];
            }
    }
    for (const auto& edges : crossing)
        out.crossesFabric |= !edges.empty();
    // NVLink: a GPU's copies to its host peers share its link; with node-limited routing the
    // copies for other hosts arrive there once per node and are forwarded over NVLink to
    // their GPUs (about as many as a GPU sends across hosts).
    const double nvlinkBps = g.nvlinkGBpsPerDirection * 1e9 * kernelConstants(g).nvlinkGoodput;
    const bool forwarding = in.fabricByteFraction < 1;
    double mostCopies = 0;
    for (const auto& [gpu, n] : inHostPeers)
        mostCopies = std::max(mostCopies, double(n));
    if (forwarding)
        for (const auto& [gpu, n] : fabricPeers)
            mostCopies =
                std::max(mostCopies, n + double(inHostPeers.count(gpu) ? inHostPeers.at(gpu) : 0));
    out.nvlinkS = mostCopies * in.bytesPerPeer / nvlinkBps;
    // The fabric, stage by stage: stages run their MoE layers at different moments (and one
    // solve over every stage would hold every pair's flows at once). One flow per pair: an
    // all-to-all's many pairs spread over the ECMP paths by themselves.
    out.linkBytesByStage.assign(size_t(in.stages), std::vector<float>(2 * t.links.size(), 0.f));
    for (size_t st = 0; st < crossing.size(); ++st) {
        if (crossing[st].empty()) continue;
        std::vector<std::vector<float>> bytes(1);
        bytes.front().swap(out.linkBytesByStage[st]);
        const std::vector<int32_t> oneClass(crossing[st].size(), 0);
        const PhaseResult phase = timer.transfer(
            crossing[st], in.bytesPerPeer * in.fabricByteFraction, nullptr, {&oneClass, &bytes}, 1);
        bytes.front().swap(out.linkBytesByStage[st]);
        out.fabricS = std::max(out.fabricS, phase.seconds);
        crossing[st] = {}; // free the stage's pairs before the next
    }
    const double latencyS =
        out.crossesFabric ? efficiency::kFabricStepLatencyS : efficiency::kNvlinkStepLatencyS;
    out.seconds = out.peers > 0 ? std::max(out.nvlinkS, out.fabricS) + latencyS : 0;
    return out;
}

} // namespace cs
