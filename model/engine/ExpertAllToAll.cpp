#include "ExpertAllToAll.h"

#include "KernelModel.h"
#include "NcclConstants.h"

#include <algorithm>
#include <unordered_map>

namespace cs {
namespace {

// Of a token's copies, the fraction DeepEP sends when it sends one per member it reaches,
// `members` of them holding the experts evenly: hosts across the fabric, GPUs over NVLink.
// `memberLimit`: the most members a token may reach (0: no limit).
double copiesPerMemberFraction(int members, const MoeSpec& r, int memberLimit) {
    const int experts = r.experts, active = r.activeExperts;
    if (members < 2 || experts < 1 || active < 1) return 1;
    // Without a limit: a member is missed when every copy goes elsewhere (drawn without
    // replacement from the experts); with one, the top members are nearly always all used.
    const double perMember = double(experts) / members;
    double missed = 1;
    for (int i = 0; i < std::min(active, experts); ++i)
        missed *= std::max(0.0, (experts - perMember - i) / (experts - i));
    double reached = members * (1 - missed);
    if (memberLimit > 0) reached = std::min(reached, double(memberLimit));
    // Group-limited routing: members that hold whole groups are reached at most `groupLimit`
    // times; groups that span members, that many times the members a group spans.
    if (r.groups > 0 && r.groupLimit > 0)
        reached = std::min(reached, r.groupLimit * std::max(1.0, double(members) / r.groups));
    // The token's own member is as likely among them as any: of the copies and of the members
    // reached, the same share is remote.
    return std::min(1.0, reached / active);
}

} // namespace

AllToAllInput expertAllToAllInput(const ModelSpec& m, const ParallelConfig& c,
                                  double tokensPerMicro) {
    AllToAllInput in;
    in.bytesPerPeer = expertTokensPerRank(m, c, tokensPerMicro) * m.modelDim * 2 / c.ep;
    in.dispatcher = c.epDispatcher;
    in.routing = m.moe;
    return in;
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
    if (sendsOncePerGpu(in.dispatcher))
        for (size_t st = 0; st < stageHosts.size(); ++st)
            fabricByteFraction[st] =
                copiesPerMemberFraction(stageHosts[st], in.routing, in.routing.nodeLimit);
    // NVLink: a GPU's copies to its host peers share its link; with DeepEP the copies for
    // other hosts arrive there once per host and are forwarded over NVLink to their GPUs
    // (about as many as a GPU sends across hosts), and a token crosses NVLink once per GPU
    // it reaches, not once per expert there (DeepEP's intranode kernels).
    const double nvlinkBps = nvlinkBytesPerS(g);
    const double nvlinkCopyFraction = sendsOncePerGpu(in.dispatcher)
                                          ? copiesPerMemberFraction(out.peers + 1, in.routing, 0)
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
    const bool oncePerGpu = sendsOncePerGpu(in.dispatcher); // HybridEP at DeepEP's rate
    const int floorHosts = oncePerGpu ? 2 : 3;
    const double nicGoodput =
        oncePerGpu ? nccl::kDeepEpRdmaGoodput : nccl::kNcclAllToAllManyHostsGoodput;
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
