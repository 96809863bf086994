#include "SiteParamsJson.h"

#include <climits>

namespace cs {
namespace {

// One list of the numeric fields serves reading and writing.
template <typename Visit> void visitNumbers(ClusterParams& c, Visit&& v) {
    v("pods", c.pods);
    v("racksPerPod", c.racksPerPod);
    v("hostsPerRack", c.hostsPerRack);
    v("gpusPerHost", c.gpusPerHost);
    v("cpusPerHost", c.cpusPerHost);
    v("racksPerRow", c.racksPerRow);
    v("planes", c.planes);
    v("spinesPerPlane", c.spinesPerPlane);
    v("leafRadix", c.leafRadix);
    v("spineRadix", c.spineRadix);
    v("coresPerPlane", c.coresPerPlane);
    v("leafUplinksPerPlane", c.leafUplinksPerPlane);
    v("railGroupRacks", c.railGroupRacks);
    v("coreRadix", c.coreRadix);
    v("oversubscription", c.oversubscription);
    v("spinesPerNetworkRack", c.spinesPerNetworkRack);
    v("nicGbps", c.nicGbps);
    v("fabricGbps", c.fabricGbps);
    v("nvlinkGbps", c.nvlinkGbps);
    v("pcieGbps", c.pcieGbps);
    v("nvlinkLatencyNs", c.nvlinkLatencyNs);
    v("pcieLatencyNs", c.pcieLatencyNs);
    v("dacLatencyNs", c.dacLatencyNs);
    v("podFibreLatencyNs", c.podFibreLatencyNs);
    v("coreFibreLatencyNs", c.coreFibreLatencyNs);
    v("frontendNicGbps", c.frontendNicGbps);
    v("frontendFabricPerPod", c.frontendFabricPerPod);
    v("frontendUplinkGbps", c.frontendUplinkGbps);
    v("frontendSpineGbps", c.frontendSpineGbps);
}

template <typename Visit> void visitNumbers(StorageParams& s, Visit&& v) {
    v("tectonicServers", s.tectonicServers);
    v("hammerspaceServers", s.hammerspaceServers);
    v("serversPerRack", s.serversPerRack);
    v("racksPerRow", s.racksPerRow);
    v("tectonicServerGbps", s.tectonicServerGbps);
    v("hammerspaceServerGbps", s.hammerspaceServerGbps);
    v("frontendSpines", s.frontendSpines);
    v("storageTorUplinks", s.storageTorUplinks);
    v("storageUplinkGbps", s.storageUplinkGbps);
    v("storageLatencyNs", s.storageLatencyNs);
    v("spineFibreLatencyNs", s.spineFibreLatencyNs);
}

struct Writer {
    QJsonObject& o;
    void operator()(const char* key, int v) { o.insert(QLatin1String(key), v); }
    void operator()(const char* key, double v) { o.insert(QLatin1String(key), v); }
};

struct Reader {
    JsonObjectReader& r;
    void operator()(const char* key, int& v) { v = int(r.integer(key, INT_MIN, INT_MAX, v)); }
    void operator()(const char* key, double& v) { v = r.number(key, -1e300, 1e300, v); }
};

} // namespace

QJsonObject siteParamsToJson(const SiteParams& p) {
    QJsonObject o;
    o.insert("name", QString::fromStdString(p.name));
    o.insert("gpuModel", QString::fromStdString(p.gpuModel));
    QJsonArray clusters;
    for (ClusterParams c : p.clusters) {
        QJsonObject co;
        co.insert("name", QString::fromStdString(c.name));
        co.insert("fabric", QString::fromUtf8(toString(c.fabric).data()));
        visitNumbers(c, Writer{co});
        clusters.append(co);
    }
    o.insert("clusters", clusters);
    QJsonObject so;
    StorageParams s = p.storage;
    visitNumbers(s, Writer{so});
    o.insert("storage", so);
    return o;
}

SiteParams siteParamsFromJson(const QJsonValue& v, const JsonPath& path) {
    JsonObjectReader r(v, path);
    SiteParams p;
    p.name = r.string("name", p.name);
    p.gpuModel = r.string("gpuModel", p.gpuModel);
    const QJsonArray clusters = r.array("clusters", kMaxClusters);
    for (qsizetype i = 0; i < clusters.size(); ++i) {
        JsonObjectReader cr(clusters[i], r.pathOf("clusters").child(int(i)));
        ClusterParams c;
        c.name = cr.string("name", c.name);
        const std::string fabric = cr.string("fabric", std::string(toString(c.fabric)));
        const auto f = parseFabric(fabric);
        if (!f)
            cr.fail("fabric",
                    "expected " + std::string(fabricChoices()) + ", got \"" + fabric + "\"");
        c.fabric = *f;
        visitNumbers(c, Reader{cr});
        cr.finish();
        p.clusters.push_back(c);
    }
    if (r.has("storage")) {
        JsonObjectReader sr = r.object("storage");
        visitNumbers(p.storage, Reader{sr});
        sr.finish();
    }
    r.finish();
    return p;
}

} // namespace cs
