#include "TopologyStats.h"

#include "MaxFlow.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace cs {
namespace {

bool isBackendSwitch(const Topology& t, Endpoint e) {
    return e.kind == EntityKind::Switch &&
           networkOf(t.switches[size_t(e.index)].role) == Network::Backend;
}

// Max flow from the first half of a pod's rack switches to the second, through the pod's
// spines and the switches above the pods, each rack switch fed at its NIC capacity.
double podBisection(const Topology& t, const std::vector<int32_t>& leaves,
                    const std::vector<double>& leafDownGbps,
                    const std::vector<const Link*>& fabricLinks) {
    std::unordered_map<int32_t, int> node; // switch -> flow node
    auto nodeOf = [&](int32_t s) { return node.emplace(s, int(node.size()) + 2).first->second; };
    for (int32_t l : leaves)
        nodeOf(l);
    for (const Link* l : fabricLinks) {
        nodeOf(l->a.index);
        nodeOf(l->b.index);
    }
    MaxFlow flow(int(node.size()) + 2);
    const int source = 0, sink = 1;
    const size_t half = leaves.size() / 2;
    for (size_t i = 0; i < leaves.size(); ++i) {
        const double cap = leafDownGbps[size_t(leaves[i])];
        if (i < half)
            flow.addDirected(source, node[leaves[i]], cap);
        else if (i >= leaves.size() - half) // odd count: the middle rack takes no side
            flow.addDirected(node[leaves[i]], sink, cap);
    }
    for (const Link* l : fabricLinks)
        flow.addUndirected(node[l->a.index], node[l->b.index], l->gbps);
    return flow.run(source, sink);
}

} // namespace

TopologyStats computeStats(const Topology& t) {
    TopologyStats s;
    s.clusters = (long long)t.clusters.size();
    s.pods = (long long)t.pods.size();
    s.rows = (long long)t.rows.size();
    for (const Rack& r : t.racks) {
        if (r.role == RackRole::Compute) ++s.racks;
        if (r.role == RackRole::Network) ++s.networkRacks;
        if (r.role == RackRole::Storage) ++s.storageRacks;
    }
    s.hosts = (long long)t.hosts.size();
    s.gpus = (long long)t.gpus.size();
    s.nics = (long long)t.nics.size();
    s.switches = (long long)t.switches.size();
    s.storageServers = (long long)t.storage.size();
    s.links = (long long)t.links.size();
    for (const Switch& w : t.switches)
        ++s.switchesByRole[size_t(w.role)];
    for (const StorageServer& x : t.storage)
        ++(x.kind == StorageKind::Tectonic ? s.tectonicServers : s.hammerspaceServers);

    // Per pod: injection from backend NICs; rack switches with their NIC-facing capacity.
    s.podStats.resize(t.pods.size());
    for (size_t p = 0; p < t.pods.size(); ++p) {
        s.podStats[p].name = t.pods[p].name;
        s.podStats[p].cluster = t.pods[p].cluster;
    }
    for (const Host& h : t.hosts) {
        const int32_t pod = t.podOfRack(h.rack);
        if (pod != kNone) s.podStats[size_t(pod)].gpus += h.gpuCount;
    }
    std::vector<double> leafDownGbps(t.switches.size(), 0.0);
    std::vector<std::vector<const Link*>> podFabric(t.pods.size());
    for (const Link& l : t.links) {
        ++s.linksByMedium[size_t(l.medium)];
        s.gbpsByMedium[size_t(l.medium)] += l.gbps;
        const bool aSw = isBackendSwitch(t, l.a), bSw = isBackendSwitch(t, l.b);
        if (aSw && bSw) {
            const int32_t podA = t.switches[size_t(l.a.index)].pod;
            const int32_t podB = t.switches[size_t(l.b.index)].pod;
            if (podA != kNone)
                podFabric[size_t(podA)].push_back(&l);
            else if (podB != kNone)
                podFabric[size_t(podB)].push_back(&l);
            if ((podA == kNone) != (podB == kNone))
                s.podStats[size_t(std::max(podA, podB))].uplinkGbps += l.gbps;
        } else if (aSw != bSw) {
            const Endpoint other = aSw ? l.b : l.a;
            const Endpoint swEnd = aSw ? l.a : l.b;
            if (other.kind == EntityKind::Nic &&
                t.nics[size_t(other.index)].role == NicRole::Backend)
                leafDownGbps[size_t(swEnd.index)] += l.gbps;
        }
    }
    for (const Nic& n : t.nics)
        if (n.role == NicRole::Backend) {
            s.injectionGbps += n.gbps;
            const int32_t pod = t.podOfHost(n.host);
            if (pod != kNone) s.podStats[size_t(pod)].injectionGbps += n.gbps;
        }

    std::vector<std::vector<int32_t>> podLeaves(t.pods.size());
    for (size_t i = 0; i < t.switches.size(); ++i) {
        const Switch& w = t.switches[i];
        if (w.pod != kNone && networkOf(w.role) == Network::Backend && tierOf(w.role) == 1)
            podLeaves[size_t(w.pod)].push_back(int32_t(i));
    }
    for (size_t p = 0; p < t.pods.size(); ++p) {
        PodStats& ps = s.podStats[p];
        // Undefined (NaN) for a pod with no tier above it: nothing to oversubscribe.
        ps.oversubscription = ps.uplinkGbps > 0 ? ps.injectionGbps / ps.uplinkGbps : std::nan("");
        ps.bisectionGbps = podBisection(t, podLeaves[p], leafDownGbps, podFabric[p]);
        const double halfInjection = ps.injectionGbps / 2;
        ps.fullBisection = halfInjection > 0 && ps.bisectionGbps >= halfInjection * (1 - 1e-9);
        if (!std::isnan(ps.oversubscription))
            s.oversubscription = std::isnan(s.oversubscription)
                                     ? ps.oversubscription
                                     : std::max(s.oversubscription, ps.oversubscription);
    }
    return s;
}

} // namespace cs
