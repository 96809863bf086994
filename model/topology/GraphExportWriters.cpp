// The whole fabric (backend, frontend, storage) for graph tools and inventories: hosts,
// switches and storage servers as nodes; a host's NIC links and the switch links as edges.
// NVSwitches, GPUs and NICs stay inside their host (a host's GPU count is an attribute).
#include "FabricWriters.h"

#include <cstdio>
#include <set>
#include <stdexcept>

namespace cs {
namespace {

struct GraphNodeOut {
    std::string name, kind, role, rack, pod;
    int tier = 0, gpus = 0, ports = 0;
    double x = 0, y = 0; // floor position: rack slot along its row, row number
};
struct GraphEdgeOut {
    size_t a = 0, b = 0;
    std::string aPort, bPort, medium;
    double gbps = 0, latencyNs = 0;
};

// Hosts, non-NVSwitch switches and storage servers; a NIC's link becomes its host's edge.
void collect(const Topology& t, std::vector<GraphNodeOut>& nodes,
             std::vector<GraphEdgeOut>& edges) {
    auto place = [&](GraphNodeOut& n, int32_t rack, int slot) {
        if (rack == kNone) return;
        const Rack& r = t.racks[size_t(rack)];
        n.rack = r.name;
        n.x = r.position + slot * 0.05;
        n.y = r.row;
        const int32_t pod = t.podOfRack(rack);
        n.pod = pod == kNone ? "" : t.pods[size_t(pod)].name;
    };
    std::vector<size_t> hostNode(t.hosts.size()), switchNode(t.switches.size(), SIZE_MAX),
        storageNode(t.storage.size());
    for (size_t h = 0; h < t.hosts.size(); ++h) {
        GraphNodeOut n{t.hosts[h].name, "host"};
        n.gpus = t.hosts[h].gpuCount;
        place(n, t.hosts[h].rack, t.hosts[h].slot);
        hostNode[h] = nodes.size();
        nodes.push_back(std::move(n));
    }
    for (size_t s = 0; s < t.switches.size(); ++s) {
        const Switch& sw = t.switches[s];
        if (sw.role == SwitchRole::NvSwitch) continue;
        GraphNodeOut n{sw.name, "switch", std::string(toString(sw.role))};
        n.tier = tierOf(sw.role);
        n.ports = sw.ports;
        place(n, sw.rack, 0);
        switchNode[s] = nodes.size();
        nodes.push_back(std::move(n));
    }
    for (size_t i = 0; i < t.storage.size(); ++i) {
        GraphNodeOut n{t.storage[i].name, "storage", std::string(toString(t.storage[i].kind))};
        place(n, t.storage[i].rack, 0);
        storageNode[i] = nodes.size();
        nodes.push_back(std::move(n));
    }
    auto nodeOf = [&](Endpoint e, uint16_t port, std::string& portName) -> size_t {
        switch (e.kind) {
        case EntityKind::Nic:
            portName = t.nics[size_t(e.index)].name;
            return hostNode[size_t(t.nics[size_t(e.index)].host)];
        case EntityKind::Switch:
            portName = port ? std::to_string(port) : "";
            return switchNode[size_t(e.index)];
        case EntityKind::Storage:
            return storageNode[size_t(e.index)];
        default:
            return SIZE_MAX;
        }
    };
    for (const Link& l : t.links) {
        GraphEdgeOut e;
        e.a = nodeOf(l.a, l.portA, e.aPort);
        e.b = nodeOf(l.b, l.portB, e.bPort);
        if (e.a == SIZE_MAX || e.b == SIZE_MAX) continue; // inside a host
        e.medium = std::string(toString(l.medium));
        e.gbps = l.gbps;
        e.latencyNs = l.latencyNs;
        edges.push_back(std::move(e));
    }
}

std::string xmlEscaped(const std::string& s) {
    std::string out;
    for (char c : s)
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        default:
            out += c;
        }
    return out;
}

std::string dotQuoted(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out + "\"";
}

std::string num(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

// A CSV field, quoted when it holds a comma, a quote or a line break.
std::string csv(const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string out = "\"";
    for (char c : s)
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

std::string slug(const std::string& s) {
    std::string out;
    for (char c : s)
        out += std::isalnum((unsigned char)c) ? char(std::tolower((unsigned char)c)) : '-';
    return out;
}

} // namespace

QByteArray exportDocument(ExportFormat f, const Topology& t) {
    switch (f) {
    case ExportFormat::GraphML:
        return graphmlDocument(t);
    case ExportFormat::Dot:
        return dotDocument(t);
    case ExportFormat::IbNetDiscover:
        return ibnetdiscoverDocument(t);
    case ExportFormat::InfraGraph:
        return infragraphDocument(t);
    case ExportFormat::NetworkX:
        return networkxDocument(t);
    case ExportFormat::Ns3:
        return ns3Document(t);
    case ExportFormat::NetBox:
        break;
    }
    throw std::invalid_argument("NetBox is a set of CSV files: see netboxCsvFiles()");
}

QByteArray graphmlDocument(const Topology& t) {
    std::vector<GraphNodeOut> nodes;
    std::vector<GraphEdgeOut> edges;
    collect(t, nodes, edges);
    std::string out =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"
        "  <key id=\"name\" for=\"node\" attr.name=\"name\" attr.type=\"string\"/>\n"
        "  <key id=\"kind\" for=\"node\" attr.name=\"kind\" attr.type=\"string\"/>\n"
        "  <key id=\"role\" for=\"node\" attr.name=\"role\" attr.type=\"string\"/>\n"
        "  <key id=\"tier\" for=\"node\" attr.name=\"tier\" attr.type=\"int\"/>\n"
        "  <key id=\"gpus\" for=\"node\" attr.name=\"gpus\" attr.type=\"int\"/>\n"
        "  <key id=\"ports\" for=\"node\" attr.name=\"ports\" attr.type=\"int\"/>\n"
        "  <key id=\"rack\" for=\"node\" attr.name=\"rack\" attr.type=\"string\"/>\n"
        "  <key id=\"pod\" for=\"node\" attr.name=\"pod\" attr.type=\"string\"/>\n"
        "  <key id=\"x\" for=\"node\" attr.name=\"x\" attr.type=\"double\"/>\n"
        "  <key id=\"y\" for=\"node\" attr.name=\"y\" attr.type=\"double\"/>\n"
        "  <key id=\"medium\" for=\"edge\" attr.name=\"medium\" attr.type=\"string\"/>\n"
        "  <key id=\"gbps\" for=\"edge\" attr.name=\"gbps\" attr.type=\"double\"/>\n"
        "  <key id=\"latencyNs\" for=\"edge\" attr.name=\"latencyNs\" attr.type=\"double\"/>\n"
        "  <key id=\"sourcePort\" for=\"edge\" attr.name=\"sourcePort\" attr.type=\"string\"/>\n"
        "  <key id=\"targetPort\" for=\"edge\" attr.name=\"targetPort\" attr.type=\"string\"/>\n"
        "  <graph id=" +
        std::string("\"") + xmlEscaped(t.name) + "\" edgedefault=\"undirected\">\n";
    auto data = [&](const char* key, const std::string& v) {
        if (!v.empty())
            out += "      <data key=\"" + std::string(key) + "\">" + xmlEscaped(v) + "</data>\n";
    };
    for (size_t i = 0; i < nodes.size(); ++i) {
        const GraphNodeOut& n = nodes[i];
        out += "    <node id=\"n" + std::to_string(i) + "\">\n";
        data("kind", n.kind);
        data("role", n.role);
        if (n.tier) data("tier", std::to_string(n.tier));
        if (n.kind == "host") data("gpus", std::to_string(n.gpus));
        if (n.ports) data("ports", std::to_string(n.ports));
        data("rack", n.rack);
        data("pod", n.pod);
        data("x", num(n.x));
        data("y", num(n.y));
        out += "      <data key=\"name\">" + xmlEscaped(n.name) + "</data>\n    </node>\n";
    }
    for (const GraphEdgeOut& e : edges) {
        out += "    <edge source=\"n" + std::to_string(e.a) + "\" target=\"n" +
               std::to_string(e.b) + "\">\n";
        data("medium", e.medium);
        data("gbps", num(e.gbps));
        data("latencyNs", num(e.latencyNs));
        data("sourcePort", e.aPort);
        data("targetPort", e.bPort);
        out += "    </edge>\n";
    }
    out += "  </graph>\n</graphml>\n";
    return QByteArray::fromStdString(out);
}

QByteArray dotDocument(const Topology& t) {
    std::vector<GraphNodeOut> nodes;
    std::vector<GraphEdgeOut> edges;
    collect(t, nodes, edges);
    std::string out = "graph " + dotQuoted(t.name) + " {\n  node [shape=box];\n";
    for (const GraphNodeOut& n : nodes) {
        out += "  " + dotQuoted(n.name) + " [kind=" + n.kind;
        if (!n.role.empty()) out += ", role=" + dotQuoted(n.role);
        if (n.tier) out += ", tier=" + std::to_string(n.tier);
        if (n.kind == "host") out += ", gpus=" + std::to_string(n.gpus);
        if (!n.rack.empty()) out += ", rack=" + dotQuoted(n.rack);
        if (!n.pod.empty()) out += ", pod=" + dotQuoted(n.pod);
        out += ", pos=\"" + num(n.x * 100) + "," + num(n.y * 100) + "\"];\n";
    }
    for (const GraphEdgeOut& e : edges)
        out += "  " + dotQuoted(nodes[e.a].name) + " -- " + dotQuoted(nodes[e.b].name) +
               " [medium=" + dotQuoted(e.medium) + ", gbps=" + num(e.gbps) + "];\n";
    return QByteArray::fromStdString(out + "}\n");
}

std::vector<std::pair<std::string, QByteArray>> netboxCsvFiles(const Topology& t) {
    std::vector<GraphNodeOut> nodes;
    std::vector<GraphEdgeOut> edges;
    collect(t, nodes, edges);
    const std::string site = t.name;
    std::string sites = "name,slug\n" + csv(site) + "," + slug(site) + "\n";
    std::string racks = "site,name,status,u_height\n";
    for (const Rack& r : t.racks)
        racks += csv(site) + "," + csv(r.name) + ",active,48\n";
    std::set<std::string> roles, types;
    auto typeOf = [](const GraphNodeOut& n) {
        return n.kind == "host" ? "gpu-server-" + std::to_string(n.gpus) + "gpu"
                                : n.kind + "-" + (n.role.empty() ? "generic" : n.role);
    };
    for (const GraphNodeOut& n : nodes) {
        roles.insert(n.kind == "switch" ? n.role : n.kind);
        types.insert(typeOf(n));
    }
    std::string manufacturers = "name,slug\nGeneric,generic\n";
    std::string deviceRoles = "name,slug,color\n";
    for (const std::string& r : roles)
        deviceRoles += csv(r) + "," + slug(r) + ",9e9e9e\n";
    std::string deviceTypes = "manufacturer,model,slug,u_height\n";
    for (const std::string& ty : types)
        deviceTypes += "Generic," + csv(ty) + "," + slug(ty) + ",1\n";
    std::string devices = "name,role,manufacturer,device_type,site,rack,status\n";
    for (const GraphNodeOut& n : nodes)
        devices += csv(n.name) + "," + csv(n.kind == "switch" ? n.role : n.kind) + ",Generic," +
                   csv(typeOf(n)) + "," + csv(site) + "," + csv(n.rack) + ",active\n";
    // Interfaces: one per cable end; a switch port named by number, a host's by its NIC.
    std::string interfaces = "device,name,type,speed\n",
                cables = "side_a_device,side_a_type,side_a_name,side_b_device,side_b_type,side_b_"
                         "name,type,status\n";
    std::vector<int> unnamed(nodes.size(), 0);
    for (const GraphEdgeOut& e : edges) {
        std::string ends[2];
        const size_t at[2] = {e.a, e.b};
        const std::string* given[2] = {&e.aPort, &e.bPort};
        for (int k = 0; k < 2; ++k) {
            ends[k] = given[k]->empty() ? "eth" + std::to_string(unnamed[at[k]]++) : *given[k];
            interfaces += csv(nodes[at[k]].name) + "," + csv(ends[k]) + ",other," +
                          std::to_string((long long)(e.gbps * 1e6)) + "\n"; // kb/s
        }
        cables += csv(nodes[e.a].name) + ",dcim.interface," + csv(ends[0]) + "," +
                  csv(nodes[e.b].name) + ",dcim.interface," + csv(ends[1]) + "," +
                  (e.medium == "copper-dac" ? "dac-passive"
                   : e.medium == "fibre"    ? "smf"
                                            : "other") +
                  ",connected\n";
    }
    auto b = [](const std::string& s) { return QByteArray::fromStdString(s); };
    return {{"sites.csv", b(sites)},
            {"racks.csv", b(racks)},
            {"manufacturers.csv", b(manufacturers)},
            {"device-roles.csv", b(deviceRoles)},
            {"device-types.csv", b(deviceTypes)},
            {"devices.csv", b(devices)},
            {"interfaces.csv", b(interfaces)},
            {"cables.csv", b(cables)}};
}

} // namespace cs
