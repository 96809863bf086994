#include "EntityProperties.h"

#include <cmath>
#include <cstdio>

namespace cs {

std::string groupDigits(long long v) {
    const std::string d = std::to_string(v < 0 ? -v : v);
    std::string r = v < 0 ? "-" : "";
    for (size_t i = 0; i < d.size(); ++i) {
        if (i && (d.size() - i) % 3 == 0) r += ',';
        r += d[i];
    }
    return r;
}

std::string formatGbps(double gbps) {
    char buf[64];
    if (gbps >= 1e6)
        std::snprintf(buf, sizeof buf, "%.1f Pb/s", gbps / 1e6);
    else if (gbps >= 1e3)
        std::snprintf(buf, sizeof buf, "%.1f Tb/s", gbps / 1e3);
    else
        std::snprintf(buf, sizeof buf, "%g Gb/s", gbps);
    return buf;
}

namespace {

std::string ratio(double v) {
    if (std::isnan(v)) return "not applicable (no tier above the pod)";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f : 1", v);
    return buf;
}

void addLinks(PropertyList& out, const TopologyDocument& doc, Endpoint e) {
    const Topology& t = doc.topology();
    const auto links = doc.index().linksOf(e);
    double gbps = 0;
    for (int32_t l : links)
        gbps += t.links[size_t(l)].gbps;
    out.emplace_back("links", groupDigits((long long)links.size()) + " (" + formatGbps(gbps) + ")");
    for (size_t i = 0; i < links.size() && i < 8; ++i) {
        const Link& l = t.links[size_t(links[i])];
        const Endpoint other = l.a == e ? l.b : l.a;
        out.emplace_back("  to", t.nameOf(other) + "  [" + std::string(toString(l.medium)) + ", " +
                                     formatGbps(l.gbps) + "]");
    }
    if (links.size() > 8)
        out.emplace_back("  ...", groupDigits((long long)links.size() - 8) + " more");
}

std::string rackPlace(const Topology& t, int32_t rack) {
    if (rack == kNone) return "-";
    const Rack& r = t.racks[size_t(rack)];
    return r.name + " (row " + t.rows[size_t(r.row)].name + ", position " +
           std::to_string(r.position) + ")";
}

} // namespace

PropertyList entityProperties(const TopologyDocument& doc, Endpoint e) {
    const Topology& t = doc.topology();
    PropertyList out;
    if (e.index < 0 || size_t(e.index) >= t.count(e.kind)) return out;
    out.emplace_back("id", t.nameOf(e));
    out.emplace_back("kind", std::string(toString(e.kind)));
    const auto i = size_t(e.index);
    switch (e.kind) {
    case EntityKind::Cluster: {
        out.emplace_back("fabric", std::string(toString(t.clusters[i].fabric)));
        out.emplace_back("pods", groupDigits((long long)doc.index().podsOfCluster(e.index).size()));
        out.emplace_back("GPUs", groupDigits(doc.index().gpusOfCluster(e.index)));
        break;
    }
    case EntityKind::Pod: {
        const PodStats& p = doc.stats().podStats[i];
        out.emplace_back("cluster", t.clusters[size_t(t.pods[i].cluster)].name);
        out.emplace_back("GPUs", groupDigits(p.gpus));
        out.emplace_back("racks", groupDigits((long long)doc.index().racksOfPod(e.index).size()));
        out.emplace_back("injection", formatGbps(p.injectionGbps));
        out.emplace_back("uplink", formatGbps(p.uplinkGbps));
        out.emplace_back("oversubscription", ratio(p.oversubscription));
        out.emplace_back("bisection",
                         formatGbps(p.bisectionGbps) + (p.fullBisection ? " (full)" : ""));
        break;
    }
    case EntityKind::Row: {
        const Row& r = t.rows[i];
        out.emplace_back("pod", r.pod == kNone ? "-" : t.pods[size_t(r.pod)].name);
        break;
    }
    case EntityKind::Rack: {
        const Rack& r = t.racks[i];
        out.emplace_back("role", std::string(toString(r.role)));
        out.emplace_back("place", rackPlace(t, e.index));
        out.emplace_back("hosts", groupDigits((long long)doc.index().hostsOfRack(e.index).size()));
        out.emplace_back("switches",
                         groupDigits((long long)doc.index().switchesOfRack(e.index).size()));
        out.emplace_back("storage servers",
                         groupDigits((long long)doc.index().storageOfRack(e.index).size()));
        break;
    }
    case EntityKind::Host: {
        const Host& h = t.hosts[i];
        out.emplace_back("rack", rackPlace(t, h.rack));
        out.emplace_back("slot", std::to_string(h.slot));
        out.emplace_back("GPUs", std::to_string(h.gpuCount) + " x " + t.gpuModel);
        out.emplace_back("CPUs", std::to_string(h.cpuCount));
        break;
    }
    case EntityKind::Gpu: {
        const Gpu& g = t.gpus[i];
        out.emplace_back("host", t.hosts[size_t(g.host)].name);
        out.emplace_back("local index", std::to_string(g.local));
        out.emplace_back("model", t.gpuModel);
        addLinks(out, doc, e);
        break;
    }
    case EntityKind::Nic: {
        const Nic& n = t.nics[i];
        out.emplace_back("host", t.hosts[size_t(n.host)].name);
        out.emplace_back("role", std::string(toString(n.role)));
        out.emplace_back("speed", formatGbps(n.gbps));
        addLinks(out, doc, e);
        break;
    }
    case EntityKind::Switch: {
        const Switch& s = t.switches[i];
        out.emplace_back("role", std::string(toString(s.role)));
        out.emplace_back("network", std::string(toString(networkOf(s.role))));
        out.emplace_back("tier", std::to_string(tierOf(s.role)));
        if (s.plane != kNone) out.emplace_back("plane", std::to_string(s.plane));
        out.emplace_back("rack", rackPlace(t, s.rack));
        out.emplace_back("ports", std::to_string(s.ports));
        addLinks(out, doc, e);
        break;
    }
    case EntityKind::Storage: {
        const StorageServer& s = t.storage[i];
        out.emplace_back("system", std::string(toString(s.kind)));
        out.emplace_back("rack", rackPlace(t, s.rack));
        out.emplace_back("network", formatGbps(s.gbps));
        addLinks(out, doc, e);
        break;
    }
    case EntityKind::Link: {
        const Link& l = t.links[i];
        out.emplace_back("medium", std::string(toString(l.medium)));
        out.emplace_back("speed", formatGbps(l.gbps) + " per direction");
        out.emplace_back("latency", std::to_string(int(l.latencyNs)) + " ns");
        out.emplace_back("a", t.nameOf(l.a) + (l.portA ? " port " + std::to_string(l.portA) : ""));
        out.emplace_back("b", t.nameOf(l.b) + (l.portB ? " port " + std::to_string(l.portB) : ""));
        break;
    }
    }
    // What a foreign fabric file did not say and the importer inferred, per fact.
    for (const InferredFact* f : inferredFactsFor(doc.inferred(), e.kind))
        out.emplace_back("inferred: " + f->what, f->how);
    return out;
}

} // namespace cs
