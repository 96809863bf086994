#include "FabricInference.h"

#include "JsonObjectReader.h"
#include "SiteParams.h"
#include "TopologyBuilder.h"

#include <QRegularExpression>

#include <algorithm>
#include <deque>
#include <numeric>
#include <set>
#include <unordered_map>

namespace cs {
namespace {

constexpr int kMaxGpusPerHost =
    255; // a Host counts its GPUs in a byte (an NVL72 rack read as one: 72)
constexpr int kRacksPerInferredRow = 16;
constexpr int kSwitchesPerNetworkRack = 8;

struct Facts {
    std::vector<InferredFact> list;
    void add(std::string what, std::string how, long long count) {
        if (count > 0) list.push_back({std::move(what), std::move(how), count});
    }
};

class Inference {
public:
    Inference(const FabricGraph& g, const StructureOverrides& o) : g_(g), o_(o) {}

    InferredTopology run() {
        checkNames();
        checkLinks();
        applyTierOverrides();
        inferTiers();
        inferPods();
        inferRacks();
        build();
        return {std::move(topology_), std::move(facts_.list)};
    }

private:
    [[noreturn]] void fail(int line, const std::string& field, const std::string& msg) const {
        throw InputException({g_.file, line, 0, field, msg});
    }
    [[noreturn]] void failOverride(const std::string& field, const std::string& msg) const {
        throw InputException({o_.file, 0, 0, field, msg});
    }
    bool isHost(int32_t n) const { return g_.nodes[size_t(n)].kind == GraphNodeKind::Host; }

    // Ids as long as ClusterScope's own format holds (an exported copy must read again).
    void checkNames() const {
        for (const GraphNode& node : g_.nodes)
            for (const auto& [field, text] :
                 {std::pair{"id", &node.name}, {"rack", &node.rack}, {"pod", &node.pod}})
                if (QString::fromStdString(*text).size() > kMaxStringChars)
                    fail(node.line, field,
                         "this " + std::string(field) + " is " + std::to_string(text->size()) +
                             " bytes long; at most " + std::to_string(kMaxStringChars) +
                             " characters are read, as in ClusterScope's own format");
    }

    void checkLinks() {
        const auto n = int32_t(g_.nodes.size());
        linksOf_.assign(size_t(n), {});
        std::unordered_map<uint64_t, int> portLine; // (switch node, port) -> line using it
        for (size_t i = 0; i < g_.links.size(); ++i) {
            const GraphLink& l = g_.links[i];
            if (l.a < 0 || l.a >= n || l.b < 0 || l.b >= n)
                fail(l.line, "link", "the link names a node the file does not declare");
            if (l.a == l.b)
                fail(l.line, "link", "the link joins " + g_.nodes[size_t(l.a)].name + " to itself");
            if (isHost(l.a) && isHost(l.b))
                fail(l.line, "link",
                     "the link joins two hosts (" + g_.nodes[size_t(l.a)].name + ", " +
                         g_.nodes[size_t(l.b)].name +
                         ") directly; hosts are expected to reach each other through switches");
            for (const auto& [node, port] : {std::pair{l.a, l.portA}, std::pair{l.b, l.portB}}) {
                if (port == 0) continue;
                const uint64_t key = (uint64_t(uint32_t(node)) << 16) | port;
                const auto [it, fresh] = portLine.emplace(key, l.line);
                if (!fresh)
                    fail(l.line, "port",
                         "port " + std::to_string(port) + " of " + g_.nodes[size_t(node)].name +
                             " is already used by the link on line " + std::to_string(it->second));
            }
            linksOf_[size_t(l.a)].push_back(int32_t(i));
            linksOf_[size_t(l.b)].push_back(int32_t(i));
        }
    }

    void applyTierOverrides() {
        tier_.assign(g_.nodes.size(), 0);
        given_.assign(g_.nodes.size(), false);
        for (size_t i = 0; i < g_.nodes.size(); ++i)
            if (g_.nodes[i].tier) {
                tier_[i] = *g_.nodes[i].tier;
                given_[i] = true;
            }
        if (o_.switchTiers.empty()) return;
        std::unordered_map<std::string, int32_t> byName;
        for (size_t i = 0; i < g_.nodes.size(); ++i)
            if (!isHost(int32_t(i))) byName.emplace(g_.nodes[i].name, int32_t(i));
        for (const auto& [name, t] : o_.switchTiers) {
            const auto it = byName.find(name);
            if (it == byName.end())
                failOverride("switchTiers." + name, "no switch of that name in " + g_.file);
            tier_[size_t(it->second)] = t;
            given_[size_t(it->second)] = true;
        }
    }

