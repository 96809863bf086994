#include "BackendFabric.h"

#include <algorithm>

namespace cs {

int backendTier(SwitchRole role) {
    return std::clamp(tierOf(role), 1, 3);
}

BackendFabric backendFabric(const Topology& t) {
    BackendFabric f;
    f.ordinalOf.assign(t.switches.size(), kNone);
    for (size_t s = 0; s < t.switches.size(); ++s) {
        const SwitchRole r = t.switches[s].role;
        if (r == SwitchRole::NvSwitch || networkOf(r) != Network::Backend) continue;
        f.ordinalOf[s] = int32_t(f.switches.size());
        f.switches.push_back(int32_t(s));
        f.radix.push_back(t.switches[s].ports);
    }
    auto backendSwitch = [&](Endpoint e) {
        return e.kind == EntityKind::Switch && f.ordinalOf[size_t(e.index)] != kNone;
    };
    auto usePort = [&](int32_t sw, uint16_t port) {
        uint16_t& r = f.radix[size_t(f.ordinalOf[size_t(sw)])];
        r = std::max(r, port);
    };
    std::vector<BackendFabric::NicLink> nics;
    for (const Link& l : t.links) {
        const bool aNic = l.a.kind == EntityKind::Nic, bNic = l.b.kind == EntityKind::Nic;
        if ((aNic && backendSwitch(l.b)) || (bNic && backendSwitch(l.a))) {
            const Endpoint nic = aNic ? l.a : l.b, sw = aNic ? l.b : l.a;
            const Nic& n = t.nics[size_t(nic.index)];
            if (n.role != NicRole::Backend) continue;
            BackendFabric::NicLink x;
            x.host = n.host;
            x.nic = nic.index;
            x.gpuLocal = n.gpu == kNone ? 0 : t.gpus[size_t(n.gpu)].local;
            x.sw = sw.index;
            x.port = aNic ? l.portB : l.portA;
            x.gbps = l.gbps;
            x.latencyNs = l.latencyNs;
            usePort(x.sw, x.port);
            nics.push_back(x);
        } else if (backendSwitch(l.a) && backendSwitch(l.b)) {
            f.links.push_back({l.a.index, l.b.index, l.portA, l.portB, l.gbps, l.latencyNs});
            usePort(l.a.index, l.portA);
            usePort(l.b.index, l.portB);
        }
    }
    std::stable_sort(nics.begin(), nics.end(), [](const auto& x, const auto& y) {
        return x.host != y.host ? x.host < y.host : x.nic < y.nic;
    });
    f.nics = std::move(nics);
    f.firstNicOfHost.assign(t.hosts.size() + 1, 0);
    for (const auto& n : f.nics)
        ++f.firstNicOfHost[size_t(n.host) + 1];
    for (size_t h = 0; h < t.hosts.size(); ++h)
        f.firstNicOfHost[h + 1] += f.firstNicOfHost[h];
    return f;
}

} // namespace cs
