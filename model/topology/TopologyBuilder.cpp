#include "TopologyBuilder.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace cs {

TopologyBuilder::TopologyBuilder(std::string name, std::string gpuModel) {
    t_.name = std::move(name);
    t_.gpuModel = std::move(gpuModel);
}

void TopologyBuilder::reserve(size_t gpus, size_t links) {
    t_.gpus.reserve(gpus);
    t_.nics.reserve(gpus + gpus / 8);
    t_.links.reserve(links);
}

int32_t TopologyBuilder::addCluster(std::string name, Fabric fabric, TransportSettings transport) {
    t_.clusters.push_back({std::move(name), fabric, transport});
    return int32_t(t_.clusters.size() - 1);
}

int32_t TopologyBuilder::addPod(std::string name, int32_t cluster) {
    t_.pods.push_back({std::move(name), cluster});
    return int32_t(t_.pods.size() - 1);
}

int32_t TopologyBuilder::addRow(std::string name, int32_t cluster, int32_t pod) {
    t_.rows.push_back({std::move(name), cluster, pod});
    return int32_t(t_.rows.size() - 1);
}

int32_t TopologyBuilder::addRack(std::string name, int32_t row, int32_t position, RackRole role) {
    t_.racks.push_back({std::move(name), row, position, role});
    return int32_t(t_.racks.size() - 1);
}

int32_t TopologyBuilder::addHost(std::string name, int32_t rack, int gpuCount, int cpuCount,
                                 int slot) {
    const auto host = int32_t(t_.hosts.size());
    t_.hosts.push_back({std::move(name), rack, int32_t(t_.gpus.size()), uint8_t(gpuCount),
                        uint8_t(cpuCount), uint8_t(slot)});
    for (int g = 0; g < gpuCount; ++g)
        t_.gpus.push_back({host, uint8_t(g)});
    return host;
}

int32_t TopologyBuilder::addNic(std::string name, int32_t host, int32_t gpu, NicRole role,
                                double gbps) {
    t_.nics.push_back({std::move(name), host, gpu, role, float(gbps)});
    return int32_t(t_.nics.size() - 1);
}

int32_t TopologyBuilder::addSwitch(Switch s) {
    t_.switches.push_back(std::move(s));
    usedPorts_.push_back(0);
    return int32_t(t_.switches.size() - 1);
}

int32_t TopologyBuilder::addStorage(std::string name, StorageKind kind, int32_t rack, double gbps) {
    t_.storage.push_back({std::move(name), kind, rack, float(gbps)});
    return int32_t(t_.storage.size() - 1);
}

uint16_t TopologyBuilder::nextPort(Endpoint e) {
    if (e.kind != EntityKind::Switch) return 0;
    uint16_t& used = usedPorts_[size_t(e.index)];
    if (used == std::numeric_limits<uint16_t>::max())
        throw std::length_error("switch " + t_.switches[size_t(e.index)].name +
                                " ran out of ports");
    return ++used;
}

void TopologyBuilder::link(Endpoint a, Endpoint b, LinkMedium medium, double gbps,
                           double latencyNs) {
    Link l;
    l.a = a;
    l.b = b;
    l.portA = nextPort(a);
    l.portB = nextPort(b);
    l.medium = medium;
    l.gbps = float(gbps);
    l.latencyNs = float(latencyNs);
    t_.links.push_back(l);
}

void TopologyBuilder::link(Endpoint a, Endpoint b, uint16_t portA, uint16_t portB,
                           LinkMedium medium, double gbps, double latencyNs) {
    auto port = [this](Endpoint e, uint16_t given) {
        if (given == 0 || e.kind != EntityKind::Switch) return nextPort(e);
        uint16_t& used = usedPorts_[size_t(e.index)];
        used = std::max(used, given); // later unnumbered links go above it
        return given;
    };
    Link l;
    l.a = a;
    l.b = b;
    l.portA = port(a, portA);
    l.portB = port(b, portB);
    l.medium = medium;
    l.gbps = float(gbps);
    l.latencyNs = float(latencyNs);
    t_.links.push_back(l);
}

Topology TopologyBuilder::take() {
    usedPorts_.clear();
    return std::move(t_);
}

} // namespace cs
