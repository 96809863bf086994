#include "Topology.h"

#include <algorithm>

namespace cs {

size_t Topology::count(EntityKind kind) const {
    switch (kind) {
    case EntityKind::Cluster:
        return clusters.size();
    case EntityKind::Pod:
        return pods.size();
    case EntityKind::Row:
        return rows.size();
    case EntityKind::Rack:
        return racks.size();
    case EntityKind::Host:
        return hosts.size();
    case EntityKind::Gpu:
        return gpus.size();
    case EntityKind::Nic:
        return nics.size();
    case EntityKind::Switch:
        return switches.size();
    case EntityKind::Storage:
        return storage.size();
    case EntityKind::Link:
        return links.size();
    }
    return 0;
}

std::string Topology::gpuName(int32_t gpu) const {
    const Gpu& g = gpus[size_t(gpu)];
    return hosts[size_t(g.host)].name + ".gpu" + std::to_string(g.local);
}

std::string Topology::nameOf(Endpoint e) const {
    const auto i = size_t(e.index);
    switch (e.kind) {
    case EntityKind::Cluster:
        return clusters[i].name;
    case EntityKind::Pod:
        return pods[i].name;
    case EntityKind::Row:
        return rows[i].name;
    case EntityKind::Rack:
        return racks[i].name;
    case EntityKind::Host:
        return hosts[i].name;
    case EntityKind::Gpu:
        return gpuName(e.index);
    case EntityKind::Nic:
        return nics[i].name;
    case EntityKind::Switch:
        return switches[i].name;
    case EntityKind::Storage:
        return storage[i].name;
    case EntityKind::Link:
        return nameOf(links[i].a) + " -- " + nameOf(links[i].b);
    }
    return {};
}

int32_t Topology::podOfRack(int32_t rack) const {
    return rack == kNone ? kNone : rows[size_t(racks[size_t(rack)].row)].pod;
}

std::vector<int32_t> Topology::gpusOfHosts(const std::vector<int32_t>& hostIndices) const {
    std::vector<int32_t> out;
    for (int32_t h : hostIndices)
        for (int g = 0; g < hosts[size_t(h)].gpuCount; ++g)
            out.push_back(hosts[size_t(h)].firstGpu + g);
    std::sort(out.begin(), out.end());
    return out;
}

int32_t Topology::rackHolding(Endpoint e) const {
    if (e.index < 0 || size_t(e.index) >= count(e.kind)) return kNone;
    const auto i = size_t(e.index);
    auto ofHost = [&](int32_t h) { return h == kNone ? kNone : hosts[size_t(h)].rack; };
    switch (e.kind) {
    case EntityKind::Gpu:
        return ofHost(gpus[i].host);
    case EntityKind::Nic:
        return ofHost(nics[i].host);
    case EntityKind::Host:
        return hosts[i].rack;
    case EntityKind::Switch:
        return switches[i].rack != kNone ? switches[i].rack : ofHost(switches[i].host);
    case EntityKind::Storage:
        return storage[i].rack;
    case EntityKind::Rack:
        return e.index;
    default:
        return kNone;
    }
}

int32_t Topology::clusterOfRack(int32_t rack) const {
    return rack == kNone ? kNone : rows[size_t(racks[size_t(rack)].row)].cluster;
}

namespace {
template <typename T> size_t bytesOf(const std::vector<T>& v) {
    return v.capacity() * sizeof(T);
}
template <typename T> size_t namedBytesOf(const std::vector<T>& v) {
    size_t n = bytesOf(v);
    for (const T& x : v)
        if (x.name.capacity() > 15) n += x.name.capacity() + 1; // beyond small-string storage
    return n;
}
} // namespace

size_t Topology::memoryBytes() const {
    return namedBytesOf(clusters) + namedBytesOf(pods) + namedBytesOf(rows) + namedBytesOf(racks) +
           namedBytesOf(hosts) + bytesOf(gpus) + namedBytesOf(nics) + namedBytesOf(switches) +
           namedBytesOf(storage) + bytesOf(links);
}

} // namespace cs
