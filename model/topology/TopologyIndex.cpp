#include "TopologyIndex.h"

namespace cs {

ChildList ChildList::build(size_t parents, const std::vector<int32_t>& parentOfChild) {
    ChildList c;
    c.offsets.assign(parents + 1, 0);
    for (int32_t p : parentOfChild)
        if (p >= 0) ++c.offsets[size_t(p) + 1];
    for (size_t i = 1; i <= parents; ++i)
        c.offsets[i] += c.offsets[i - 1];
    c.items.resize(size_t(c.offsets[parents]));
    std::vector<int32_t> fill(c.offsets.begin(), c.offsets.end() - 1);
    for (size_t i = 0; i < parentOfChild.size(); ++i)
        if (parentOfChild[i] >= 0) c.items[size_t(fill[size_t(parentOfChild[i])]++)] = int32_t(i);
    return c;
}

namespace {
template <typename T, typename F> std::vector<int32_t> parents(const std::vector<T>& v, F f) {
    std::vector<int32_t> out;
    out.reserve(v.size());
    for (const T& x : v)
        out.push_back(f(x));
    return out;
}

// Links per endpoint of one kind: each link listed under both of its ends.
ChildList linksByEndpoint(const Topology& t, EntityKind kind, size_t count) {
    ChildList c;
    c.offsets.assign(count + 1, 0);
    for (const Link& l : t.links) {
        if (l.a.kind == kind) ++c.offsets[size_t(l.a.index) + 1];
        if (l.b.kind == kind) ++c.offsets[size_t(l.b.index) + 1];
    }
    for (size_t i = 1; i <= count; ++i)
        c.offsets[i] += c.offsets[i - 1];
    c.items.resize(size_t(c.offsets[count]));
    std::vector<int32_t> fill(c.offsets.begin(), c.offsets.end() - 1);
    for (size_t i = 0; i < t.links.size(); ++i) {
        const Link& l = t.links[i];
        if (l.a.kind == kind) c.items[size_t(fill[size_t(l.a.index)]++)] = int32_t(i);
        if (l.b.kind == kind) c.items[size_t(fill[size_t(l.b.index)]++)] = int32_t(i);
    }
    return c;
}
} // namespace

TopologyIndex::TopologyIndex(const Topology& t) : t_(t) {
    clusterPods_ = ChildList::build(t.clusters.size(),
                                    parents(t.pods, [](const Pod& p) { return p.cluster; }));
    podRacks_ = ChildList::build(
        t.pods.size(), parents(t.racks, [&](const Rack& r) { return t.rows[size_t(r.row)].pod; }));
    rackHosts_ =
        ChildList::build(t.racks.size(), parents(t.hosts, [](const Host& h) { return h.rack; }));
    rackSwitches_ = ChildList::build(t.racks.size(),
                                     parents(t.switches, [](const Switch& s) { return s.rack; }));
    rackStorage_ = ChildList::build(
        t.racks.size(), parents(t.storage, [](const StorageServer& s) { return s.rack; }));
    hostNics_ =
        ChildList::build(t.hosts.size(), parents(t.nics, [](const Nic& n) { return n.host; }));
    gpuLinks_ = linksByEndpoint(t, EntityKind::Gpu, t.gpus.size());
    nicLinks_ = linksByEndpoint(t, EntityKind::Nic, t.nics.size());
    switchLinks_ = linksByEndpoint(t, EntityKind::Switch, t.switches.size());
    storageLinks_ = linksByEndpoint(t, EntityKind::Storage, t.storage.size());

    podGpus_.assign(t.pods.size(), 0);
    clusterGpus_.assign(t.clusters.size(), 0);
    for (const Host& h : t.hosts) {
        const int32_t pod = t.podOfRack(h.rack);
        const int32_t cluster = t.clusterOfRack(h.rack);
        if (pod != kNone) podGpus_[size_t(pod)] += h.gpuCount;
        if (cluster != kNone) clusterGpus_[size_t(cluster)] += h.gpuCount;
    }

    byName_.reserve(t.clusters.size() + t.pods.size() + t.racks.size() + t.hosts.size() +
                    t.nics.size() + t.switches.size() + t.storage.size());
    auto addAll = [&](const auto& v, EntityKind k) {
        for (size_t i = 0; i < v.size(); ++i)
            byName_.emplace(v[i].name, Endpoint{k, int32_t(i)});
    };
    addAll(t.clusters, EntityKind::Cluster);
    addAll(t.pods, EntityKind::Pod);
    addAll(t.rows, EntityKind::Row);
    addAll(t.racks, EntityKind::Rack);
    addAll(t.hosts, EntityKind::Host);
    addAll(t.nics, EntityKind::Nic);
    addAll(t.switches, EntityKind::Switch);
    addAll(t.storage, EntityKind::Storage);
}

std::span<const int32_t> TopologyIndex::linksOf(Endpoint e) const {
    switch (e.kind) {
    case EntityKind::Gpu:
        return gpuLinks_.of(e.index);
    case EntityKind::Nic:
        return nicLinks_.of(e.index);
    case EntityKind::Switch:
        return switchLinks_.of(e.index);
    case EntityKind::Storage:
        return storageLinks_.of(e.index);
    default:
        return {};
    }
}

std::optional<Endpoint> TopologyIndex::find(const std::string& name) const {
    if (auto it = byName_.find(name); it != byName_.end()) return it->second;
    // GPUs are named after their host: "<host>.gpu<k>".
    const size_t dot = name.rfind(".gpu");
    if (dot == std::string::npos) return std::nullopt;
    const auto host = byName_.find(name.substr(0, dot));
    if (host == byName_.end() || host->second.kind != EntityKind::Host) return std::nullopt;
    const std::string digits = name.substr(dot + 4);
    if (digits.empty() || digits.size() > 3 ||
        digits.find_first_not_of("0123456789") != std::string::npos)
        return std::nullopt;
    const int local = std::stoi(digits);
    const Host& h = t_.hosts[size_t(host->second.index)];
    if (local >= h.gpuCount) return std::nullopt;
    return Endpoint{EntityKind::Gpu, h.firstGpu + local};
}

} // namespace cs
