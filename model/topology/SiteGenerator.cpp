#include "SiteGenerator.h"

#include "NvlinkDomains.h"
#include "TopologyBuilder.h"

#include <algorithm>

namespace cs {
namespace {

std::string num(long long i) {
    return std::to_string(i);
}

Endpoint sw(int32_t i) {
    return {EntityKind::Switch, i};
}

// Places switches into network racks of one row, `perRack` to a rack.
class NetworkRackFiller {
public:
    NetworkRackFiller(TopologyBuilder& b, int32_t row, std::string prefix, int perRack,
                      int32_t firstPosition = 0)
        : b_(b), row_(row), prefix_(std::move(prefix)), perRack_(perRack), first_(firstPosition) {}
    int32_t nextRack() {
        if (used_ % perRack_ == 0)
            rack_ = b_.addRack(prefix_ + num(used_ / perRack_), row_, first_ + used_ / perRack_,
                               RackRole::Network);
        ++used_;
        return rack_;
    }

private:
    TopologyBuilder& b_;
    int32_t row_;
    std::string prefix_;
    int perRack_;
    int32_t first_;
    int used_ = 0;
    int32_t rack_ = kNone;
};

struct ClusterRoles {
    SwitchRole leaf, spine, core;
    const char *leafName, *spineName, *coreName;
};

ClusterRoles rolesOf(Fabric f) {
    if (f == Fabric::InfiniBand)
        return {
            SwitchRole::IbLeaf, SwitchRole::IbSpine, SwitchRole::IbCore, "leaf", "spine", "core"};
    return {SwitchRole::Rtsw, SwitchRole::Ctsw, SwitchRole::Atsw, "rtsw", "ctsw", "atsw"};
}

// Hosts of one rack with their GPUs, NVSwitch, NICs and the links inside the rack.
// leafOfNic[g]: the leaf NIC g of each host plugs into (the rack's, or rail g's). A rack-wide
// NVLink domain has switch trays of its own, each taking an equal share of every GPU's NVLink.
void buildComputeRack(TopologyBuilder& b, const ClusterParams& c, int32_t cluster, int32_t pod,
                      int32_t rack, const std::string& rackName,
                      const std::vector<int32_t>& leafOfNic, int32_t tor) {
    const bool rackDomain = c.scaleUp == ScaleUp::Rack;
    auto nvSwitch = [&](const std::string& name, int32_t host, int ports) {
        Switch nvs;
        nvs.name = name;
        nvs.role = SwitchRole::NvSwitch;
        nvs.rack = rack;
        nvs.host = host;
        nvs.cluster = cluster;
        nvs.pod = pod;
        nvs.ports = uint16_t(std::min(65535, ports));
        return b.addSwitch(nvs);
    };
    std::vector<int32_t> trays;
    if (rackDomain)
        for (int k = 0; k < c.nvlinkSwitchTrays; ++k)
            trays.push_back(
                nvSwitch(rackName + ".nvlsw" + num(k), kNone, c.hostsPerRack * c.gpusPerHost));
    for (int h = 0; h < c.hostsPerRack; ++h) {
        const std::string hostName = rackName + ".host" + num(h);
        const int32_t host = b.addHost(hostName, rack, c.gpusPerHost, c.cpusPerHost, h);
        const int32_t nvswitch =
            rackDomain ? kNone : nvSwitch(hostName + ".nvswitch", host, c.gpusPerHost);
        const int32_t firstGpu = b.topology().hosts[size_t(host)].firstGpu;
        for (int g = 0; g < c.gpusPerHost; ++g) {
            const Endpoint gpu{EntityKind::Gpu, firstGpu + g};
            if (rackDomain)
                for (int32_t tray : trays)
                    b.link(gpu, sw(tray), LinkMedium::NvLink, c.nvlinkGbps / double(trays.size()),
                           c.nvlinkLatencyNs);
            else
                b.link(gpu, sw(nvswitch), LinkMedium::NvLink, c.nvlinkGbps, c.nvlinkLatencyNs);
            const int32_t nic =
                b.addNic(hostName + ".be" + num(g), host, gpu.index, NicRole::Backend, c.nicGbps);
            b.link(gpu, {EntityKind::Nic, nic}, LinkMedium::Pcie, c.pcieGbps, c.pcieLatencyNs);
            // A rail leaf sits in a network rack of the unit: fibre, not a DAC in the rack.
            const bool inRack = c.railGroupRacks == 0;
            b.link({EntityKind::Nic, nic}, sw(leafOfNic[size_t(g)]),
                   inRack ? LinkMedium::CopperDac : LinkMedium::Fibre, c.nicGbps,
                   inRack ? c.dacLatencyNs : c.podFibreLatencyNs);
        }
        const int32_t fe =
            b.addNic(hostName + ".fe0", host, kNone, NicRole::Frontend, c.frontendNicGbps);
        b.link({EntityKind::Nic, fe}, sw(tor), LinkMedium::CopperDac, c.frontendNicGbps,
               c.dacLatencyNs);
    }
}

void buildPod(TopologyBuilder& b, const ClusterParams& c, int32_t cluster, int p,
              const std::vector<int32_t>& cores, const std::vector<int32_t>& siteSpines) {
    const ClusterRoles roles = rolesOf(c.fabric);
    const std::string podName = c.name + ".pod" + num(p);
    const int32_t pod = b.addPod(podName, cluster);

    // Spines (CTSW / IB spine) and frontend fabric switches in the pod's network row.
    const int32_t netRow = b.addRow(podName + ".netrow", cluster, pod);
    NetworkRackFiller spineRacks(b, netRow, podName + ".netrack", c.spinesPerNetworkRack);
    std::vector<int32_t> spines; // [plane * spinesPerPlane + s]
    for (int pl = 0; pl < c.planes; ++pl)
        for (int s = 0; s < c.spinesPerPlane; ++s) {
            Switch x;
            x.name = podName + "." + roles.spineName + num(pl) +
                     (c.spinesPerPlane > 1 ? "-" + num(s) : std::string());
            x.role = roles.spine;
            x.rack = spineRacks.nextRack();
            x.cluster = cluster;
            x.pod = pod;
            x.plane = int16_t(pl);
            x.ports = uint16_t(c.spineRadix);
            spines.push_back(b.addSwitch(x));
        }
    const int32_t feRackPosition =
        (int32_t(spines.size()) + c.spinesPerNetworkRack - 1) / c.spinesPerNetworkRack;
    const int32_t feRack =
        b.addRack(podName + ".fe-rack", netRow, feRackPosition, RackRole::Network);
    std::vector<int32_t> fsws;
    for (int f = 0; f < c.frontendFabricPerPod; ++f) {
        Switch x;
        x.name = podName + ".fsw" + num(f);
        x.role = SwitchRole::FrontendFabric;
        x.rack = feRack;
        x.cluster = cluster;
        x.pod = pod;
        x.ports = uint16_t(std::min<long long>(65535, c.racksPerPod + siteSpines.size()));
        fsws.push_back(b.addSwitch(x));
        for (int32_t ssw : siteSpines)
            b.link(sw(fsws.back()), sw(ssw), LinkMedium::Fibre, c.frontendSpineGbps,
                   c.coreFibreLatencyNs);
    }

    // Compute racks, row by row. Leaves: one in each rack, or gpusPerHost per scalable unit
    // in the unit's network rack (rail wiring); each has leafUplinksPerPlane uplinks per plane
    // to the plane's spine serving its block of leaves.
    const bool rail = c.railGroupRacks > 0;
    const long long leafCount = leavesPerPod(c);
    const long long leavesPerSpine = (leafCount + c.spinesPerPlane - 1) / c.spinesPerPlane;
    int32_t leavesUp = 0; // leaves linked up so far: their blocks of spines
    // Multi-plane: rail k's leaves reach planes k N .. (k + 1) N - 1 only, each plane's spines
    // serving blocks of that rail's leaves.
    const long long leavesPerRailSpine =
        (leafCount / c.gpusPerHost + c.spinesPerPlane - 1) / c.spinesPerPlane;
    std::vector<int32_t> railLeavesUp(size_t(c.gpusPerHost), 0);
    auto addLeaf = [&](const std::string& name, int32_t rack) {
        Switch leaf;
        leaf.name = name;
        leaf.role = roles.leaf;
        leaf.rack = rack;
        leaf.cluster = cluster;
        leaf.pod = pod;
        leaf.ports = uint16_t(c.leafRadix);
        return b.addSwitch(leaf);
    };
    auto linkLeafUp = [&](int32_t leaf, int rail) {
        const bool planar = c.planesPerRail > 0 && rail >= 0;
        const int first = planar ? rail * c.planesPerRail : 0;
        const int last = planar ? first + c.planesPerRail : c.planes;
        const long long block =
            planar ? railLeavesUp[size_t(rail)]++ / leavesPerRailSpine : leavesUp / leavesPerSpine;
        for (int pl = first; pl < last; ++pl)
            for (int u = 0; u < c.leafUplinksPerPlane; ++u)
                b.link(sw(leaf), sw(spines[size_t(pl * c.spinesPerPlane + block)]),
                       LinkMedium::Fibre, c.fabricGbps, c.podFibreLatencyNs);
        ++leavesUp;
    };
    // Rail leaves sit in network racks after the spines' and the frontend's.
    NetworkRackFiller railRacks(b, netRow, podName + ".railrack", c.spinesPerNetworkRack,
                                feRackPosition + 1);
    std::vector<int32_t> leafOfNic(size_t(c.gpusPerHost), kNone);
    int32_t row = kNone;
    for (int r = 0; r < c.racksPerPod; ++r) {
        if (r % c.racksPerRow == 0)
            row = b.addRow(podName + ".row" + num(r / c.racksPerRow), cluster, pod);
        const std::string rackName = podName + ".rack" + num(r);
        const int32_t rack = b.addRack(rackName, row, r % c.racksPerRow, RackRole::Compute);
        if (!rail) {
            std::fill(leafOfNic.begin(), leafOfNic.end(),
                      addLeaf(rackName + "." + roles.leafName, rack));
        } else if (r % c.railGroupRacks == 0) {
            const std::string unit = podName + ".su" + num(r / c.railGroupRacks);
            for (int g = 0; g < c.gpusPerHost; ++g) {
                leafOfNic[size_t(g)] =
                    addLeaf(unit + ".rail" + num(g) + "-" + roles.leafName, railRacks.nextRack());
                linkLeafUp(leafOfNic[size_t(g)], g);
            }
        }
        Switch tor;
        tor.name = rackName + ".fe-tor";
        tor.role = SwitchRole::FrontendTor;
        tor.rack = rack;
        tor.cluster = cluster;
        tor.pod = pod;
        tor.ports = uint16_t(c.hostsPerRack + c.frontendFabricPerPod);
        const int32_t torIndex = b.addSwitch(tor);
        buildComputeRack(b, c, cluster, pod, rack, rackName, leafOfNic, torIndex);
        if (!rail) linkLeafUp(leafOfNic.front(), -1);
        for (int32_t fsw : fsws)
            b.link(sw(torIndex), sw(fsw), LinkMedium::Fibre, c.frontendUplinkGbps,
                   c.podFibreLatencyNs);
    }

    // Pod uplinks, spread evenly over the spines; a plane's uplinks in this pod go round its
    // cores in turn, spine after spine, so each spine reaches every core of its plane (a fat
    // tree when they match) and no core takes more than its share. None without a core tier.
    const int coresPerPlane = coresPerPlaneBuilt(c);
    const long long total = coresPerPlane == 0 ? 0 : podUplinkCount(c);
    const auto nSpines = (long long)spines.size();
    std::vector<long long> nextOfPlane(size_t(c.planes), 0);
    for (long long k = 0; k < nSpines; ++k) {
        const long long up = total / nSpines + (k < total % nSpines ? 1 : 0);
        const int plane = int(k / c.spinesPerPlane);
        for (long long j = 0; j < up; ++j) {
            const long long turn = nextOfPlane[size_t(plane)]++;
            const int32_t core = cores[size_t(plane * coresPerPlane + turn % coresPerPlane)];
            b.link(sw(spines[size_t(k)]), sw(core), LinkMedium::Fibre, c.fabricGbps,
                   c.coreFibreLatencyNs);
        }
    }
}

void buildCluster(TopologyBuilder& b, const ClusterParams& c,
                  const std::vector<int32_t>& siteSpines) {
    const ClusterRoles roles = rolesOf(c.fabric);
    const int32_t cluster = b.addCluster(c.name, c.fabric, transportSettingsOf(c));
    const int coresPerPlane = coresPerPlaneBuilt(c);
    const int32_t coreRow =
        coresPerPlane > 0 ? b.addRow(c.name + ".corerow", cluster, kNone) : kNone;
    NetworkRackFiller coreRacks(b, coreRow, c.name + ".corerack", c.spinesPerNetworkRack);
    std::vector<int32_t> cores;
    for (int pl = 0; pl < c.planes; ++pl)
        for (int k = 0; k < coresPerPlane; ++k) {
            Switch x;
            x.name = c.name + "." + roles.coreName + num(pl) +
                     (coresPerPlane > 1 ? "-" + num(k) : std::string());
            x.role = roles.core;
            x.rack = coreRacks.nextRack();
            x.cluster = cluster;
            x.plane = int16_t(pl);
            x.ports = uint16_t(c.coreRadix);
            cores.push_back(b.addSwitch(x));
        }
    for (int p = 0; p < c.pods; ++p)
        buildPod(b, c, cluster, p, cores, siteSpines);
}

void buildStorage(TopologyBuilder& b, const SiteParams& p, const std::vector<int32_t>& spines) {
    const StorageParams& s = p.storage;
    int rackCount = 0;
    int32_t row = kNone;
    auto addKind = [&](StorageKind kind, int servers, double gbps) {
        const std::string kindName(toString(kind));
        for (int first = 0; first < servers; first += s.serversPerRack) {
            if (rackCount % s.racksPerRow == 0)
                row = b.addRow(p.name + ".storage-row" + num(rackCount / s.racksPerRow), kNone,
                               kNone);
            const std::string rackName = p.name + ".storage-rack" + num(rackCount);
            const int32_t rack =
                b.addRack(rackName, row, rackCount % s.racksPerRow, RackRole::Storage);
            Switch tor;
            tor.name = rackName + ".tor";
            tor.role = SwitchRole::StorageTor;
            tor.rack = rack;
            tor.ports = uint16_t(s.serversPerRack + s.storageTorUplinks);
            const int32_t torIndex = b.addSwitch(tor);
            for (int i = first; i < std::min(servers, first + s.serversPerRack); ++i) {
                const int32_t server =
                    b.addStorage(p.name + "." + kindName + num(i), kind, rack, gbps);
                b.link({EntityKind::Storage, server}, sw(torIndex), LinkMedium::CopperDac, gbps,
                       s.storageLatencyNs);
            }
            for (int u = 0; u < s.storageTorUplinks; ++u)
                b.link(sw(torIndex),
                       sw(spines[size_t(rackCount * s.storageTorUplinks + u) % spines.size()]),
                       LinkMedium::Fibre, s.storageUplinkGbps, s.spineFibreLatencyNs);
            ++rackCount;
        }
    };
    addKind(StorageKind::Tectonic, s.tectonicServers, s.tectonicServerGbps);
    addKind(StorageKind::Hammerspace, s.hammerspaceServers, s.hammerspaceServerGbps);
}

} // namespace

Topology generateSite(const SiteParams& p) {
    if (auto e = checkSiteParams(p)) throw InputException(*e);
    TopologyBuilder b(p.name, p.gpuModel);
    size_t gpus = 0;
    for (const ClusterParams& c : p.clusters)
        gpus +=
            size_t(c.pods) * size_t(c.racksPerPod) * size_t(c.hostsPerRack) * size_t(c.gpusPerHost);
    b.reserve(gpus, gpus * 4 + gpus / 4);

    // The site's frontend spine joins every cluster's frontend with the storage.
    const int32_t spineRow = b.addRow(p.name + ".spinerow", kNone, kNone);
    NetworkRackFiller spineRacks(b, spineRow, p.name + ".spinerack", 8);
    std::vector<int32_t> spines;
    long long spinePorts = 0;
    for (const ClusterParams& c : p.clusters)
        spinePorts += 1LL * c.pods * c.frontendFabricPerPod;
    const long long storageRacks =
        (p.storage.tectonicServers + p.storage.serversPerRack - 1) / p.storage.serversPerRack +
        (p.storage.hammerspaceServers + p.storage.serversPerRack - 1) / p.storage.serversPerRack;
    spinePorts += (storageRacks * p.storage.storageTorUplinks + p.storage.frontendSpines - 1) /
                  p.storage.frontendSpines;
    for (int k = 0; k < p.storage.frontendSpines; ++k) {
        Switch x;
        x.name = p.name + ".ssw" + num(k);
        x.role = SwitchRole::FrontendSpine;
        x.rack = spineRacks.nextRack();
        x.plane = int16_t(k);
        x.ports = uint16_t(std::min<long long>(65535, spinePorts));
        spines.push_back(b.addSwitch(x));
    }
    for (const ClusterParams& c : p.clusters)
        buildCluster(b, c, spines);
    buildStorage(b, p, spines);
    Topology t = b.take();
    assignNvlinkDomains(t);
    return t;
}

} // namespace cs
