#include "SiteGenerator.h"

#include <cmath>
#include <set>

namespace cs {
namespace {

struct Checker {
    std::string prefix;
    std::optional<InputError> error;

    void fail(const std::string& field, const std::string& message) {
        if (!error) error = InputError{{}, 0, 0, prefix + "." + field, message};
    }
    void range(const std::string& field, long long v, long long lo, long long hi) {
        if (v < lo || v > hi)
            fail(field, "expected an integer from " + std::to_string(lo) + " to " +
                            std::to_string(hi) + ", got " + std::to_string(v));
    }
    void positive(const std::string& field, double v, double hi) {
        if (!(v > 0 && v <= hi))
            fail(field, "expected a number above 0 and at most " + std::to_string(long(hi)) +
                            ", got " + std::to_string(v));
    }
    void nonNegative(const std::string& field, double v, double hi) {
        if (!(v >= 0 && v <= hi))
            fail(field, "expected a number from 0 to " + std::to_string(long(hi)) + ", got " +
                            std::to_string(v));
    }
};

void checkClusterRanges(Checker& ck, const std::string& f, const ClusterParams& c) {
    if (c.name.empty() || c.name.find_first_of(" \t\n.") != std::string::npos)
        ck.fail(f + "name", "expected a non-empty name without spaces or dots");
    ck.range(f + "pods", c.pods, 1, 4096);
    ck.range(f + "racksPerPod", c.racksPerPod, 1, 60000);
    ck.range(f + "hostsPerRack", c.hostsPerRack, 1, 64);
    ck.range(f + "gpusPerHost", c.gpusPerHost, 1, 16);
    ck.range(f + "cpusPerHost", c.cpusPerHost, 0, 16);
    ck.range(f + "racksPerRow", c.racksPerRow, 1, 1000);
    ck.range(f + "planes", c.planes, 1, 1024);
    ck.range(f + "spinesPerPlane", c.spinesPerPlane, 1, 4096);
    ck.range(f + "leafRadix", c.leafRadix, 2, 65535);
    ck.range(f + "spineRadix", c.spineRadix, 2, 65535);
    ck.range(f + "coresPerPlane", c.coresPerPlane, c.pods == 1 ? 0 : 1, 4096);
    ck.range(f + "leafUplinksPerPlane", c.leafUplinksPerPlane, 1, 64);
    ck.range(f + "railGroupRacks", c.railGroupRacks, 0, 60000);
    if (c.railGroupRacks > 0 && c.racksPerPod % c.railGroupRacks != 0)
        ck.fail(f + "railGroupRacks", "expected a divisor of racksPerPod (" +
                                          std::to_string(c.racksPerPod) +
                                          "): every scalable unit is whole");
    ck.range(f + "coreRadix", c.coreRadix, 2, 65535);
    ck.range(f + "spinesPerNetworkRack", c.spinesPerNetworkRack, 1, 64);
    ck.range(f + "frontendFabricPerPod", c.frontendFabricPerPod, 1, 64);
    if (!(c.oversubscription >= 0.01 && c.oversubscription <= 1000))
        ck.fail(f + "oversubscription", "expected a ratio from 0.01 to 1000 (7 means 1:7)");
    for (auto [name, v] : {std::pair{"nicGbps", c.nicGbps},
                           {"fabricGbps", c.fabricGbps},
                           {"nvlinkGbps", c.nvlinkGbps},
                           {"pcieGbps", c.pcieGbps},
                           {"frontendNicGbps", c.frontendNicGbps},
                           {"frontendUplinkGbps", c.frontendUplinkGbps},
                           {"frontendSpineGbps", c.frontendSpineGbps}})
        ck.positive(f + name, v, 1e6);
    for (auto [name, v] : {std::pair{"nvlinkLatencyNs", c.nvlinkLatencyNs},
                           {"pcieLatencyNs", c.pcieLatencyNs},
                           {"dacLatencyNs", c.dacLatencyNs},
                           {"podFibreLatencyNs", c.podFibreLatencyNs},
                           {"coreFibreLatencyNs", c.coreFibreLatencyNs}})
        ck.nonNegative(f + name, v, 1e9);
}

void checkClusterPorts(Checker& ck, const std::string& f, const ClusterParams& c) {
    // The switches must have the ports the wiring asks of them.
    const bool rail = c.railGroupRacks > 0;
    const long long up = 1LL * c.planes * c.leafUplinksPerPlane;
    const long long leafPorts = leafDownlinks(c) + up;
    if (leafPorts > c.leafRadix)
        ck.fail(f + "leafRadix",
                (rail ? "a rail leaf needs " : "a rack switch needs ") + std::to_string(leafPorts) +
                    (rail ? " ports (hostsPerRack x railGroupRacks down"
                          : " ports (hostsPerRack x gpusPerHost down") +
                    " + planes x leafUplinksPerPlane up), has " + std::to_string(c.leafRadix));
    const long long spines = 1LL * c.planes * c.spinesPerPlane;
    const long long uplinks = c.coresPerPlane == 0 ? 0 : podUplinkCount(c);
    const long long upPerSpine = (uplinks + spines - 1) / spines;
    const long long leavesPerSpine =
        (leavesPerPod(c) + c.spinesPerPlane - 1) / c.spinesPerPlane * c.leafUplinksPerPlane;
    if (leavesPerSpine + upPerSpine > c.spineRadix)
        ck.fail(f + "spineRadix",
                "a spine switch needs " + std::to_string(leavesPerSpine + upPerSpine) + " ports (" +
                    std::to_string(leavesPerSpine) + " from leaves + " +
                    std::to_string(upPerSpine) + " uplinks), has " + std::to_string(c.spineRadix));
    if (c.coresPerPlane == 0) return; // a single pod without a core tier
    const long long perCore =
        1LL * c.pods * c.spinesPerPlane * ((upPerSpine + c.coresPerPlane - 1) / c.coresPerPlane);
    if (perCore > c.coreRadix)
        ck.fail(f + "coreRadix", "a core switch needs " + std::to_string(perCore) + " ports, has " +
                                     std::to_string(c.coreRadix));
}

} // namespace

long long leavesPerPod(const ClusterParams& c) {
    return c.railGroupRacks > 0 ? 1LL * c.racksPerPod / c.railGroupRacks * c.gpusPerHost
                                : c.racksPerPod;
}

long long leafDownlinks(const ClusterParams& c) {
    return c.railGroupRacks > 0 ? 1LL * c.hostsPerRack * c.railGroupRacks
                                : 1LL * c.hostsPerRack * c.gpusPerHost;
}

long long podUplinkCount(const ClusterParams& c) {
    const double podInjectionGbps =
        double(c.racksPerPod) * c.hostsPerRack * c.gpusPerHost * c.nicGbps;
    const double count = std::llround(podInjectionGbps / (c.oversubscription * c.fabricGbps));
    return std::max(1LL, (long long)count);
}

std::optional<InputError> checkSiteParams(const SiteParams& p, const std::string& prefix) {
    Checker ck{prefix, std::nullopt};
    if (p.name.empty() || p.name.find_first_of(" \t\n.") != std::string::npos)
        ck.fail("name", "expected a non-empty name without spaces or dots");
    if (p.clusters.empty() || p.clusters.size() > size_t(kMaxClusters))
        ck.fail("clusters", "expected 1 to " + std::to_string(kMaxClusters) + " clusters, got " +
                                std::to_string(p.clusters.size()));
    long long gpus = 0;
    std::set<std::string> names{p.name};
    for (size_t i = 0; i < p.clusters.size() && !ck.error; ++i) {
        const ClusterParams& c = p.clusters[i];
        const std::string f = "clusters[" + std::to_string(i) + "].";
        checkClusterRanges(ck, f, c);
        if (!names.insert(c.name).second)
            ck.fail(f + "name",
                    "\"" + c.name + "\" is used twice (site and clusters need distinct names)");
        if (ck.error) break;
        gpus += 1LL * c.pods * c.racksPerPod * c.hostsPerRack * c.gpusPerHost;
        if (gpus > kMaxGpus)
            ck.fail(f + "pods", "the site would hold " + std::to_string(gpus) + " GPUs; at most " +
                                    std::to_string(kMaxGpus) + " are allowed");
        checkClusterPorts(ck, f, c);
    }
    const StorageParams& s = p.storage;
    ck.range("storage.tectonicServers", s.tectonicServers, 0, kMaxStorageServers);
    ck.range("storage.hammerspaceServers", s.hammerspaceServers, 0, kMaxStorageServers);
    ck.range("storage.serversPerRack", s.serversPerRack, 1, 1000);
    ck.range("storage.racksPerRow", s.racksPerRow, 1, 1000);
    ck.range("storage.frontendSpines", s.frontendSpines, 1, 1024);
    ck.range("storage.storageTorUplinks", s.storageTorUplinks, 1, 1024);
    ck.positive("storage.tectonicServerGbps", s.tectonicServerGbps, 1e6);
    ck.positive("storage.hammerspaceServerGbps", s.hammerspaceServerGbps, 1e6);
    ck.positive("storage.storageUplinkGbps", s.storageUplinkGbps, 1e6);
    ck.nonNegative("storage.storageLatencyNs", s.storageLatencyNs, 1e9);
    ck.nonNegative("storage.spineFibreLatencyNs", s.spineFibreLatencyNs, 1e9);
    if (p.gpuModel.empty()) ck.fail("gpuModel", "expected a GPU model name");
    return ck.error;
}

} // namespace cs