    // Tier = hops from the nearest host: 1 leaf, 2 spine, 3 core. Unreachable or deeper
    // switches become cores (the model has three tiers above the hosts).
    void inferTiers() {
        std::vector<int> dist(g_.nodes.size(), -1);
        std::deque<int32_t> queue;
        for (size_t i = 0; i < g_.nodes.size(); ++i)
            if (isHost(int32_t(i))) {
                dist[i] = 0;
                queue.push_back(int32_t(i));
            }
        while (!queue.empty()) {
            const int32_t n = queue.front();
            queue.pop_front();
            for (int32_t li : linksOf_[size_t(n)]) {
                const GraphLink& l = g_.links[size_t(li)];
                const int32_t m = l.a == n ? l.b : l.a;
                if (dist[size_t(m)] < 0) {
                    dist[size_t(m)] = dist[size_t(n)] + 1;
                    queue.push_back(m);
                }
            }
        }
        long long byDistance = 0, unreachable = 0, deep = 0;
        for (size_t i = 0; i < g_.nodes.size(); ++i) {
            if (isHost(int32_t(i)) || given_[i]) continue;
            if (dist[i] < 0) {
                tier_[i] = 3;
                ++unreachable;
            } else {
                tier_[i] = std::min(dist[i], 3);
                deep += dist[i] > 3;
                ++byDistance;
            }
        }
        for (size_t i = 0; i < g_.nodes.size(); ++i)
            hasCore_ = hasCore_ || tier_[i] == 3;
        facts_.add("switchTiers", "by hops from the nearest host (1 leaf, 2 spine, 3 core)",
                   byDistance);
        facts_.add("switchTiers", "not reachable from any host: placed in the core tier",
                   unreachable);
        facts_.add("switchTiers", "more than three hops from any host: placed in the core tier",
                   deep);
    }

    int32_t find(int32_t x) {
        while (parent_[size_t(x)] != x)
            x = parent_[size_t(x)] = parent_[size_t(parent_[size_t(x)])];
        return x;
    }

    // Pods: the blocks of leaves and spines joined without the core tier. Without a core
    // tier the whole fabric is one pod.
    void inferPods() {
        const auto n = int32_t(g_.nodes.size());
        parent_.resize(size_t(n));
        std::iota(parent_.begin(), parent_.end(), 0);
        // Pods the file names (on every host and switch below the core tier) are kept.
        auto belowCore = [&](int32_t i) { return tier_[size_t(i)] < 3 || !hasCore_; };
        bool stated = true;
        for (int32_t i = 0; i < n && stated; ++i)
            stated = !belowCore(i) || !g_.nodes[size_t(i)].pod.empty();
        if (stated) {
            std::unordered_map<std::string, int32_t> first;
            for (int32_t i = 0; i < n; ++i)
                if (belowCore(i))
                    parent_[size_t(i)] = first.emplace(g_.nodes[size_t(i)].pod, i).first->second;
        } else {
            for (const GraphLink& l : g_.links)
                if (belowCore(l.a) && belowCore(l.b)) parent_[size_t(find(l.a))] = find(l.b);
        }
        podOf_.assign(size_t(n), kNone);
        std::unordered_map<int32_t, int32_t> podOfRoot;
        for (int32_t i = 0; i < n; ++i) {
            if (tier_[size_t(i)] == 3 && hasCore_) continue;
            const auto [it, fresh] = podOfRoot.emplace(find(i), int32_t(podNames_.size()));
            if (fresh) podNames_.push_back(g_.nodes[size_t(i)].pod);
            const std::string& stated = g_.nodes[size_t(i)].pod;
            if (stated != podNames_[size_t(it->second)]) mixedPodNames_.insert(it->second);
            podOf_[size_t(i)] = it->second;
        }
        long long inferredPods = 0;
        for (size_t p = 0; p < podNames_.size(); ++p)
            if (podNames_[p].empty() || mixedPodNames_.count(int32_t(p))) {
                podNames_[p] = g_.name + ".pod" + std::to_string(p);
                ++inferredPods;
            }
        facts_.add("pods",
                   hasCore_ ? "the blocks of leaves and spines joined below the core tier"
                            : "no core tier: the whole fabric is one pod",
                   inferredPods);
    }

