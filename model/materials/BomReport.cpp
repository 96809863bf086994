#include "BomReport.h"

#include "EntityProperties.h"

#include <QJsonArray>

#include <cmath>
#include <cstdio>

namespace cs {
namespace {

QString q(std::string_view s) {
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

QJsonObject switchesJson(const BillOfMaterials& b) {
    QJsonObject roles;
    for (int i = 0; i < kSwitchRoleCount; ++i)
        roles.insert(q(toString(SwitchRole(i))), b.switches.byRole[size_t(i)]);
    QJsonArray radix;
    for (const SwitchCount& s : b.switches.byRoleAndRadix)
        radix.append(
            QJsonObject{{"role", q(toString(s.role))}, {"radix", s.radix}, {"count", s.count}});
    return {{"total", b.switches.total},
            {"backend", b.switches.backend},
            {"byRole", roles},
            {"byRoleAndRadix", radix}};
}

QJsonObject linksJson(const BillOfMaterials& b) {
    QJsonObject media;
    for (int i = 0; i < kLinkMediumCount; ++i)
        media.insert(q(toString(LinkMedium(i))), b.links.byMedium[size_t(i)]);
    QJsonArray speeds;
    for (const LinkCount& l : b.links.byMediumAndSpeed)
        speeds.append(QJsonObject{
            {"medium", q(toString(l.medium))}, {"gbps", double(l.gbps)}, {"count", l.count}});
    return {{"total", b.links.total},
            {"backendInterSwitch", b.links.backendInterSwitch},
            {"byMedium", media},
            {"byMediumAndSpeed", speeds}};
}

QJsonObject cablesJson(const BillOfMaterials& b) {
    QJsonObject kinds, routed;
    for (int k = 0; k < 2; ++k) {
        kinds.insert(q(kCableKindNames.name(CableKind(k))), b.cables.byKind[size_t(k)]);
        routed.insert(q(kCableKindNames.name(CableKind(k))), b.cables.routedM[size_t(k)]);
    }
    QJsonArray classes;
    for (const CableCount& c : b.cables.byLengthClass)
        classes.append(QJsonObject{{"kind", q(kCableKindNames.name(c.kind))},
                                   {"gbps", double(c.gbps)},
                                   {"lengthM", c.lengthClassM},
                                   {"count", c.count},
                                   {"routedM", c.routedM}});
    return {{"total", b.cables.total},
            {"byKind", kinds},
            {"routedM", routed},
            {"byLengthClass", classes}};
}

QJsonObject costJson(const BillOfMaterials& b) {
    QJsonObject byCategory;
    for (int c = 0; c < kBomCategoryCount; ++c)
        byCategory.insert(q(kBomCategoryNames.name(BomCategory(c))),
                          b.cost.byCategoryUsd[size_t(c)]);
    return {{"currency", "USD"},
            {"total", b.cost.totalUsd},
            {"perGpu", b.cost.perGpuUsd},
            {"backendFabric", b.cost.backendFabricUsd},
            {"perBackendEndpoint", b.cost.perBackendEndpointUsd},
            {"network", b.cost.networkUsd},
            {"perGpuNetwork", b.cost.perGpuNetworkUsd},
            {"byCategory", byCategory}};
}

std::string money(double usd) {
    return "$" + groupDigits(std::llround(usd));
}

std::string watts(double w) {
    char buf[32];
    if (std::abs(w) >= 1e6)
        std::snprintf(buf, sizeof buf, "%.2f MW", w / 1e6);
    else if (std::abs(w) >= 1e3)
        std::snprintf(buf, sizeof buf, "%.1f kW", w / 1e3);
    else
        std::snprintf(buf, sizeof buf, "%.0f W", w);
    return buf;
}

} // namespace

QJsonObject runPowerToJson(const RunPower& r) {
    return {{"source", r.fromBusy ? "gpu_busy" : "site_power_w"},
            {"peakW", r.peakW},
            {"peakAtS", r.peakAtS},
            {"troughW", r.troughW},
            {"troughAtS", r.troughAtS},
            {"swingW", r.swing.w},
            {"swingFromS", r.swing.fromS},
            {"swingToS", r.swing.toS},
            {"swingRising", r.swing.rising},
            {"swingWindowS", r.windowS},
            {"resolutionS", r.resolutionS}};
}

QJsonObject bomToJson(const BillOfMaterials& b, const RunPower* run) {
    QJsonObject o{{"topology", q(b.topology)},
                  {"gpuModel", q(b.gpuModel)},
                  {"gpus", b.gpus},
                  {"hosts", b.hosts},
                  {"racks", b.racks},
                  {"networkRacks", b.networkRacks},
                  {"storageRacks", b.storageRacks},
                  {"nics", b.nics},
                  {"storageServers", b.storageServers},
                  {"backendEndpoints", b.backendEndpoints},
                  {"switches", switchesJson(b)},
                  {"links", linksJson(b)},
                  {"transceivers", b.transceivers},
                  {"cables", cablesJson(b)}};
    QJsonArray transceivers;
    for (const SpeedCount& s : b.transceiversBySpeed)
        transceivers.append(QJsonObject{
            {"gbps", double(s.gbps)}, {"count", s.count}, {"infiniBand", s.infiniBand}});
    o.insert("transceiversBySpeed", transceivers);
    QJsonArray ports;
    for (const PortCount& p : b.ports)
        ports.append(QJsonObject{{"role", q(toString(p.role))},
                                 {"tier", p.tier},
                                 {"switches", p.switches},
                                 {"ports", p.ports},
                                 {"used", p.used},
                                 {"free", p.free}});
    o.insert("ports", ports);
    const SitePower& w = b.power;
    o.insert("powerW", QJsonObject{{"total", w.totalW()},
                                   {"idle", w.idleW()},
                                   {"gpus", w.gpusW},
                                   {"gpusIdle", w.gpusIdleW},
                                   {"hosts", w.hostsW},
                                   {"nics", w.nicsW},
                                   {"switches", w.switchesW},
                                   {"optics", w.opticsW},
                                   {"storage", w.storageW}});
    o.insert(
        "rackKw",
        QJsonObject{{"max", b.rackKw.max}, {"mean", b.rackKw.mean}, {"racks", b.rackKw.racks}});
    o.insert("cost", costJson(b));
    QJsonArray items;
    for (const BomLine& l : b.lines)
        items.append(QJsonObject{{"item", q(l.item)},
                                 {"category", q(kBomCategoryNames.name(l.category))},
                                 {"count", l.count},
                                 {"unitPriceUsd", l.unitUsd},
                                 {"costUsd", l.costUsd},
                                 {"unitPowerW", l.unitPowerW},
                                 {"powerW", l.powerW}});
    o.insert("items", items);
    QJsonArray prices;
    for (const auto& [key, p] : b.pricesUsed)
        prices.append(QJsonObject{{"key", q(key)},
                                  {"usd", p.usd},
                                  {"source", q(p.source)},
                                  {"date", q(p.date)},
                                  {"file", q(p.file)}});
    o.insert("prices", prices);
    if (run) o.insert("runPower", runPowerToJson(*run));
    return o;
}

std::string bomToText(const BillOfMaterials& b, const RunPower* run) {
    std::string out;
    char buf[512];
    auto line = [&](const std::string& label, const std::string& value) {
        std::snprintf(buf, sizeof buf, "%-30s %s\n", label.c_str(), value.c_str());
        out += buf;
    };
    auto n = groupDigits;
    line("bill of materials", b.topology + " (" + b.gpuModel + ")");
    line("GPUs", n(b.gpus));
    line("hosts", n(b.hosts));
    line("racks (compute)",
         n(b.racks) + "  + " + n(b.networkRacks) + " network, " + n(b.storageRacks) + " storage");
    line("NICs", n(b.nics) + "  (" + n(b.backendEndpoints) + " backend endpoints)");
    line("storage servers", n(b.storageServers));
    line("switches", n(b.switches.total) + "  (" + n(b.switches.backend) + " backend)");
    for (const SwitchCount& s : b.switches.byRoleAndRadix)
        line("  " + std::string(toString(s.role)) + ", " + std::to_string(s.radix) + " ports",
             n(s.count));
    line("links",
         n(b.links.total) + "  (" + n(b.links.backendInterSwitch) + " between backend switches)");
    for (const LinkCount& l : b.links.byMediumAndSpeed)
        line("  " + std::string(toString(l.medium)) + " " + speedKey(l.gbps), n(l.count));
    line("transceivers", n(b.transceivers) + "  (two per fibre link)");
    for (const SpeedCount& s : b.transceiversBySpeed)
        line("  " + speedKey(s.gbps) + (s.infiniBand ? " InfiniBand" : ""), n(s.count));
    for (int k = 0; k < 2; ++k) {
        std::snprintf(buf, sizeof buf, "%s  (%s m routed)", n(b.cables.byKind[size_t(k)]).c_str(),
                      n(std::llround(b.cables.routedM[size_t(k)])).c_str());
        line(std::string(kCableKindNames.label(CableKind(k))) + " cables", buf);
    }
    for (const CableCount& c : b.cables.byLengthClass)
        line("  " + std::string(kCableKindNames.label(c.kind)) + " " + speedKey(c.gbps) + ", " +
                 QString::number(c.lengthClassM).toStdString() + " m",
             n(c.count));
    out += "\nports by role                  switches       ports        used        free\n";
    for (const PortCount& p : b.ports) {
        std::snprintf(
            buf, sizeof buf, "  %-28s %9s %11s %11s %11s\n",
            (std::string(toString(p.role)) + " (tier " + std::to_string(p.tier) + ")").c_str(),
            n(p.switches).c_str(), n(p.ports).c_str(), n(p.used).c_str(), n(p.free).c_str());
        out += buf;
    }
    const SitePower& w = b.power;
    out += "\n";
    line("power, GPUs at their limit", watts(w.totalW()) + "  (" + watts(w.idleW()) + " idle)");
    line("  GPUs", watts(w.gpusW) + "  (" + watts(w.gpusIdleW) + " idle)");
    line("  hosts without GPUs and NICs", watts(w.hostsW));
    line("  NICs", watts(w.nicsW));
    line("  switches", watts(w.switchesW));
    line("  optics", watts(w.opticsW));
    line("  storage", watts(w.storageW));
    std::snprintf(buf, sizeof buf, "max %.1f kW, mean %.1f kW over %s racks", b.rackKw.max,
                  b.rackKw.mean, n(b.rackKw.racks).c_str());
    line("rack power", buf);
    if (run) {
        std::snprintf(buf, sizeof buf, "peak %s at %.2f s, trough %s at %.2f s%s",
                      watts(run->peakW).c_str(), run->peakAtS, watts(run->troughW).c_str(),
                      run->troughAtS, run->fromBusy ? " (from GPU busy)" : "");
        line("run power", buf);
        std::snprintf(buf, sizeof buf, "%s %s from %.2f s to %.2f s (within %g s)",
                      watts(run->swing.w).c_str(), run->swing.rising ? "up" : "down",
                      run->swing.fromS, run->swing.toS, run->windowS);
        line("  largest swing", buf);
    }
    out += "\n";
    line("cost", money(b.cost.totalUsd) + "  (" + money(b.cost.perGpuUsd) + " per GPU)");
    for (int c = 0; c < kBomCategoryCount; ++c)
        if (b.cost.byCategoryUsd[size_t(c)] > 0)
            line("  " + std::string(kBomCategoryNames.label(BomCategory(c))),
                 money(b.cost.byCategoryUsd[size_t(c)]));
    line("network", money(b.cost.networkUsd) + "  (" + money(b.cost.perGpuNetworkUsd) +
                        " per GPU: switches, NICs, transceivers, cables)");
    line("backend fabric", money(b.cost.backendFabricUsd) + "  (" +
                               money(b.cost.perBackendEndpointUsd) + " per backend endpoint)");
    out += "\nitem                                        count      unit price            cost"
           "        power\n";
    for (const BomLine& l : b.lines) {
        std::snprintf(buf, sizeof buf, "  %-40s %9s %15s %15s %12s\n", l.item.c_str(),
                      n(l.count).c_str(), money(l.unitUsd).c_str(), money(l.costUsd).c_str(),
                      watts(l.powerW).c_str());
        out += buf;
    }
    std::string files;
    for (const auto& [key, p] : b.pricesUsed)
        if (files.find(p.file) == std::string::npos) files += (files.empty() ? "" : ", ") + p.file;
    out += "\nprices from " + files + " (bom --json lists each with its source and date)\n";
    return out;
}

std::string bomToCsv(const BillOfMaterials& b) {
    std::string out = "item,count,unit_price_usd,cost_usd,power_w\n";
    char buf[128];
    for (const BomLine& l : b.lines) {
        std::string item = l.item;
        for (size_t at = item.find('"'); at != std::string::npos; at = item.find('"', at + 2))
            item.insert(at, "\"");
        std::snprintf(buf, sizeof buf, ",%lld,%.2f,%.2f,%.1f\n", l.count, l.unitUsd, l.costUsd,
                      l.powerW);
        out += "\"" + item + "\"" + buf;
    }
    return out;
}

} // namespace cs
