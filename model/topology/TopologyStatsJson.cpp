#include "TopologyStatsJson.h"

#include "EntityProperties.h"

#include <QJsonArray>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace cs {
namespace {
QString q(std::string_view s) {
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}
bool allPodsFull(const TopologyStats& s) {
    if (s.podStats.empty()) return false;
    for (const PodStats& p : s.podStats)
        if (!p.fullBisection) return false;
    return true;
}
} // namespace

QJsonObject statsToJson(const Topology& t, const TopologyStats& s) {
    QJsonObject o;
    o.insert("name", QString::fromStdString(t.name));
    if (!t.description.empty()) o.insert("description", QString::fromStdString(t.description));
    o.insert("gpuModel", QString::fromStdString(t.gpuModel));
    o.insert("clusters", s.clusters);
    o.insert("pods", s.pods);
    o.insert("rows", s.rows);
    o.insert("racks", s.racks);
    o.insert("networkRacks", s.networkRacks);
    o.insert("storageRacks", s.storageRacks);
    o.insert("hosts", s.hosts);
    o.insert("gpus", s.gpus);
    o.insert("nics", s.nics);
    o.insert("switches", s.switches);
    o.insert("storageServers", s.storageServers);
    o.insert("tectonicServers", s.tectonicServers);
    o.insert("hammerspaceServers", s.hammerspaceServers);
    o.insert("links", s.links);
    QJsonObject roles, media, mediaGbps;
    for (int i = 0; i < kSwitchRoleCount; ++i)
        roles.insert(q(toString(SwitchRole(i))), s.switchesByRole[size_t(i)]);
    for (int i = 0; i < kLinkMediumCount; ++i) {
        media.insert(q(toString(LinkMedium(i))), s.linksByMedium[size_t(i)]);
        mediaGbps.insert(q(toString(LinkMedium(i))), s.gbpsByMedium[size_t(i)]);
    }
    o.insert("switchesByRole", roles);
    o.insert("linksByMedium", media);
    o.insert("gbpsByMedium", mediaGbps);
    o.insert("injectionGbps", s.injectionGbps);
    // null: not applicable (no pod has a tier above it), never 0.
    auto ratio = [](double r) { return std::isnan(r) ? QJsonValue() : QJsonValue(r); };
    o.insert("oversubscription", ratio(s.oversubscription));
    o.insert("fullBisectionInPods", allPodsFull(s));
    QJsonArray pods;
    for (const PodStats& p : s.podStats)
        pods.append(
            QJsonObject{{"name", QString::fromStdString(p.name)},
                        {"cluster", QString::fromStdString(t.clusters[size_t(p.cluster)].name)},
                        {"gpus", p.gpus},
                        {"injectionGbps", p.injectionGbps},
                        {"uplinkGbps", p.uplinkGbps},
                        {"oversubscription", ratio(p.oversubscription)},
                        {"bisectionGbps", p.bisectionGbps},
                        {"fullBisection", p.fullBisection}});
    o.insert("podStats", pods);
    return o;
}

std::string statsToText(const Topology& t, const TopologyStats& s) {
    std::string out;
    char buf[256];
    auto line = [&](const char* label, const std::string& value) {
        std::string l = label;
        l.resize(std::max<size_t>(l.size(), 26), ' ');
        out += l + " " + value + "\n";
    };
    auto n = groupDigits;
    line("topology", t.name + " (" + t.gpuModel + ")");
    if (!t.description.empty()) line("description", t.description);
    line("clusters", n(s.clusters));
    line("pods", n(s.pods));
    line("racks (compute)",
         n(s.racks) + "  + " + n(s.networkRacks) + " network, " + n(s.storageRacks) + " storage");
    line("hosts", n(s.hosts));
    line("GPUs", n(s.gpus));
    line("NICs", n(s.nics));
    line("storage servers", n(s.storageServers) + "  (" + n(s.tectonicServers) + " Tectonic, " +
                                n(s.hammerspaceServers) + " Hammerspace)");
    line("switches", n(s.switches));
    for (int i = 0; i < kSwitchRoleCount; ++i)
        if (s.switchesByRole[size_t(i)])
            line(("  " + std::string(toString(SwitchRole(i)))).c_str(),
                 n(s.switchesByRole[size_t(i)]));
    line("links", n(s.links));
    for (int i = 0; i < kLinkMediumCount; ++i)
        if (s.linksByMedium[size_t(i)])
            line(("  " + std::string(toString(LinkMedium(i)))).c_str(),
                 n(s.linksByMedium[size_t(i)]));
    line("backend injection", formatGbps(s.injectionGbps));
    if (std::isnan(s.oversubscription))
        std::snprintf(buf, sizeof buf, "not applicable (no tier above the pods)");
    else
        std::snprintf(buf, sizeof buf, "%.2f : 1 (worst pod)", s.oversubscription);
    line("pod oversubscription", buf);
    out +=
        "\npod                  GPUs  injection Tb/s  uplink Tb/s  oversub  bisection Tb/s  full\n";
    for (const PodStats& p : s.podStats) {
        char ratio[16];
        if (std::isnan(p.oversubscription))
            std::snprintf(ratio, sizeof ratio, "%8s", "n/a");
        else
            std::snprintf(ratio, sizeof ratio, "%8.2f", p.oversubscription);
        std::snprintf(buf, sizeof buf, "%-16s %8lld %15.1f %12.1f %s %15.1f  %s\n", p.name.c_str(),
                      p.gpus, p.injectionGbps / 1000, p.uplinkGbps / 1000, ratio,
                      p.bisectionGbps / 1000, p.fullBisection ? "yes" : "no");
        out += buf;
    }
    return out;
}

QJsonArray inferredToJson(const std::vector<InferredFact>& facts) {
    QJsonArray out;
    for (const InferredFact& f : facts)
        out.append(QJsonObject{{"what", QString::fromStdString(f.what)},
                               {"how", QString::fromStdString(f.how)},
                               {"count", f.count}});
    return out;
}

std::string inferredToText(const std::vector<InferredFact>& facts) {
    if (facts.empty()) return {};
    std::string out = "\ninferred (the file does not say; a FILE.structure.json sidecar can)\n";
    for (const InferredFact& f : facts)
        out += "  " + f.what + std::string(f.what.size() < 12 ? 12 - f.what.size() : 1, ' ') +
               f.how + " (" + std::to_string(f.count) + ")\n";
    return out;
}

} // namespace cs
