// The backend fabric in the formats the importer reads (see FabricReaders.h).
#include "BackendFabric.h"
#include "FabricWriters.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cstdio>
#include <map>
#include <stdexcept>

namespace cs {
namespace {

QByteArray fmt(const char* f, auto... args) {
    char buf[512];
    const int n = std::snprintf(buf, sizeof buf, f, args...);
    return QByteArray(buf, std::min<int>(n, int(sizeof buf) - 1));
}

// 400 -> "4xNDR"; empty when no InfiniBand width and generation give the speed.
std::string ibSpeed(double gbps) {
    static const std::pair<const char*, double> lane[] = {{"NDR", 100}, {"HDR", 50}, {"EDR", 25},
                                                          {"XDR", 200}, {"QDR", 10}, {"DDR", 5},
                                                          {"SDR", 2.5}};
    for (int width : {4, 8, 12, 2, 1})
        for (const auto& [name, g] : lane)
            if (width * g == gbps) return std::to_string(width) + "x" + name;
    return {};
}

uint64_t switchGuid(size_t i) {
    return 0x0002c90300000000ULL + i;
}
uint64_t hostGuid(size_t h) {
    return 0x0002c90400000000ULL + (uint64_t(h) << 8);
}

const std::string& podName(const Topology& t, int32_t pod) {
    static const std::string none;
    return pod == kNone ? none : t.pods[size_t(pod)].name;
}

} // namespace

QByteArray ibnetdiscoverDocument(const Topology& t) {
    const BackendFabric f = backendFabric(t);
    // Who is at the other end of each switch port.
    std::vector<std::map<uint16_t, QByteArray>> peers(f.switches.size());
    for (size_t k = 0; k < f.nics.size(); ++k) {
        const auto& n = f.nics[k];
        const int port = int(k) - f.firstNicOfHost[size_t(n.host)] + 1;
        const std::string speed = ibSpeed(n.gbps);
        peers[size_t(f.ordinalOf[size_t(n.sw)])][n.port] =
            fmt("[%u]\t\"H-%016llx\"[%d](%llx)\t\t# \"%s HCA-1\" lid %zu %s\n", n.port,
                (unsigned long long)hostGuid(size_t(n.host)), port,
                (unsigned long long)(hostGuid(size_t(n.host)) + uint64_t(port)),
                t.hosts[size_t(n.host)].name.c_str(), size_t(n.host) + 1 + f.switches.size(),
                speed.c_str());
    }
    for (const auto& l : f.links) {
        const std::string speed = ibSpeed(l.gbps);
        for (const auto& [self, port, other, otherPort] :
             {std::tuple{l.a, l.portA, l.b, l.portB}, std::tuple{l.b, l.portB, l.a, l.portA}})
            peers[size_t(f.ordinalOf[size_t(self)])][port] =
                fmt("[%u]\t\"S-%016llx\"[%u]\t\t# \"%s\" lid %d %s\n", port,
                    (unsigned long long)switchGuid(size_t(f.ordinalOf[size_t(other)])), otherPort,
                    t.switches[size_t(other)].name.c_str(), f.ordinalOf[size_t(other)] + 1,
                    speed.c_str());
    }
    QByteArray out = "#\n# Topology file: written by ClusterScope from " +
                     QByteArray::fromStdString(t.name) + " (backend fabric only)\n#\n\n";
    for (size_t s = 0; s < f.switches.size(); ++s) {
        const Switch& sw = t.switches[size_t(f.switches[s])];
        out += fmt("vendid=0x2c9\ndevid=0xd2f0\nswitchguid=0x%llx(%llx)\n",
                   (unsigned long long)switchGuid(s), (unsigned long long)switchGuid(s));
        out += fmt("Switch\t%u \"S-%016llx\"\t\t# \"%s\" enhanced port 0 lid %zu lmc 0\n",
                   f.radix[s], (unsigned long long)switchGuid(s), sw.name.c_str(), s + 1);
        for (const auto& [port, line] : peers[s])
            out += line;
        out += '\n';
    }
    for (size_t h = 0; h < t.hosts.size(); ++h) {
        const int first = f.firstNicOfHost[h], count = f.firstNicOfHost[h + 1] - first;
        if (count == 0) continue;
        out += fmt("vendid=0x2c9\ndevid=0x1021\ncaguid=0x%llx\n", (unsigned long long)hostGuid(h));
        out += fmt("Ca\t%d \"H-%016llx\"\t\t# \"%s HCA-1\"\n", count,
                   (unsigned long long)hostGuid(h), t.hosts[h].name.c_str());
        for (int k = 0; k < count; ++k) {
            const auto& n = f.nics[size_t(first + k)];
            const int o = f.ordinalOf[size_t(n.sw)];
            out += fmt("[%d](%llx)\t\"S-%016llx\"[%u]\t\t# lid %zu lmc 0 \"%s\" lid %d %s\n", k + 1,
                       (unsigned long long)(hostGuid(h) + uint64_t(k + 1)),
                       (unsigned long long)switchGuid(size_t(o)), n.port, h + 1 + f.switches.size(),
                       t.switches[size_t(n.sw)].name.c_str(), o + 1, ibSpeed(n.gbps).c_str());
        }
        out += '\n';
    }
    return out;
}

QByteArray networkxDocument(const Topology& t) {
    const BackendFabric f = backendFabric(t);
    QJsonArray nodes, links;
    for (size_t h = 0; h < t.hosts.size(); ++h) {
        const Host& host = t.hosts[h];
        nodes.append(
            QJsonObject{{"id", QString::fromStdString(host.name)},
                        {"kind", "host"},
                        {"gpus", host.gpuCount},
                        {"rack", QString::fromStdString(t.racks[size_t(host.rack)].name)},
                        {"pod", QString::fromStdString(podName(t, t.podOfHost(int32_t(h))))}});
    }
    for (size_t s = 0; s < f.switches.size(); ++s) {
        const Switch& sw = t.switches[size_t(f.switches[s])];
        QJsonObject o{{"id", QString::fromStdString(sw.name)},
                      {"kind", "switch"},
                      {"tier", backendTier(sw.role)},
                      {"ports", f.radix[s]}};
        if (sw.pod != kNone) o.insert("pod", QString::fromStdString(podName(t, sw.pod)));
        nodes.append(o);
    }
    for (size_t k = 0; k < f.nics.size(); ++k) {
        const auto& n = f.nics[k];
        links.append(QJsonObject{{"source", QString::fromStdString(t.hosts[size_t(n.host)].name)},
                                 {"target", QString::fromStdString(t.switches[size_t(n.sw)].name)},
                                 {"sourcePort", int(k) - f.firstNicOfHost[size_t(n.host)] + 1},
                                 {"targetPort", n.port},
                                 {"gpu", n.gpuLocal},
                                 {"gbps", n.gbps},
                                 {"latencyNs", n.latencyNs}});
    }
    for (const auto& l : f.links)
        links.append(QJsonObject{{"source", QString::fromStdString(t.switches[size_t(l.a)].name)},
                                 {"target", QString::fromStdString(t.switches[size_t(l.b)].name)},
                                 {"sourcePort", l.portA},
                                 {"targetPort", l.portB},
                                 {"gbps", l.gbps},
                                 {"latencyNs", l.latencyNs}});
    const Fabric fabric = t.clusters.empty() ? Fabric::Roce : t.clusters.front().fabric;
    const QJsonObject doc{
        {"directed", false},
        {"multigraph", true},
        {"graph", QJsonObject{{"name", QString::fromStdString(t.name)},
                              {"fabric", QString::fromUtf8(toString(fabric).data())},
                              {"gpuModel", QString::fromStdString(t.gpuModel)}}},
        {"nodes", nodes},
        {"links", links}};
    return QJsonDocument(doc).toJson(QJsonDocument::Compact) + "\n";
}

QByteArray ns3Document(const Topology& t) {
    const BackendFabric f = backendFabric(t);
    // The format's "server" is an NVLink domain behind one NVSwitch: a host, or an NVL72 rack
    // (its hosts' GPUs are contiguous).
    std::vector<size_t> serverOfGpu(t.gpus.size(), 0);
    std::vector<int> gpusOfServer;
    for (size_t h = 0, last = 0; h < t.hosts.size(); ++h) {
        const int32_t domain = t.nvlinkDomainOf(int32_t(h));
        if (gpusOfServer.empty() || int32_t(last) != domain) gpusOfServer.push_back(0);
        last = size_t(domain);
        const Host& host = t.hosts[h];
        for (int g = 0; g < host.gpuCount; ++g)
            serverOfGpu[size_t(host.firstGpu + g)] = gpusOfServer.size() - 1;
        gpusOfServer.back() += host.gpuCount;
    }
    const int perServer = gpusOfServer.empty() ? 0 : gpusOfServer.front();
    for (size_t k = 0; k < gpusOfServer.size(); ++k)
        if (gpusOfServer[k] != perServer || perServer == 0)
            throw std::invalid_argument(
                "the ns-3 topology has one GPU count per server (NVLink domain); domain " +
                std::to_string(k) + " has " + std::to_string(gpusOfServer[k]) + ", the first " +
                std::to_string(perServer));
    // Ids: GPUs, then one NVSwitch per server, then the backend switches.
    const size_t gpus = t.gpus.size(), servers = gpusOfServer.size(), nvFirst = gpus,
                 swFirst = gpus + servers;
    const size_t nodes = swFirst + f.switches.size();
    const size_t links = gpus + f.nics.size() + f.links.size();
    std::string gpuType = t.gpuModel.substr(0, t.gpuModel.find('-'));
    if (gpuType.empty()) gpuType = "GPU";
    QByteArray out = fmt("%zu %d %zu %zu %zu %s\n", nodes, perServer, servers, f.switches.size(),
                         links, gpuType.c_str());
    for (size_t i = nvFirst; i < nodes; ++i)
        out += fmt(i + 1 < nodes ? "%zu " : "%zu\n", i);
    // A GPU's NVLink: all of its links to NVLink switches (one, or one per NVL72 switch tray).
    double nvGbps = 0, nvNs = 250;
    for (const Link& l : t.links)
        if (l.medium == LinkMedium::NvLink &&
            (l.a == Endpoint{EntityKind::Gpu, 0} || l.b == Endpoint{EntityKind::Gpu, 0})) {
            nvGbps += l.gbps;
            nvNs = l.latencyNs;
        }
    if (nvGbps <= 0) nvGbps = 3600;
    for (size_t g = 0; g < gpus; ++g)
        out += fmt("%zu %zu %gGbps %gns 0\n", g, nvFirst + serverOfGpu[g], nvGbps, nvNs);
    for (const auto& n : f.nics)
        out +=
            fmt("%zu %zu %gGbps %gns 0\n", size_t(t.hosts[size_t(n.host)].firstGpu + n.gpuLocal),
                swFirst + size_t(f.ordinalOf[size_t(n.sw)]), double(n.gbps), double(n.latencyNs));
    for (const auto& l : f.links)
        out += fmt("%zu %zu %gGbps %gns 0\n", swFirst + size_t(f.ordinalOf[size_t(l.a)]),
                   swFirst + size_t(f.ordinalOf[size_t(l.b)]), double(l.gbps), double(l.latencyNs));
    return out;
}

QByteArray infragraphDocument(const Topology& t) {
    const BackendFabric f = backendFabric(t);
    // One device per host shape (GPUs, NICs), wired as the first host of the shape is.
    std::map<std::pair<int, int>, std::string> deviceOf;
    QByteArray devices, instances, connections;
    std::vector<std::string> instanceOfHost(t.hosts.size());
    std::map<std::string, int> countOf;
    std::vector<int> indexOfHost(t.hosts.size());
    for (size_t h = 0; h < t.hosts.size(); ++h) {
        const int nics = f.firstNicOfHost[h + 1] - f.firstNicOfHost[h];
        const int gpus = t.hosts[h].gpuCount;
        auto [it, fresh] =
            deviceOf.emplace(std::pair{gpus, nics}, "server-" + std::to_string(gpus) + "gpu-" +
                                                        std::to_string(nics) + "nic");
        if (fresh) {
            devices += fmt("    - name: %s\n      components:\n"
                           "        - {name: npu, type: npu, count: %d}\n",
                           it->second.c_str(), gpus);
            if (nics > 0) {
                devices +=
                    fmt("        - {name: nic, type: nic, count: %d, external: true}\n", nics);
                devices += "      links:\n        - {name: pcie}\n      connections:\n";
                for (int k = 0; k < nics; ++k)
                    devices += fmt("        - npu.%d.pcie.nic.%d\n",
                                   f.nics[size_t(f.firstNicOfHost[h] + k)].gpuLocal, k);
            }
        }
        instanceOfHost[h] = it->second == deviceOf.begin()->second && deviceOf.size() == 1
                                ? "host"
                                : "host-" + it->second;
        indexOfHost[h] = countOf[instanceOfHost[h]]++;
    }
    uint16_t radix = 1;
    for (uint16_t r : f.radix)
        radix = std::max(radix, r);
    devices += fmt("    - name: switch\n      components:\n"
                   "        - {name: asic, type: custom, count: 1}\n"
                   "        - {name: port, type: nic, count: %u, external: true}\n",
                   radix);
    // Switch instances by tier.
    const char* tierName[4] = {"", "leaf", "spine", "core"};
    std::vector<int> indexOfSwitch(f.switches.size());
    int tierCount[4] = {};
    for (size_t s = 0; s < f.switches.size(); ++s) {
        const int tier = backendTier(t.switches[size_t(f.switches[s])].role);
        indexOfSwitch[s] = tierCount[tier]++;
    }
    for (const auto& [name, count] : countOf) {
        std::string device = name == "host" ? deviceOf.begin()->second : name.substr(5);
        instances +=
            fmt("    - {name: %s, device: %s, count: %d}\n", name.c_str(), device.c_str(), count);
    }
    for (int tier = 1; tier <= 3; ++tier)
        if (tierCount[tier] > 0)
            instances += fmt("    - {name: %s, device: switch, count: %d}\n", tierName[tier],
                             tierCount[tier]);
    std::map<double, std::string> linkNames;
    auto linkName = [&](double gbps) -> const std::string& {
        auto [it, fresh] = linkNames.emplace(gbps, "");
        if (fresh) it->second = fmt("link-%gg", gbps).toStdString();
        return it->second;
    };
    auto swRef = [&](int32_t sw, uint16_t port) {
        const int o = f.ordinalOf[size_t(sw)];
        return fmt("%s.%d.port.%d", tierName[backendTier(t.switches[size_t(sw)].role)],
                   indexOfSwitch[size_t(o)], int(port) - 1);
    };
    for (size_t k = 0; k < f.nics.size(); ++k) {
        const auto& n = f.nics[k];
        const size_t h = size_t(n.host);
        connections += fmt("    - %s.%d.nic.%d.%s.", instanceOfHost[h].c_str(), indexOfHost[h],
                           int(k) - f.firstNicOfHost[h], linkName(n.gbps).c_str()) +
                       swRef(n.sw, n.port) + "\n";
    }
    for (const auto& l : f.links)
        connections += "    - " + swRef(l.a, l.portA) + "." +
                       QByteArray::fromStdString(linkName(l.gbps)) + "." + swRef(l.b, l.portB) +
                       "\n";
    QByteArray links;
    for (const auto& [gbps, name] : linkNames)
        links +=
            fmt("    - name: %s\n      bandwidth: {gigabits_per_second: %g}\n", name.c_str(), gbps);
    return "# InfraGraph infrastructure written by ClusterScope (backend fabric only)\n"
           "infrastructure:\n  name: " +
           QByteArray::fromStdString(t.name) + "\n  devices:\n" + devices + "  links:\n" + links +
           "  instances:\n" + instances + "  connections:\n" + connections;
}

} // namespace cs