    // The leaf a host's first NIC plugs into (kNone: a host with no links).
    int32_t firstSwitchOf(int32_t host) const {
        const GraphLink* best = nullptr;
        for (int32_t li : linksOf_[size_t(host)]) {
            const GraphLink& l = g_.links[size_t(li)];
            const uint16_t port = l.a == host ? l.portA : l.portB;
            const uint16_t bestPort = !best ? 0 : best->a == host ? best->portA : best->portB;
            if (!best || port < bestPort) best = &l;
        }
        return !best ? kNone : best->a == host ? best->b : best->a;
    }

    void inferRacks() {
        static const QRegularExpression rackInName(
            R"(^(.*?(?:^|[._-])(?:rack|rk)[-_]?\d+)(?:[._-]|$))",
            QRegularExpression::CaseInsensitiveOption);
        std::unordered_map<std::string, std::string> overrides(o_.hostRacks.begin(),
                                                               o_.hostRacks.end());
        long long fromNames = 0, perLeaf = 0, alone = 0;
        rackKeyOf_.assign(g_.nodes.size(), {});
        for (size_t i = 0; i < g_.nodes.size(); ++i) {
            if (!isHost(int32_t(i))) continue;
            const GraphNode& h = g_.nodes[i];
            std::string key;
            if (auto it = overrides.find(h.name); it != overrides.end()) {
                key = it->second;
                overrides.erase(it);
            } else if (!h.rack.empty()) {
                key = h.rack;
            } else if (const auto m = rackInName.match(QString::fromStdString(h.name));
                       m.hasMatch()) {
                key = m.captured(1).toStdString();
                ++fromNames;
            } else if (const int32_t leaf = firstSwitchOf(int32_t(i)); leaf != kNone) {
                key = g_.nodes[size_t(leaf)].name + ".rack";
                ++perLeaf;
            } else {
                key = h.name + ".rack";
                ++alone;
            }
            rackKeyOf_[i] = std::move(key);
        }
        if (!overrides.empty())
            failOverride("hostRacks." + overrides.begin()->first,
                         "no host of that name in " + g_.file);
        facts_.add("racks", "from the rack named in the host's name", fromNames);
        facts_.add("racks", "one rack per leaf switch (the names hold no rack)", perLeaf);
        facts_.add("racks", "a host without links: a rack of its own", alone);
    }

    Endpoint sw(int32_t node) const { return {EntityKind::Switch, switchOf_[size_t(node)]}; }

