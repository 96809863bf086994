#include "PartFabric.h"

namespace cs {

bool infiniBandSwitch(const Topology& t, int32_t sw) {
    const Switch& s = t.switches[size_t(sw)];
    return s.cluster != kNone && networkOf(s.role) == Network::Backend &&
           t.clusters[size_t(s.cluster)].fabric == Fabric::InfiniBand;
}

bool infiniBandNic(const Topology& t, int32_t nic) {
    const Nic& n = t.nics[size_t(nic)];
    if (n.role != NicRole::Backend || n.host == kNone) return false;
    const int32_t cluster = t.clusterOfRack(t.hosts[size_t(n.host)].rack);
    return cluster != kNone && t.clusters[size_t(cluster)].fabric == Fabric::InfiniBand;
}

bool infiniBandLink(const Topology& t, const Link& l) {
    auto ib = [&](Endpoint e) {
        return (e.kind == EntityKind::Switch && infiniBandSwitch(t, e.index)) ||
               (e.kind == EntityKind::Nic && infiniBandNic(t, e.index));
    };
    return ib(l.a) || ib(l.b);
}

std::string partKey(const std::string& kind, bool infiniBand, const std::string& rest) {
    return kind + (infiniBand ? ".ib." : ".") + rest;
}

} // namespace cs
