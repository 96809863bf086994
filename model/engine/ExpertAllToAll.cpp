#include "ExpertAllToAll.h"

#include "KernelModel.h"
#include "NcclConstants.h"

#include <algorithm>
#include <unordered_map>

namespace cs {
namespace {

// Of a token's copies for other hosts, the fraction DeepEP sends across the fabric: one per
// host reached, `hosts` of them holding the experts evenly (or, with `hosts` the GPUs of a
// group, of its copies the fraction sent over NVLink: one per GPU reached).
double copiesPerHostFraction(int hosts, int experts, int activeExperts, int nodeLimit, int groups,
                             int groupLimit) {
    if (hosts < 2 || experts < 1 || activeExperts < 1) return 1;
    // Without a limit: a host is missed when every copy goes elsewhere (drawn without
    // replacement from the experts); with one, the top hosts are nearly always all used.
    const double perHost = double(experts) / hosts;
    double missed = 1;
    for (int i = 0; i < std::min(activeExperts, experts); ++i)
        missed *= std::max(0.0, (experts - perHost - i) / (experts - i));
    double reached = hosts * (1 - missed);
    if (nodeLimit > 0) reached = std::min(reached, double(nodeLimit));
    // Group-limited routing: hosts that hold whole groups are reached at most `groupLimit`
    // times; groups that span hosts, that many times the hosts a group spans.
    if (groups > 0 && groupLimit > 0)
        reached = std::min(reached, groupLimit * std::max(1.0, double(hosts) / groups));
    // The token's own host is as likely among them as any: of the copies and of the hosts
    // reached, the same share is remote.
    return std::min(1.0, reached / activeExperts);
}

} // namespace

double expertBytesPerPeer(const ModelSpec& m, const ParallelConfig& c, double tokensPerMicro) {
    return expertTokensPerRank(m, c, tokensPerMicro) * m.modelDim * 2 / c.ep;
}

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
    // The hosts (NVLink domains) each group spans, and per stage the most.
    std::vector<int> groupHosts(in.groups.size(), 1), stageHosts(size_t(in.stages), 1);
    for (size_t k = 0; k < in.groups.size(); ++k) {
        std::vector<int32_t> domains;
        for (int32_t gpu : in.groups[k]) {
            const int32_t host = t.gpus[size_t(gpu)].host;
            const int32_t d = host == kNone ? -2 - gpu : t.nvlinkDomainOf(host);
            if (std::find(domains.begin(), domains.end(), d) == domains.end()) domains.push_back(d);
        }
        groupHosts[k] = int(domains.size());
        int& most = stageHosts[size_t(in.stageOfGroup[k])];
        most = std::max(most, groupHosts[k]);
        out.hosts = std::max(out.hosts, groupHosts[k]);
    }
    // Per stage, of the bytes for other hosts, what crosses the fabric (DeepEP: one copy per
    // host reached).
    std::vector<double> fabricByteFraction(stageHosts.size(), 1.0);
    if (in.dispatcher == EpDispatcher::DeepEp)
        for (size_t st = 0; st < stageHosts.size(); ++st)
            fabricByteFraction[st] =
                copiesPerHostFraction(stageHosts[st], in.experts, in.activeExperts, in.nodeLimit,
                                      in.routerGroups, in.groupLimit);
    // NVLink: a GPU's copies to its host peers share its link; with DeepEP the copies for
    // other hosts arrive there once per host and are forwarded over NVLink to their GPUs
    // (about as many as a GPU sends across hosts), and a token crosses NVLink once per GPU
    // it reaches, not once per expert there (DeepEP's intranode kernels).
    const double nvlinkBps = nvlinkBytesPerS(g);
    const double nvlinkCopyFraction =
        in.dispatcher == EpDispatcher::DeepEp
            ? copiesPerHostFraction(out.peers + 1, in.experts, in.activeExperts, 0, in.routerGroups,
                                    in.groupLimit)
            : 1.0;
    // Not where rounding alone leaves a fraction under 1.
    const bool forwarding = std::any_of(fabricByteFraction.begin(), fabricByteFraction.end(),
                                        [](double f) { return f < 1 - 1e-9; });
    double mostCopies = 0;
    for (const auto& [gpu, n] : inHostPeers)
        mostCopies = std::max(mostCopies, double(n));
    if (forwarding)
        for (const auto& [gpu, n] : fabricPeers)
            mostCopies =
                std::max(mostCopies, n + double(inHostPeers.count(gpu) ? inHostPeers.at(gpu) : 0));
    out.nvlinkS = mostCopies * in.bytesPerPeer * nvlinkCopyFraction / nvlinkBps;
    // NCCL's all-to-all in a group across three or more hosts: a GPU's copies leave its NIC at
    // most at 37 of its 50 GB/s (nccl #1316; fewer channels per peer since NCCL 2.19), however
    // idle the fabric; DeepEP's kernels at most at 43-47 (its README). A GPU's NIC: its host's
    // backend NICs over its GPUs.
    std::vector<double> nicFloorS(size_t(in.stages), 0);
    const bool deepEp = in.dispatcher == EpDispatcher::DeepEp;
    const int floorHosts = deepEp ? 2 : 3;
    const double nicGoodput =
        deepEp ? nccl::kDeepEpRdmaGoodput : nccl::kNcclAllToAllManyHostsGoodput;
    {
        std::unordered_map<int32_t, double> hostNicBps;
        for (const Nic& n : t.nics)
            if (n.role == NicRole::Backend && n.host != kNone)
                hostNicBps[n.host] += double(n.gbps) * 1e9 / 8;
        for (size_t k = 0; k < in.groups.size(); ++k) {
            if (groupHosts[k] < floorHosts) continue;
            for (int32_t gpu : in.groups[k]) {
                const int32_t host = t.gpus[size_t(gpu)].host;
                const auto nic = hostNicBps.find(host);
                const auto peers = fabricPeers.find(gpu);
                if (nic == hostNicBps.end() || peers == fabricPeers.end()) continue;
                const double gpuNicBps =
                    nic->second / std::max<int>(1, t.hosts[size_t(host)].gpuCount);
                double& floorS = nicFloorS[size_t(in.stageOfGroup[k])];
                const double crossing = peers->second * in.bytesPerPeer *
                                        fabricByteFraction[size_t(in.stageOfGroup[k])];
                floorS = std::max(floorS, crossing / (gpuNicBps * nicGoodput));
            }
        }
    }
    // The fabric, stage by stage: stages run their MoE layers at different moments (and one
    // solve over every stage would hold every pair's flows at once). One flow per pair: an
    // all-to-all's many pairs spread over the ECMP paths by themselves.
    out.linkBytesByStage.assign(size_t(in.stages), std::vector<float>(2 * t.links.size(), 0.f));
    for (size_t st = 0; st < crossing.size(); ++st) {
        if (crossing[st].empty()) continue;
        std::vector<std::vector<float>> bytes(1);
        bytes.front().swap(out.linkBytesByStage[st]);
        const std::vector<int32_t> oneClass(crossing[st].size(), 0);
        const PhaseResult phase =
            timer.transfer(crossing[st], in.bytesPerPeer * fabricByteFraction[st], nullptr,
                           {&oneClass, &bytes}, 1);
        bytes.front().swap(out.linkBytesByStage[st]);
        out.fabricS = std::max({out.fabricS, phase.seconds, nicFloorS[st]});
        crossing[st] = {}; // free the stage's pairs before the next
    }
    const double latencyS =
        out.crossesFabric ? nccl::kFabricStepLatencyS : nccl::kNvlinkStepLatencyS;
    out.seconds = out.peers > 0 ? std::max(out.nvlinkS, out.fabricS) + latencyS : 0;
    return out;
}

} // namespace cs
