#include "DesignFields.h"
#include "SiteGenerator.h"
#include "SiteParamsFixes.h"

#include <cmath>
#include <set>

namespace cs {
namespace {

struct Checker {
    const SiteParams& p;
    std::string prefix;
    bool explain; // append the smallest changes that fit (SiteParamsFixes.h)
    std::optional<InputError> error;

    void fail(const std::string& field, const std::string& message) {
        if (!error) error = InputError{{}, 0, 0, prefix + "." + field, message};
    }
    // A problem of cluster i that the candidates' fields may resolve.
    void fail(const std::string& field, const std::string& message, int cluster,
              const std::vector<FixCandidate>& candidates) {
        if (error) return;
        fail(field, message + (explain ? fixesText(smallestFixes(p, cluster, candidates)) : ""));
    }
};

// The field's key below the prefix: "clusters[0].pods".
std::string relativeKey(const DesignField& f, int cluster) {
    const std::string key = designFieldKey(f, cluster);
    return key.substr(key.find('.') + 1);
}

// Every value of the scope in its field's range; files and --set refuse them on reading, and
// parameters built in code are held to the same table here.
void checkRanges(Checker& ck, DesignScope scope, int cluster) {
    for (const DesignField& f : designFields())
        if (f.scope == scope && !ck.error && !fieldValueAllowed(f, f.get(ck.p, cluster)))
            ck.fail(relativeKey(f, cluster), "expected " + fieldExpected(f) + ", got " +
                                                 designFieldText(ck.p, f, cluster).toStdString());
}

// What one field's range cannot say: the core tier and the rail units.
void checkClusterShape(Checker& ck, const std::string& f, int i) {
    const ClusterParams& c = ck.p.clusters[size_t(i)];
    if (const auto conflict = transportConflict(c.fabric, transportSettingsOf(c)))
        ck.fail(f + conflict->field, conflict->message);
    if (c.railGroupRacks > 0 && c.racksPerPod % c.railGroupRacks != 0)
        ck.fail(f + "railGroupRacks",
                "expected a divisor of racksPerPod (" + std::to_string(c.racksPerPod) +
                    "): every scalable unit is whole",
                i, {{"railGroupRacks", -1}, {"railGroupRacks", +1}, {"racksPerPod", +1}});
    if (c.planesPerRail > 0 &&
        (c.railGroupRacks == 0 || 1LL * c.planesPerRail * c.gpusPerHost != c.planes))
        ck.fail(f + "planesPerRail",
                "a multi-plane fabric needs rail wiring (railGroupRacks > 0) and planes = "
                "planesPerRail x gpusPerHost (" +
                    std::to_string(1LL * c.planesPerRail * c.gpusPerHost) + "), has planes " +
                    std::to_string(c.planes) + " and railGroupRacks " +
                    std::to_string(c.railGroupRacks),
                i, {{"planesPerRail", -1}, {"planes", +1}});
}

void checkClusterPorts(Checker& ck, const std::string& f, int i) {
    // The switches must have the ports the wiring asks of them.
    const ClusterParams& c = ck.p.clusters[size_t(i)];
    const bool rail = c.railGroupRacks > 0;
    const long long up =
        1LL * (c.planesPerRail > 0 ? c.planesPerRail : c.planes) * c.leafUplinksPerPlane;
    const long long leafPorts = leafDownlinks(c) + up;
    if (leafPorts > c.leafRadix)
        ck.fail(f + "leafRadix",
                (rail ? "a rail leaf needs " : "a rack switch needs ") + std::to_string(leafPorts) +
                    (rail ? " ports (hostsPerRack x railGroupRacks down"
                          : " ports (hostsPerRack x gpusPerHost down") +
                    " + planes x leafUplinksPerPlane up), has " + std::to_string(c.leafRadix),
                i, {{"leafRadix", +1}, {"planes", -1}, {"leafUplinksPerPlane", -1}});
    const int cores = coresPerPlaneBuilt(c);
    const long long upPerSpine = cores == 0 ? 0 : uplinksPerSpine(c);
    // A plane of a multi-plane fabric serves one rail's leaves.
    const long long planeLeaves =
        c.planesPerRail > 0 ? leavesPerPod(c) / c.gpusPerHost : leavesPerPod(c);
    const long long leavesPerSpine =
        (planeLeaves + c.spinesPerPlane - 1) / c.spinesPerPlane * c.leafUplinksPerPlane;
    if (leavesPerSpine + upPerSpine > c.spineRadix)
        ck.fail(f + "spineRadix",
                "a spine switch needs " + std::to_string(leavesPerSpine + upPerSpine) + " ports (" +
                    std::to_string(leavesPerSpine) + " from leaves + " +
                    std::to_string(upPerSpine) + " uplinks), has " + std::to_string(c.spineRadix),
                i, {{"spineRadix", +1}, {"spinesPerPlane", +1}});
    if (cores == 0) return; // a single pod without a core tier
    // Each pod's uplinks of a plane go round the plane's cores in turn.
    const long long perCore = 1LL * c.pods * ((c.spinesPerPlane * upPerSpine + cores - 1) / cores);
    if (perCore > c.coreRadix)
        ck.fail(f + "coreRadix",
                "a core switch needs " + std::to_string(perCore) + " ports, has " +
                    std::to_string(c.coreRadix),
                i, {{"coreRadix", +1}, {"coresPerPlane", +1}});
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

long long uplinksPerSpine(const ClusterParams& c) {
    const long long spines = 1LL * c.planes * c.spinesPerPlane;
    return (podUplinkCount(c) + spines - 1) / spines;
}

int coresPerPlaneBuilt(const ClusterParams& c) {
    if (c.coresPerPlane > 0) return c.coresPerPlane;
    if (c.pods <= 1) return 0;
    const long long up = uplinksPerSpine(c);
    const long long ports = 1LL * c.pods * c.spinesPerPlane * up; // a plane's uplinks
    const long long fewest = std::max(1LL, (ports + c.coreRadix - 1) / c.coreRadix);
    for (long long k = fewest; k <= up; ++k)
        if (up % k == 0) return int(k);
    return int(std::min<long long>(fewest, 4096)); // more cores than a spine has uplinks
}

std::optional<InputError> checkSiteParams(const SiteParams& p, const std::string& prefix,
                                          bool suggestFixes) {
    Checker ck{p, prefix, suggestFixes, std::nullopt};
    checkRanges(ck, DesignScope::Site, 0);
    if (p.clusters.empty() || p.clusters.size() > size_t(kMaxClusters))
        ck.fail("clusters", "expected 1 to " + std::to_string(kMaxClusters) + " clusters, got " +
                                std::to_string(p.clusters.size()));
    long long gpus = 0;
    std::set<std::string> names{p.name};
    for (size_t i = 0; i < p.clusters.size() && !ck.error; ++i) {
        const ClusterParams& c = p.clusters[i];
        const std::string f = "clusters[" + std::to_string(i) + "].";
        checkRanges(ck, DesignScope::Cluster, int(i));
        checkClusterShape(ck, f, int(i));
        if (!ck.error && !names.insert(c.name).second)
            ck.fail(f + "name", "\"" + c.name +
                                    "\" is used twice (site and clusters need distinct names)" +
                                    (suggestFixes ? fixesText({freeClusterName(p, int(i))}) : ""));
        if (ck.error) break;
        gpus += 1LL * c.pods * c.racksPerPod * c.hostsPerRack * c.gpusPerHost;
        if (gpus > kMaxGpus)
            ck.fail(f + "pods",
                    "the site would hold " + std::to_string(gpus) + " GPUs; at most " +
                        std::to_string(kMaxGpus) + " are allowed",
                    int(i), {{"pods", -1}, {"racksPerPod", -1}});
        checkClusterPorts(ck, f, int(i));
    }
    checkRanges(ck, DesignScope::Storage, 0);
    return ck.error;
}

} // namespace cs