    void build() {
        const ClusterParams defaults;
        Fabric fabric = Fabric::Roce;
        if (o_.fabric)
            fabric = *o_.fabric;
        else if (g_.fabric)
            fabric = *g_.fabric;
        else
            facts_.add("fabric", "the format does not say: RoCE assumed", 1);
        std::string gpuModel = !o_.gpuModel.empty() ? o_.gpuModel : g_.gpuModel;
        if (gpuModel.empty()) {
            gpuModel = "H100-SXM-80GB";
            facts_.add("gpuModel", "the format does not say: H100-SXM-80GB assumed", 1);
        }
        const bool ib = fabric == Fabric::InfiniBand;
        const SwitchRole roleOfTier[4] = {SwitchRole::NvSwitch,
                                          ib ? SwitchRole::IbLeaf : SwitchRole::Rtsw,
                                          ib ? SwitchRole::IbSpine : SwitchRole::Ctsw,
                                          ib ? SwitchRole::IbCore : SwitchRole::Atsw};
        TopologyBuilder b(g_.name, gpuModel);
        const int32_t cluster = b.addCluster(g_.name, fabric);

        // Pods, each with a network row; compute racks in rows of kRacksPerInferredRow.
        std::vector<int32_t> pods, netRows, netRackFill, netRack, computeRows, computeInRow;
        for (const std::string& name : podNames_) {
            pods.push_back(b.addPod(name, cluster));
            netRows.push_back(b.addRow(name + ".netrow", cluster, pods.back()));
        }
        netRack.assign(pods.size(), kNone);
        netRackFill.assign(pods.size(), kSwitchesPerNetworkRack);
        computeRows.assign(pods.size(), kNone);
        computeInRow.assign(pods.size(), kRacksPerInferredRow);
        std::vector<int32_t> netRackCount(pods.size(), 0);
        auto networkRack = [&](size_t pod) {
            if (netRackFill[pod] == kSwitchesPerNetworkRack) {
                netRack[pod] =
                    b.addRack(podNames_[pod] + ".netrack" + std::to_string(netRackCount[pod]),
                              netRows[pod], netRackCount[pod], RackRole::Network);
                ++netRackCount[pod];
                netRackFill[pod] = 0;
            }
            ++netRackFill[pod];
            return netRack[pod];
        };
        long long rowsInferred = 0;
        std::unordered_map<std::string, int32_t> rackOfKey;
        std::vector<int32_t> rackOfHost(g_.nodes.size(), kNone);
        std::vector<int32_t> hostOrder;
        for (size_t i = 0; i < g_.nodes.size(); ++i) {
            if (!isHost(int32_t(i))) continue;
            const size_t pod = size_t(podOf_[i]);
            const std::string key = podNames_[pod] + "\n" + rackKeyOf_[i];
            auto it = rackOfKey.find(key);
            if (it == rackOfKey.end()) {
                if (computeInRow[pod] == kRacksPerInferredRow) {
                    computeRows[pod] = b.addRow(
                        podNames_[pod] + ".row" + std::to_string(rowsInferred), cluster, pods[pod]);
                    ++rowsInferred;
                    computeInRow[pod] = 0;
                }
                it = rackOfKey
                         .emplace(key, b.addRack(rackKeyOf_[i], computeRows[pod],
                                                 computeInRow[pod]++, RackRole::Compute))
                         .first;
            }
            rackOfHost[i] = it->second;
            hostOrder.push_back(int32_t(i));
        }
        facts_.add("rows", "racks of a pod in rows of " + std::to_string(kRacksPerInferredRow),
                   rowsInferred);

        // Switches: a leaf sits in its hosts' rack when they share one, else in a network rack.
        switchOf_.assign(g_.nodes.size(), kNone);
        long long radixInferred = 0;
        for (size_t i = 0; i < g_.nodes.size(); ++i) {
            if (isHost(int32_t(i))) continue;
            const GraphNode& s = g_.nodes[i];
            Switch x;
            x.name = s.name;
            x.role = roleOfTier[std::clamp(tier_[i], 1, 3)];
            x.cluster = cluster;
            x.pod = podOf_[i];
            int32_t rack = kNone;
            bool oneRack = tier_[i] == 1;
            for (int32_t li : linksOf_[i]) {
                const GraphLink& l = g_.links[size_t(li)];
                const int32_t m = l.a == int32_t(i) ? l.b : l.a;
                if (!isHost(m)) continue;
                if (rack == kNone) rack = rackOfHost[size_t(m)];
                oneRack = oneRack && rack == rackOfHost[size_t(m)];
            }
            if (!oneRack || rack == kNone)
                rack = x.pod == kNone ? coreRack(b, cluster) : networkRack(size_t(x.pod));
            x.rack = rack;
            int ports = s.ports;
            if (ports <= 0) {
                for (int32_t li : linksOf_[i]) {
                    const GraphLink& l = g_.links[size_t(li)];
                    ports = std::max({ports, int(l.a == int32_t(i) ? l.portA : l.portB)});
                }
                ports = std::max(ports, int(linksOf_[i].size()));
                ++radixInferred;
            }
            x.ports = uint16_t(std::min(ports, 65535));
            switchOf_[i] = b.addSwitch(x);
        }
        facts_.add("switchRadix", "the highest port in use", radixInferred);

        // Hosts in rack order, their GPUs, NVSwitch and NICs.
        std::stable_sort(hostOrder.begin(), hostOrder.end(), [&](int32_t x, int32_t y) {
            return rackOfHost[size_t(x)] < rackOfHost[size_t(y)];
        });
        std::vector<int32_t> slotInRack(b.topology().racks.size(), 0);
        long long gpusInferred = 0, nicGpusInferred = 0, speedsInferred = 0, scaleUp = 0;
        const double defaultGbps = o_.linkGbps > 0 ? o_.linkGbps : defaults.nicGbps;
        auto speedOf = [&](const GraphLink& l) {
            if (l.gbps > 0) return double(l.gbps);
            ++speedsInferred;
            return defaultGbps;
        };
        std::vector<bool> linkDone(g_.links.size(), false);
        for (int32_t hn : hostOrder) {
            const GraphNode& h = g_.nodes[size_t(hn)];
            std::vector<int32_t> nicLinks = linksOf_[size_t(hn)];
            std::stable_sort(nicLinks.begin(), nicLinks.end(), [&](int32_t x, int32_t y) {
                const GraphLink &lx = g_.links[size_t(x)], &ly = g_.links[size_t(y)];
                return (lx.a == hn ? lx.portA : lx.portB) < (ly.a == hn ? ly.portA : ly.portB);
            });
            int gpus = h.gpus;
            if (gpus < 0 && o_.gpusPerHost > 0) gpus = o_.gpusPerHost;
            if (gpus < 0) {
                gpus = std::max(1, int(nicLinks.size()));
                ++gpusInferred;
            }
            if (gpus < 1 || gpus > kMaxGpusPerHost)
                fail(h.line, "gpus",
                     "host " + h.name + " would hold " + std::to_string(gpus) + " GPUs; at most " +
                         std::to_string(kMaxGpusPerHost) +
                         " per host are read (set gpusPerHost in the sidecar file)");
            const int32_t rack = rackOfHost[size_t(hn)];
            const int32_t host = b.addHost(h.name, rack, gpus, defaults.cpusPerHost,
                                           std::min(slotInRack[size_t(rack)]++, 255));
            const int32_t firstGpu = b.topology().hosts[size_t(host)].firstGpu;
            if (gpus > 1) {
                Switch nvs;
                nvs.name = h.name + ".nvswitch";
                nvs.role = SwitchRole::NvSwitch;
                nvs.rack = rack;
                nvs.host = host;
                nvs.cluster = cluster;
                nvs.pod = podOf_[size_t(hn)];
                nvs.ports = uint16_t(gpus);
                const int32_t nv = b.addSwitch(nvs);
                for (int g = 0; g < gpus; ++g)
                    b.link({EntityKind::Gpu, firstGpu + g}, {EntityKind::Switch, nv},
                           LinkMedium::NvLink, defaults.nvlinkGbps, defaults.nvlinkLatencyNs);
                ++scaleUp;
            }
            for (size_t k = 0; k < nicLinks.size(); ++k) {
                const GraphLink& l = g_.links[size_t(nicLinks[k])];
                linkDone[size_t(nicLinks[k])] = true;
                const uint16_t hostPort = l.a == hn ? l.portA : l.portB;
                const int32_t peer = l.a == hn ? l.b : l.a;
                const uint16_t peerPort = l.a == hn ? l.portB : l.portA;
                int gpu = int(k) % gpus;
                const size_t p = hostPort > 0 ? size_t(hostPort - 1) : k;
                if (p < h.nicGpu.size() && h.nicGpu[p] >= 0 && h.nicGpu[p] < gpus)
                    gpu = h.nicGpu[p];
                else
                    ++nicGpusInferred;
                const double gbps = speedOf(l);
                const int32_t nic =
                    b.addNic(h.name + ".nic" + std::to_string(hostPort > 0 ? hostPort : k + 1),
                             host, firstGpu + gpu, NicRole::Backend, gbps);
                b.link({EntityKind::Gpu, firstGpu + gpu}, {EntityKind::Nic, nic}, LinkMedium::Pcie,
                       defaults.pcieGbps, defaults.pcieLatencyNs);
                const bool sameRack =
                    b.topology().switches[size_t(switchOf_[size_t(peer)])].rack == rack;
                b.link({EntityKind::Nic, nic}, sw(peer), 0, peerPort,
                       sameRack ? LinkMedium::CopperDac : LinkMedium::Fibre, gbps,
                       l.latencyNs > 0 ? l.latencyNs
                       : sameRack      ? defaults.dacLatencyNs
                                       : defaults.podFibreLatencyNs);
            }
        }
        // Switch-to-switch links, in file order.
        for (size_t i = 0; i < g_.links.size(); ++i) {
            if (linkDone[i]) continue;
            const GraphLink& l = g_.links[i];
            const bool toCore = tier_[size_t(l.a)] == 3 || tier_[size_t(l.b)] == 3;
            b.link(sw(l.a), sw(l.b), l.portA, l.portB, LinkMedium::Fibre, speedOf(l),
                   l.latencyNs > 0 ? l.latencyNs
                   : toCore        ? defaults.coreFibreLatencyNs
                                   : defaults.podFibreLatencyNs);
        }
        facts_.add("gpusPerHost", "one GPU per backend NIC", gpusInferred);
        facts_.add("nicGpus", "NIC k of a host serves GPU k", nicGpusInferred);
        facts_.add("scaleUp",
                   "one NVSwitch per host, NVLink " + std::to_string(int(defaults.nvlinkGbps)) +
                       " Gb/s per GPU and PCIe " + std::to_string(int(defaults.pcieGbps)) +
                       " Gb/s GPU to NIC assumed",
                   scaleUp);
        facts_.add("linkSpeeds",
                   "the format gives no speed: " + std::to_string(int(defaultGbps)) +
                       " Gb/s assumed",
                   speedsInferred);
        for (const std::string& note : g_.readerNotes)
            facts_.add("source", note, 1);
        topology_ = b.take();
    }

