#include "StorageTraffic.h"

#include "MaxMinFairShare.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>

namespace cs {
namespace {

// Nodes of the frontend graph: NICs, switches and storage servers (not GPUs or hosts).
struct Graph {
    const Topology& t;
    const TopologyIndex& ix;
    size_t nics, switches;
    int32_t id(Endpoint e) const {
        switch (e.kind) {
        case EntityKind::Nic:
            return e.index;
        case EntityKind::Switch:
            return int32_t(nics) + e.index;
        case EntityKind::Storage:
            return int32_t(nics + switches) + e.index;
        default:
            return -1;
        }
    }
    size_t size() const { return nics + switches + t.storage.size(); }
    Endpoint endpoint(int32_t id) const {
        if (size_t(id) < nics) return {EntityKind::Nic, id};
        if (size_t(id) < nics + switches) return {EntityKind::Switch, int32_t(size_t(id) - nics)};
        return {EntityKind::Storage, int32_t(size_t(id) - nics - switches)};
    }
    // Links that carry frontend traffic: cables, not NVLink or PCIe.
    bool usable(int32_t l) const {
        const LinkMedium m = t.links[size_t(l)].medium;
        return m == LinkMedium::CopperDac || m == LinkMedium::Fibre;
    }
};

// Hop counts to `target` over the frontend graph (-1: no path).
std::vector<int16_t> distancesTo(const Graph& g, int32_t target) {
    std::vector<int16_t> d(g.size(), -1);
    std::deque<int32_t> queue{target};
    d[size_t(target)] = 0;
    while (!queue.empty()) {
        const int32_t n = queue.front();
        queue.pop_front();
        for (int32_t l : g.ix.linksOf(g.endpoint(n))) {
            if (!g.usable(l)) continue;
            const Link& k = g.t.links[size_t(l)];
            const int32_t other = g.id(k.a == g.endpoint(n) ? k.b : k.a);
            if (other < 0 || d[size_t(other)] >= 0 || d[size_t(n)] == INT16_MAX) continue;
            d[size_t(other)] = int16_t(d[size_t(n)] + 1);
            queue.push_back(other);
        }
    }
    return d;
}

constexpr int kMaxRounds = 64; // then the hosts left finish at the rates of that round

// Seconds until every host has written shardBytes over its flows, and the host written last.
// Round by round: max-min fair rates of the unfinished hosts' flows (the storage system one
// more resource they all share), run until the next host finishes (hosts within 0.1 % of it
// finish with it); its flows leave and the rates are solved again.
std::pair<double, int> writeSeconds(const std::vector<double>& capacity, const FlowPaths& paths,
                                    const std::vector<int32_t>& hostOfFlow, size_t hosts,
                                    double shardBytes) {
    std::vector<double> left(hosts, -1);
    for (int32_t h : hostOfFlow)
        left[size_t(h)] = shardBytes;
    double elapsedS = 0;
    int last = -1;
    for (int round = 0;; ++round) {
        FlowPaths active;
        std::vector<int32_t> hostOfActive;
        for (size_t f = 0; f < paths.flows(); ++f)
            if (left[size_t(hostOfFlow[f])] > 0) {
                active.add(paths.of(f));
                hostOfActive.push_back(hostOfFlow[f]);
            }
        if (active.flows() == 0) break;
        const std::vector<double> rate = maxMinFairRates(capacity, active);
        std::vector<double> hostBps(hosts, 0.0);
        for (size_t f = 0; f < rate.size(); ++f)
            hostBps[size_t(hostOfActive[f])] += rate[f];
        double nextS = std::numeric_limits<double>::infinity();
        for (size_t h = 0; h < hosts; ++h)
            if (left[h] > 0 && hostBps[h] > 0) nextS = std::min(nextS, left[h] / hostBps[h]);
        if (!std::isfinite(nextS)) break; // no rate at all: nothing more can be written
        if (round == kMaxRounds) {        // the rest at these rates
            for (size_t h = 0; h < hosts; ++h)
                if (left[h] > 0 && hostBps[h] > 0 && left[h] / hostBps[h] >= nextS)
                    nextS = left[h] / hostBps[h], last = int(h);
            return {elapsedS + nextS, last};
        }
        elapsedS += nextS;
        for (size_t h = 0; h < hosts; ++h) {
            if (!(left[h] > 0)) continue;
            left[h] -= hostBps[h] * nextS;
            if (left[h] <= 1e-3 * hostBps[h] * nextS + 1e-9 * shardBytes)
                left[h] = 0, last = int(h);
        }
    }
    return {elapsedS, last};
}

} // namespace

StorageFlows checkpointFlows(const TopologyDocument& doc, const std::vector<int32_t>& jobHosts,
                             double sustainedBytesPerS, double goodputFraction, double shardBytes,
                             StorageRouteCache* cache) {
    const Topology& t = doc.topology();
    StorageFlows out;
    out.serverBps.assign(t.storage.size(), 0.f);
    std::vector<int32_t> servers;
    for (size_t s = 0; s < t.storage.size(); ++s)
        if (t.storage[s].kind == StorageKind::Tectonic) servers.push_back(int32_t(s));
    if (servers.empty() || jobHosts.empty()) return out;
    const Graph g{t, doc.index(), t.nics.size(), t.switches.size()};
    // The storage system's sustained write rate: a resource every flow crosses, after the
    // link directions.
    const auto storageSystem = int32_t(2 * t.links.size());
    FlowPaths paths;
    std::vector<int32_t> serverOfFlow, hostOfFlow;
    std::vector<uint8_t> routed(jobHosts.size(), 0);
    // Each host stripes its shard over several servers, so that every server takes a part.
    const size_t stripes =
        std::clamp<size_t>((servers.size() + jobHosts.size() - 1) / jobHosts.size(), 1, 16);
    // Each flow's host NIC, server, the server's link to its ToR and that ToR.
    struct Planned {
        int32_t nic = -1, server = -1, access = -1, tor = -1;
    };
    std::vector<Planned> plan(jobHosts.size() * stripes);
    for (size_t flow = 0; flow < plan.size(); ++flow) {
        const size_t i = flow / stripes;
        const auto nic = doc.index().find(t.hosts[size_t(jobHosts[i])].name + ".fe0");
        if (!nic) continue;
        Planned& p = plan[flow];
        p.server = servers[(flow * 2654435761u) % servers.size()];
        for (int32_t l : doc.index().linksOf({EntityKind::Storage, p.server}))
            if (g.usable(l)) p.access = l;
        if (p.access < 0) continue;
        const Link& a = t.links[size_t(p.access)];
        p.tor = g.id(a.a.kind == EntityKind::Storage ? a.b : a.a);
        p.nic = g.id(*nic);
    }
    // Routed one ToR at a time: its distances (over every NIC and switch) are needed only
    // while its flows are routed, and hundreds of ToRs' at once would cost more than the rest.
    std::vector<size_t> byTor;
    for (size_t flow = 0; flow < plan.size(); ++flow)
        if (plan[flow].tor >= 0) byTor.push_back(flow);
    std::stable_sort(byTor.begin(), byTor.end(),
                     [&](size_t x, size_t y) { return plan[x].tor < plan[y].tor; });
    std::vector<std::vector<int32_t>> pathOf(plan.size());
    std::vector<int16_t> own;
    const std::vector<int16_t>* dist = &own;
    for (size_t n = 0; n < byTor.size(); ++n) {
        const size_t flow = byTor[n];
        const Planned& p = plan[flow];
        if (n == 0 || plan[byTor[n - 1]].tor != p.tor) {
            if (cache) {
                auto& kept = cache->hopsTo[p.tor];
                if (kept.empty()) kept = distancesTo(g, p.tor);
                dist = &kept;
            } else {
                own = distancesTo(g, p.tor);
            }
        }
        const std::vector<int16_t>& d = *dist;
        int32_t at = p.nic;
        if (d[size_t(at)] < 0) continue; // no frontend path
        std::vector<int32_t>& path = pathOf[flow];
        uint64_t hash = uint64_t(flow + 1) * 0x9E3779B97F4A7C15ULL;
        while (d[size_t(at)] > 0) {
            // ECMP: one of the links one hop closer, by the flow's hash.
            std::vector<std::pair<int32_t, int32_t>> next; // link, node
            const Endpoint here = g.endpoint(at);
            for (int32_t l : g.ix.linksOf(here)) {
                if (!g.usable(l)) continue;
                const Link& k = t.links[size_t(l)];
                const int32_t other = g.id(k.a == here ? k.b : k.a);
                if (other >= 0 && d[size_t(other)] == d[size_t(at)] - 1)
                    next.emplace_back(l, other);
            }
            if (next.empty()) break;
            hash = hash * 6364136223846793005ULL + 1442695040888963407ULL;
            const auto [l, other] = next[(hash >> 33) % next.size()];
            path.push_back(2 * l + (t.links[size_t(l)].a == here ? 0 : 1)); // the direction taken
            at = other;
        }
        if (d[size_t(at)] != 0) {
            path.clear();
            continue;
        }
        const Link& a = t.links[size_t(p.access)];
        path.push_back(2 * p.access + (g.id(a.a) == p.tor ? 0 : 1)); // ToR to server
        path.push_back(storageSystem);
    }
    for (size_t flow = 0; flow < plan.size(); ++flow) { // in flow order, as before
        if (pathOf[flow].empty()) continue;
        paths.add(pathOf[flow]);
        serverOfFlow.push_back(plan[flow].server);
        hostOfFlow.push_back(int32_t(flow / stripes));
        routed[flow / stripes] = 1;
    }
    out.hostsWithoutPath = int(std::count(routed.begin(), routed.end(), 0));
    if (paths.flows() == 0) return out;
    std::vector<double> capacity(2 * t.links.size() + 1);
    for (size_t l = 0; l < t.links.size(); ++l)
        capacity[2 * l] = capacity[2 * l + 1] = t.links[l].gbps * 1e9 / 8 * goodputFraction;
    capacity[size_t(storageSystem)] = sustainedBytesPerS;
    const std::vector<double> rate = maxMinFairRates(capacity, paths);
    std::vector<double> perDirection(2 * t.links.size(), 0.0);
    for (size_t f = 0; f < rate.size(); ++f) {
        for (int32_t r : paths.of(f))
            if (r != storageSystem) perDirection[size_t(r)] += rate[f];
        out.serverBps[size_t(serverOfFlow[f])] += float(rate[f]);
        out.totalBps += rate[f];
    }
    for (size_t r = 0; r < perDirection.size(); ++r)
        if (perDirection[r] > 0) out.links.rates.emplace_back(uint32_t(r), float(perDirection[r]));
    const auto [writeS, last] =
        writeSeconds(capacity, paths, hostOfFlow, jobHosts.size(), shardBytes);
    out.writeS = writeS;
    out.slowestHost = last >= 0 ? jobHosts[size_t(last)] : -1;
    return out;
}

} // namespace cs
