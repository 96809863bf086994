#include "FabricRouter.h"

#include "InputError.h"

#include <algorithm>
#include <queue>

namespace cs {

namespace {
constexpr uint16_t kFar = 0xffff;
uint64_t mix(uint64_t x) { // splitmix64 finaliser: a well-spread hash of the flow and hop
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}
bool backendSwitch(const Topology& t, Endpoint e) {
    return e.kind == EntityKind::Switch &&
           networkOf(t.switches[size_t(e.index)].role) == Network::Backend;
}
} // namespace

FabricRouter::FabricRouter(const Topology& t, const TopologyIndex& ix,
                           std::vector<double> capacityLeft)
    : capacityLeft_(std::move(capacityLeft)), t_(t), nicOfGpu_(t.gpus.size(), kNone),
      nicLink_(t.nics.size(), kNone), leafOfNic_(t.nics.size(), kNone) {
    for (size_t n = 0; n < t.nics.size(); ++n)
        if (t.nics[n].role == NicRole::Backend && t.nics[n].gpu != kNone)
            nicOfGpu_[size_t(t.nics[n].gpu)] = int32_t(n);
    // Each host's backend NICs, in the order of its GPUs: the relays of PXN.
    std::vector<int32_t> count(t.hosts.size() + 1, 0);
    for (size_t g = 0; g < t.gpus.size(); ++g)
        if (nicOfGpu_[g] != kNone && t.gpus[g].host != kNone) ++count[size_t(t.gpus[g].host) + 1];
    for (size_t i = 1; i < count.size(); ++i)
        count[i] += count[i - 1];
    hostNicOffsets_ = count;
    hostNics_.resize(size_t(count.back()));
    for (size_t g = 0; g < t.gpus.size(); ++g)
        if (nicOfGpu_[g] != kNone && t.gpus[g].host != kNone)
            hostNics_[size_t(count[size_t(t.gpus[g].host)]++)] = nicOfGpu_[g];
    std::vector<int32_t> degree(t.switches.size() + 1, 0);
    for (size_t l = 0; l < t.links.size(); ++l) {
        const Link& k = t.links[l];
        if (!(k.gbps > 0)) continue; // failed
        const bool a = backendSwitch(t, k.a), b = backendSwitch(t, k.b);
        if (a && b) {
            ++degree[size_t(k.a.index) + 1];
            ++degree[size_t(k.b.index) + 1];
        } else if (a != b) {
            const Endpoint other = a ? k.b : k.a;
            if (other.kind == EntityKind::Nic &&
                t.nics[size_t(other.index)].role == NicRole::Backend) {
                nicLink_[size_t(other.index)] = int32_t(l);
                leafOfNic_[size_t(other.index)] = (a ? k.a : k.b).index;
            }
        }
    }
    for (size_t i = 1; i < degree.size(); ++i)
        degree[i] += degree[i - 1];
    adjOffsets_ = degree;
    adj_.resize(size_t(degree.back()));
    std::vector<int32_t> fill(degree.begin(), degree.end() - 1);
    for (size_t l = 0; l < t.links.size(); ++l) {
        const Link& k = t.links[l];
        if (!(k.gbps > 0) || !backendSwitch(t, k.a) || !backendSwitch(t, k.b)) continue;
        adj_[size_t(fill[size_t(k.a.index)]++)] = {int32_t(l), k.b.index};
        adj_[size_t(fill[size_t(k.b.index)]++)] = {int32_t(l), k.a.index};
    }
    (void)ix;
    // Groups of switches with the same set of neighbours (parallel links counted once).
    representative_.resize(t.switches.size());
    std::unordered_map<uint64_t, std::vector<int32_t>> byHash;
    std::vector<int32_t> mine, theirs;
    auto neighbours = [&](int32_t s, std::vector<int32_t>& out) {
        out.clear();
        for (int32_t i = adjOffsets_[size_t(s)]; i < adjOffsets_[size_t(s) + 1]; ++i)
            out.push_back(adj_[size_t(i)].next);
        std::sort(out.begin(), out.end());
        out.erase(std::unique(out.begin(), out.end()), out.end());
    };
    for (size_t s = 0; s < t.switches.size(); ++s) {
        neighbours(int32_t(s), mine);
        uint64_t h = 14695981039346656037ULL;
        for (int32_t n : mine)
            h = (h ^ uint64_t(uint32_t(n))) * 1099511628211ULL;
        representative_[s] = int32_t(s);
        std::vector<int32_t>& bucket = byHash[h];
        for (int32_t r : bucket) {
            neighbours(r, theirs);
            // A switch adjacent to itself's group would be its own neighbour: never merged.
            if (theirs == mine && !std::binary_search(mine.begin(), mine.end(), r)) {
                representative_[s] = r;
                break;
            }
        }
        if (representative_[s] == int32_t(s)) bucket.push_back(int32_t(s));
    }
}

int32_t FabricRouter::resource(int32_t link, int32_t from) const {
    const Link& k = t_.links[size_t(link)];
    const bool forward = k.a.kind == EntityKind::Switch ? k.a.index == from : false;
    return 2 * link + (forward ? 0 : 1);
}

FabricRouter::Distances FabricRouter::distancesTo(int32_t leaf) {
    const int32_t r = representative_[size_t(leaf)];
    return Distances(bfsFrom(r), r, leaf);
}

const std::vector<uint16_t>& FabricRouter::bfsFrom(int32_t leaf) {
    auto [it, fresh] = dist_.try_emplace(leaf);
    if (!fresh) return it->second;
    std::vector<uint16_t>& d = it->second;
    d.assign(t_.switches.size(), kFar);
    std::queue<int32_t> q;
    d[size_t(leaf)] = 0;
    q.push(leaf);
    while (!q.empty()) {
        const int32_t s = q.front();
        q.pop();
        for (int32_t i = adjOffsets_[size_t(s)]; i < adjOffsets_[size_t(s) + 1]; ++i) {
            const int32_t n = adj_[size_t(i)].next;
            if (d[size_t(n)] == kFar) {
                d[size_t(n)] = uint16_t(d[size_t(s)] + 1);
                q.push(n);
            }
        }
    }
    return d;
}

int32_t FabricRouter::upResource(int32_t nic) const {
    const int32_t up = nicLink_[size_t(nic)];
    return 2 * up + (t_.links[size_t(up)].a.kind == EntityKind::Nic ? 0 : 1);
}

int32_t FabricRouter::downResource(int32_t nic) const {
    const int32_t down = nicLink_[size_t(nic)];
    return 2 * down + (t_.links[size_t(down)].a.kind == EntityKind::Switch ? 0 : 1);
}

bool FabricRouter::ends(int32_t srcGpu, int32_t dstGpu, Ends& e) {
    const int32_t sn = nicOfGpu_[size_t(srcGpu)], dn = nicOfGpu_[size_t(dstGpu)];
    if (sn == kNone || dn == kNone || nicLink_[size_t(sn)] == kNone ||
        nicLink_[size_t(dn)] == kNone)
        return false;
    e.dst = dn;
    e.dstLeaf = leafOfNic_[size_t(dn)];
    e.relay = sendingNic(sn, t_.gpus[size_t(srcGpu)].host, distancesTo(e.dstLeaf));
    if (e.relay == kNone) return false;
    e.srcLeaf = leafOfNic_[size_t(e.relay)];
    return true;
}

bool FabricRouter::route(int32_t srcGpu, int32_t dstGpu, uint64_t flowHash,
                         std::vector<int32_t>& out) {
    if (t_.sameNvlinkDomain(srcGpu, dstGpu)) return true;
    Ends e;
    if (!ends(srcGpu, dstGpu, e)) return false;
    const Distances d = distancesTo(e.dstLeaf);
    out.push_back(upResource(e.relay));
    int32_t at = e.srcLeaf;
    for (int hop = 0; at != e.dstLeaf; ++hop) {
        // Equal-cost next hops: neighbours one step closer; pick one by the flow's hash.
        int32_t candidates = 0;
        for (int32_t i = adjOffsets_[size_t(at)]; i < adjOffsets_[size_t(at) + 1]; ++i)
            candidates += d[size_t(adj_[size_t(i)].next)] + 1 == d[size_t(at)];
        int32_t pick =
            int32_t(mix(flowHash ^ (uint64_t(hop) << 56) ^ uint64_t(at)) % uint64_t(candidates));
        for (int32_t i = adjOffsets_[size_t(at)]; i < adjOffsets_[size_t(at) + 1]; ++i) {
            const Hop& h = adj_[size_t(i)];
            if (d[size_t(h.next)] + 1 != d[size_t(at)]) continue;
            if (pick-- == 0) {
                out.push_back(resource(h.link, at));
                at = h.next;
                break;
            }
        }
    }
    out.push_back(downResource(e.dst));
    return true;
}

bool FabricRouter::spread(int32_t srcGpu, int32_t dstGpu, const std::vector<double>* weightOf,
                          std::vector<std::pair<int32_t, double>>& out) {
    if (t_.sameNvlinkDomain(srcGpu, dstGpu)) return true;
    Ends e;
    if (!ends(srcGpu, dstGpu, e)) return false;
    const Distances d = distancesTo(e.dstLeaf);
    out.emplace_back(upResource(e.relay), 1.0);
    // Hop by hop from the source leaf: every switch one step closer to the destination's leaf
    // gets its share of the flow, split over its equal-cost next hops (parallel links too).
    slotOf_.resize(t_.switches.size(), -1);
    frontier_.assign(1, {e.srcLeaf, 1.0});
    while (!(frontier_.size() == 1 && frontier_.front().first == e.dstLeaf)) {
        next_.clear();
        for (const auto& [at, share] : frontier_) {
            double total = 0;
            for (int32_t i = adjOffsets_[size_t(at)]; i < adjOffsets_[size_t(at) + 1]; ++i)
                if (d[size_t(adj_[size_t(i)].next)] + 1 == d[size_t(at)])
                    total +=
                        weightOf ? (*weightOf)[size_t(resource(adj_[size_t(i)].link, at))] : 1.0;
            int32_t candidates = 0;
            for (int32_t i = adjOffsets_[size_t(at)]; i < adjOffsets_[size_t(at) + 1]; ++i)
                candidates += d[size_t(adj_[size_t(i)].next)] + 1 == d[size_t(at)];
            for (int32_t i = adjOffsets_[size_t(at)]; i < adjOffsets_[size_t(at) + 1]; ++i) {
                const Hop& h = adj_[size_t(i)];
                if (d[size_t(h.next)] + 1 != d[size_t(at)]) continue;
                const int32_t r = resource(h.link, at);
                const double w =
                    weightOf && total > 0 ? (*weightOf)[size_t(r)] / total : 1.0 / candidates;
                if (!(w > 0)) continue;
                out.emplace_back(r, share * w);
                int32_t& slot = slotOf_[size_t(h.next)];
                if (slot < 0) {
                    slot = int32_t(next_.size());
                    next_.emplace_back(h.next, 0.0);
                }
                next_[size_t(slot)].second += share * w;
            }
        }
        for (const auto& [sw, share] : next_)
            slotOf_[size_t(sw)] = -1;
        if (next_.empty()) return false;
        frontier_.swap(next_);
    }
    out.emplace_back(downResource(e.dst), 1.0);
    return true;
}

std::string FabricRouter::whyUnreachable(int32_t srcGpu, int32_t dstGpu) {
    if (t_.sameNvlinkDomain(srcGpu, dstGpu)) return {};
    const std::string gpu = t_.gpuName(srcGpu);
    const int32_t sn = nicOfGpu_[size_t(srcGpu)], dn = nicOfGpu_[size_t(dstGpu)];
    if (sn == kNone) return gpu + " has no backend NIC";
    if (dn == kNone) return t_.gpuName(dstGpu) + " has no backend NIC";
    // A NIC whose cable is gone or failed: name the failed link if there is one.
    auto nicCut = [&](int32_t nic, const std::string& who) -> std::string {
        std::string failed;
        for (const Link& k : t_.links)
            if ((k.a == Endpoint{EntityKind::Nic, nic} || k.b == Endpoint{EntityKind::Nic, nic}) &&
                !(k.gbps > 0))
                failed = t_.nameOf(k.a) + " -- " + t_.nameOf(k.b);
        return who + ": its NIC " + t_.nics[size_t(nic)].name + " has no working link to a switch" +
               (failed.empty() ? std::string(" (no cable in the topology)")
                               : " (link " + failed + " failed)");
    };
    if (nicLink_[size_t(sn)] == kNone) return nicCut(sn, gpu);
    if (nicLink_[size_t(dn)] == kNone) return nicCut(dn, t_.gpuName(dstGpu));
    const int32_t srcLeaf = leafOfNic_[size_t(sn)], dstLeaf = leafOfNic_[size_t(dn)];
    if (sendingNic(sn, t_.gpus[size_t(srcGpu)].host, distancesTo(dstLeaf)) != kNone) return {};
    // Cut off above the rack: name the leaf's uplinks that failed.
    std::string failed;
    int count = 0;
    for (const Link& k : t_.links) {
        const bool touches = (k.a.kind == EntityKind::Switch && k.a.index == srcLeaf) ||
                             (k.b.kind == EntityKind::Switch && k.b.index == srcLeaf);
        if (touches && backendSwitch(t_, k.a) && backendSwitch(t_, k.b) && !(k.gbps > 0) &&
            count++ < 3)
            failed += (failed.empty() ? "" : ", ") + t_.nameOf(k.a) + " -- " + t_.nameOf(k.b);
    }
    return gpu + ": its switch " + t_.switches[size_t(srcLeaf)].name + " has no working path to " +
           t_.switches[size_t(dstLeaf)].name +
           (failed.empty() ? std::string() : " (failed: " + failed + ")");
}

int32_t FabricRouter::sendingNic(int32_t nic, int32_t host, const Distances& d) const {
    const int32_t leaf = leafOfNic_[size_t(nic)];
    if (d[size_t(leaf)] != kFar) return nic;
    // Its leaf cannot reach the destination's. Cut off by failures (no working uplink): no
    // route, as without relays. Another plane of a multi-plane fabric: NCCL's PXN moves the
    // data over NVLink (not charged here) to the host's GPU whose NIC reaches it, and sends
    // from there.
    if (host == kNone || adjOffsets_[size_t(leaf)] == adjOffsets_[size_t(leaf) + 1]) return kNone;
    for (int32_t i = hostNicOffsets_[size_t(host)]; i < hostNicOffsets_[size_t(host) + 1]; ++i) {
        const int32_t other = hostNics_[size_t(i)];
        if (nicLink_[size_t(other)] != kNone && d[size_t(leafOfNic_[size_t(other)])] != kFar)
            return other;
    }
    return kNone;
}

double FabricRouter::latencyNs(const std::vector<int32_t>& path) const {
    double ns = 0;
    for (int32_t r : path)
        ns += t_.links[size_t(r / 2)].latencyNs;
    return ns;
}

int32_t FabricRouter::clusterOfLink(size_t l) const {
    const Link& k = t_.links[l];
    // Its switch's cluster, or its NIC's host's.
    for (const Endpoint& e : {k.a, k.b})
        if (e.kind == EntityKind::Switch && t_.switches[size_t(e.index)].cluster != kNone)
            return t_.switches[size_t(e.index)].cluster;
    for (const Endpoint& e : {k.a, k.b})
        if (e.kind == EntityKind::Nic && t_.nics[size_t(e.index)].host != kNone)
            return t_.clusterOfRack(t_.hosts[size_t(t_.nics[size_t(e.index)].host)].rack);
    return kNone;
}

std::vector<double> FabricRouter::contendedEfficiencies(const FabricTransports& transports) const {
    std::vector<double> e(2 * t_.links.size());
    for (size_t l = 0; l < t_.links.size(); ++l) {
        const Link& k = t_.links[l];
        const Transport& t = transports.ofCluster(clusterOfLink(l));
        // Pause frames cost where a saturated link between switches stops the switch ports
        // before it, which carry other flows too; a NIC's own link pauses only the flows that
        // end there (htsim: PFC's incasts end on time, its collisions do not).
        const bool betweenSwitches =
            k.a.kind == EntityKind::Switch && k.b.kind == EntityKind::Switch;
        const bool pauses = t.congestionControl == CongestionControl::Pfc ||
                            t.congestionControl == CongestionControl::Credit;
        e[2 * l] = e[2 * l + 1] = pauses && !betweenSwitches ? 1.0 : t.contendedEfficiency();
    }
    return e;
}

std::vector<double> FabricRouter::switchBuffers(const FabricTransports& transports) const {
    std::vector<double> out(2 * t_.links.size(), 0.0);
    for (size_t l = 0; l < t_.links.size(); ++l) {
        const Link& k = t_.links[l];
        const double b = transports.ofCluster(clusterOfLink(l)).switchBufferBytes;
        if (k.a.kind == EntityKind::Switch) out[2 * l] = b;
        if (k.b.kind == EntityKind::Switch) out[2 * l + 1] = b;
    }
    return out;
}

std::vector<uint8_t> FabricRouter::injectionLinks() const {
    std::vector<uint8_t> out(2 * t_.links.size(), 0);
    for (size_t l = 0; l < t_.links.size(); ++l) {
        const Link& k = t_.links[l];
        if (k.a.kind == EntityKind::Nic && k.b.kind == EntityKind::Switch) out[2 * l] = 1;
        if (k.b.kind == EntityKind::Nic && k.a.kind == EntityKind::Switch) out[2 * l + 1] = 1;
    }
    return out;
}

std::vector<double> FabricRouter::capacities(const FabricTransports& transports) const {
    std::vector<double> c(2 * t_.links.size());
    for (size_t l = 0; l < t_.links.size(); ++l)
        c[2 * l] = c[2 * l + 1] =
            t_.links[l].gbps * 1e9 / 8 * transports.ofCluster(clusterOfLink(l)).wireEfficiency;
    if (capacityLeft_.size() == c.size())
        for (size_t r = 0; r < c.size(); ++r)
            c[r] *= capacityLeft_[r];
    return c;
}

std::vector<double> FabricRouter::capacities(double goodputFraction) const {
    std::vector<double> c(2 * t_.links.size());
    for (size_t l = 0; l < t_.links.size(); ++l)
        c[2 * l] = c[2 * l + 1] = t_.links[l].gbps * 1e9 / 8 * goodputFraction;
    if (capacityLeft_.size() == c.size())
        for (size_t r = 0; r < c.size(); ++r)
            c[r] *= capacityLeft_[r];
    return c;
}

void FabricRouter::requireReachable(const std::vector<int32_t>& gpus) {
    for (size_t i = 1; i < gpus.size(); ++i) {
        const std::string why = whyUnreachable(gpus[i], gpus[0]);
        if (why.empty()) continue;
        throw InputException({{},
                              0,
                              0,
                              "fabric",
                              "GPU " + t_.gpuName(gpus[i]) + " (rank " + std::to_string(i) +
                                  ") cannot reach GPU " + t_.gpuName(gpus[0]) +
                                  " (rank 0) over the backend fabric: " + why});
    }
}

} // namespace cs