    int32_t coreRack(TopologyBuilder& b, int32_t cluster) {
        if (coreRow_ == kNone) coreRow_ = b.addRow(g_.name + ".corerow", cluster, kNone);
        if (coreRackFill_ == kSwitchesPerNetworkRack || coreRack_ == kNone) {
            coreRack_ = b.addRack(g_.name + ".corerack" + std::to_string(coreRacks_), coreRow_,
                                  coreRacks_, RackRole::Network);
            ++coreRacks_;
            coreRackFill_ = 0;
        }
        ++coreRackFill_;
        return coreRack_;
    }

    const FabricGraph& g_;
    const StructureOverrides& o_;
    std::vector<std::vector<int32_t>> linksOf_;
    std::vector<int> tier_;
    std::vector<bool> given_;
    bool hasCore_ = false;
    std::vector<int32_t> parent_, podOf_, switchOf_;
    std::vector<std::string> podNames_;
    std::set<int32_t> mixedPodNames_;
    std::vector<std::string> rackKeyOf_;
    int32_t coreRow_ = kNone, coreRack_ = kNone, coreRacks_ = 0, coreRackFill_ = 0;
    Facts facts_;
    Topology topology_;
};

} // namespace

InferredTopology inferFabricStructure(const FabricGraph& g, const StructureOverrides& o) {
    return Inference(g, o).run();
}

std::vector<const InferredFact*> inferredFactsFor(const std::vector<InferredFact>& facts,
                                                  EntityKind kind) {
    auto concerns = [kind](const std::string& what) {
        switch (kind) {
        case EntityKind::Cluster:
            return what == "fabric" || what == "source";
        case EntityKind::Pod:
            return what == "pods";
        case EntityKind::Row:
            return what == "rows";
        case EntityKind::Rack:
            return what == "racks" || what == "rows";
        case EntityKind::Host:
            return what == "racks" || what == "pods" || what == "gpusPerHost" || what == "scaleUp";
        case EntityKind::Gpu:
            return what == "gpusPerHost" || what == "gpuModel";
        case EntityKind::Nic:
            return what == "nicGpus" || what == "linkSpeeds";
        case EntityKind::Switch:
            return what == "switchTiers" || what == "pods" || what == "switchRadix" ||
                   what == "scaleUp";
        case EntityKind::Link:
            return what == "linkSpeeds" || what == "scaleUp";
        case EntityKind::Storage:
            return false;
        }
        return false;
    };
    std::vector<const InferredFact*> out;
    for (const InferredFact& f : facts)
        if (concerns(f.what)) out.push_back(&f);
    return out;
}

} // namespace cs
