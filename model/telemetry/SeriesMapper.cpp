#include "SeriesMapper.h"

#include "EntitySearch.h"

#include <cctype>

namespace cs {
namespace {

std::string label(const Labels& l, std::initializer_list<const char*> names) {
    for (const char* n : names)
        for (const auto& [k, v] : l)
            if (k == n) return v;
    return {};
}

std::string stripPort(std::string s) {
    const size_t colon = s.rfind(':');
    if (colon != std::string::npos &&
        s.find_first_not_of("0123456789", colon + 1) == std::string::npos)
        s.resize(colon);
    return s;
}

int trailingNumber(const std::string& s) {
    size_t i = s.size();
    while (i > 0 && std::isdigit(static_cast<unsigned char>(s[i - 1])))
        --i;
    if (i == s.size() || s.size() - i > 6) return -1;
    return std::stoi(s.substr(i));
}

// DCGM fields the catalogue holds, with the factor to its unit; XID errors become events.
std::optional<std::pair<std::optional<Metric>, double>> dcgmField(const std::string& m) {
    using P = std::pair<std::optional<Metric>, double>;
    if (m == "DCGM_FI_DEV_GPU_UTIL") return P{Metric::GpuBusy, 0.01}; // percent
    if (m == "DCGM_FI_PROF_GR_ENGINE_ACTIVE") return P{Metric::GpuBusy, 1};
    if (m == "DCGM_FI_DEV_POWER_USAGE") return P{Metric::GpuPowerW, 1};
    if (m == "DCGM_FI_DEV_GPU_TEMP") return P{Metric::GpuTemperatureC, 1};
    if (m == "DCGM_FI_DEV_FB_USED") return P{Metric::GpuMemoryUsedBytes, 1024.0 * 1024}; // MiB
    if (m == "DCGM_FI_DEV_SM_CLOCK") return P{Metric::GpuSmClockHz, 1e6};                // MHz
    if (m == "DCGM_FI_DEV_XID_ERRORS") return P{std::nullopt, 1};
    return std::nullopt;
}

} // namespace

SeriesMapper::SeriesMapper(const TopologyDocument& doc, const QString& mapFile)
    : doc_(doc), mapping_(mapFile.isEmpty() ? SeriesMapping{} : loadSeriesMapping(mapFile)) {}

// The host a series names: the mapping file's label, else the first of instance,
// Hostname, hostname, node, host, entity that names a host of the topology.
std::optional<Endpoint> SeriesMapper::hostOf(const Labels& labels) {
    static const char* const kLabels[] = {"instance", "Hostname", "hostname",
                                          "node",     "host",     "entity"};
    if (!mapping_.hostLabel.empty()) {
        for (const auto& [k, v] : labels)
            if (k == mapping_.hostLabel) return entity(v, EntityKind::Host);
        return std::nullopt;
    }
    for (const char* name : kLabels)
        for (const auto& [k, v] : labels)
            if (k == name)
                if (auto e = entity(v, EntityKind::Host)) return e;
    return std::nullopt;
}

// The rail of a NIC device: the mapping file's, else the number it ends in (mlx5_3: 3).
int SeriesMapper::railOf(const std::string& device) const {
    if (auto it = mapping_.devices.find(device); it != mapping_.devices.end()) return it->second;
    return trailingNumber(device);
}

// A GPU named by its UUID in the mapping file.
std::optional<Endpoint> SeriesMapper::gpuOfUuid(const Labels& labels) {
    if (mapping_.uuids.empty()) return std::nullopt;
    for (const auto& [k, v] : labels)
        if (k == "UUID" || k == "uuid")
            if (auto it = mapping_.uuids.find(v); it != mapping_.uuids.end()) {
                std::optional<Endpoint> e = findEntity(doc_, it->second);
                if (e && e->kind == EntityKind::Gpu) return e;
            }
    return std::nullopt;
}

// A switch port by its full name: the mapping file's, else a name that is one word and
// one number ("Ethernet17", "swp17"); management, loopback and VLAN interfaces, and names
// like "Ethernet1/1" that a number alone does not identify, need the mapping file.
int SeriesMapper::portOf(const std::string& name) const {
    if (auto it = mapping_.ports.find(name); it != mapping_.ports.end()) return it->second;
    size_t i = 0;
    while (i < name.size() && std::isalpha(static_cast<unsigned char>(name[i])))
        ++i;
    if (i == 0 || i == name.size() || name.find_first_not_of("0123456789", i) != std::string::npos)
        return -1;
    std::string word = name.substr(0, i);
    for (char& c : word)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    for (const char* other : {"management", "mgmt", "loopback", "lo", "vlan", "portchannel"})
        if (word == other) return -1;
    return trailingNumber(name);
}

std::optional<Endpoint> SeriesMapper::entity(std::string name, EntityKind kind) {
    name = stripPort(name);
    if (auto it = mapping_.names.find(name); it != mapping_.names.end()) {
        name = it->second;
    } else {
        for (const auto& [re, replacement] : mapping_.patterns) {
            const QString q = QString::fromStdString(name);
            if (re.match(q).hasMatch()) {
                name = QString(q).replace(re, replacement).toStdString();
                break;
            }
        }
    }
    const auto key = std::to_string(int(kind)) + "/" + name;
    if (auto it = cache_.find(key); it != cache_.end()) return it->second;
    std::optional<Endpoint> e = findEntity(doc_, name);
    if (e && e->kind != kind) e.reset();
    cache_[key] = e;
    return e;
}

// By the metric's family: DCGM fields, node_exporter NIC byte counters, SNMP interface octets;
// anything else stays unmapped (and is counted as such).
std::optional<SeriesTarget> SeriesMapper::map(const std::string& m, const Labels& labels,
                                              bool declaredCounter, std::string* why) {
    const Topology& t = doc_.topology();
    auto no = [why](const char* reason) -> std::optional<SeriesTarget> {
        if (why) *why = reason;
        return std::nullopt;
    };
    constexpr const char* kNoHost =
        "no host label names a host of the topology (a mapping file can rename them)";
    const bool counter =
        declaredCounter || (m.size() > 6 && m.compare(m.size() - 6, 6, "_total") == 0) ||
        m == "ifHCInOctets" || m == "ifHCOutOctets" || m.find("in_octets") != std::string::npos ||
        m.find("out_octets") != std::string::npos;
    if (m.rfind("DCGM_FI_", 0) == 0) {
        if (const auto byUuid = gpuOfUuid(labels)) {
            const auto field = dcgmField(m);
            if (!field) return no("a DCGM field ClusterScope does not store");
            return SeriesTarget{m,      field->first, EntityKind::Gpu, byUuid->index, field->second,
                                counter};
        }
        const auto host = hostOf(labels);
        const std::string gpu = label(labels, {"gpu", "GPU", "index"});
        if (!host) return no(kNoHost);
        if (gpu.empty() || gpu.find_first_not_of("0123456789") != std::string::npos ||
            gpu.size() > 3)
            return no("no GPU index label (gpu, GPU or index)");
        const Host& h = t.hosts[size_t(host->index)];
        const int local = std::stoi(gpu);
        if (local >= h.gpuCount) return no("a GPU index beyond its host's GPUs");
        const auto field = dcgmField(m);
        if (!field) return no("a DCGM field ClusterScope does not store");
        return SeriesTarget{
            m, field->first, EntityKind::Gpu, h.firstGpu + local, field->second, counter};
    }
    if (m.rfind("node_infiniband_port_data_", 0) == 0 || m.rfind("node_network_", 0) == 0) {
        // Only byte counters are throughput: not speed, MTU, flags, "up" or packets.
        const bool bytes = m.size() > 12 && m.compare(m.size() - 12, 12, "_bytes_total") == 0;
        const auto host = hostOf(labels);
        const std::string device = label(labels, {"device"});
        if (!bytes) return no("not a byte counter (speed, MTU, flags or packets)");
        if (!host) return no(kNoHost);
        if (device.empty()) return no("no device label");
        const std::string& hostName = t.hosts[size_t(host->index)].name;
        std::string nicName;
        if (m.rfind("node_network_", 0) == 0) {
            // Ethernet devices of the host's own network stack: its frontend NIC. RDMA
            // devices (mlx5_N) show under node_infiniband instead.
            const bool ethernet = device.rfind("eth", 0) == 0 || device.rfind("bond", 0) == 0 ||
                                  device.rfind("en", 0) == 0;
            if (!ethernet) return no("not an Ethernet device of the host (lo, docker, ...)");
            nicName = hostName + ".fe0";
        } else {
            // mlx5_N port 1: the backend NIC of rail N (a second port is another cable
            // that this topology does not have).
            const int dev = railOf(device);
            const std::string port = label(labels, {"port"});
            if (dev < 0 || (!port.empty() && port != "1"))
                return no("not a backend NIC's first port (mlx5_N port 1)");
            nicName = hostName + ".be" + std::to_string(dev);
        }
        const auto nic = doc_.index().find(nicName);
        if (!nic) return no("the host has no such NIC in the topology");
        for (int32_t l : doc_.index().linksOf(*nic)) // the NIC's cable to its switch
            if (t.links[size_t(l)].medium != LinkMedium::Pcie)
                return SeriesTarget{m, Metric::LinkBytesPerS, EntityKind::Link, l, 1, counter};
        return no("the NIC has no cable in the topology");
    }
    if (m == "ifHCInOctets" || m == "ifHCOutOctets" || m.find("in_octets") != std::string::npos ||
        m.find("out_octets") != std::string::npos) {
        const auto sw = entity(label(labels, {"instance", "target", "device", "switch", "entity"}),
                               EntityKind::Switch);
        const int port = portOf(label(labels, {"ifName", "name", "interface", "port"}));
        if (!sw) return no("no switch label names a switch of the topology");
        if (port < 0) return no("no port name the switch's ports read as");
        for (int32_t l : doc_.index().linksOf(*sw)) {
            const Link& k = t.links[size_t(l)];
            if ((k.a == *sw && k.portA == port) || (k.b == *sw && k.portB == port))
                return SeriesTarget{m, Metric::LinkBytesPerS, EntityKind::Link, l, 1, counter};
        }
        return no("the switch has no cable on that port");
    }
    return no("not a metric ClusterScope stores");
}

} // namespace cs
