#include "NvlinkDomains.h"

#include <numeric>

namespace cs {

namespace {

int32_t findRoot(std::vector<int32_t>& parent, int32_t x) {
    while (parent[size_t(x)] != x) {
        parent[size_t(x)] = parent[size_t(parent[size_t(x)])];
        x = parent[size_t(x)];
    }
    return x;
}

} // namespace

void assignNvlinkDomains(Topology& t) {
    std::vector<int32_t> parent(t.hosts.size());
    std::iota(parent.begin(), parent.end(), 0);
    // The first host seen on each shared NVLink switch; every other host on it joins it.
    std::vector<int32_t> firstHostOnSwitch(t.switches.size(), kNone);
    for (const Link& l : t.links) {
        if (l.medium != LinkMedium::NvLink) continue;
        const Endpoint gpu = l.a.kind == EntityKind::Gpu ? l.a : l.b;
        const Endpoint other = l.a.kind == EntityKind::Gpu ? l.b : l.a;
        if (gpu.kind != EntityKind::Gpu || other.kind != EntityKind::Switch) continue;
        if (t.switches[size_t(other.index)].host != kNone) continue; // a host's own NVSwitch
        const int32_t host = t.gpus[size_t(gpu.index)].host;
        if (host == kNone) continue;
        int32_t& first = firstHostOnSwitch[size_t(other.index)];
        if (first == kNone) {
            first = host;
            continue;
        }
        const int32_t a = findRoot(parent, first), b = findRoot(parent, host);
        if (a != b) parent[size_t(std::max(a, b))] = std::min(a, b);
    }
    std::vector<int32_t> size(t.hosts.size(), 0);
    for (size_t h = 0; h < t.hosts.size(); ++h)
        ++size[size_t(findRoot(parent, int32_t(h)))];
    for (size_t h = 0; h < t.hosts.size(); ++h) {
        const int32_t root = findRoot(parent, int32_t(h));
        t.hosts[h].nvlinkDomain = size[size_t(root)] > 1 ? root : kNone;
    }
}

} // namespace cs
