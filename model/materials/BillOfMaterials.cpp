#include "BillOfMaterials.h"

#include "BomLines.h"
#include "PartFabric.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace cs {
namespace {

bool backendSwitch(const Topology& t, Endpoint e) {
    return e.kind == EntityKind::Switch &&
           networkOf(t.switches[size_t(e.index)].role) == Network::Backend;
}

void countEntities(BillOfMaterials& b, const Topology& t) {
    b.topology = t.name;
    b.gpuModel = t.gpuModel;
    b.gpus = (long long)t.gpus.size();
    b.hosts = (long long)t.hosts.size();
    b.nics = (long long)t.nics.size();
    b.storageServers = (long long)t.storage.size();
    for (const Rack& r : t.racks) {
        if (r.role == RackRole::Compute) ++b.racks;
        if (r.role == RackRole::Network) ++b.networkRacks;
        if (r.role == RackRole::Storage) ++b.storageRacks;
    }
    for (const Nic& n : t.nics)
        if (n.role == NicRole::Backend) ++b.backendEndpoints;
}

void countSwitches(BillOfMaterials& b, const Topology& t, const std::vector<SwitchPortUse>& ports) {
    std::map<std::pair<SwitchRole, int>, long long> byRadix;
    std::map<SwitchRole, PortCount> byRole;
    for (size_t s = 0; s < t.switches.size(); ++s) {
        const Switch& w = t.switches[s];
        ++b.switches.total;
        ++b.switches.byRole[size_t(w.role)];
        if (networkOf(w.role) == Network::Backend) ++b.switches.backend;
        ++byRadix[{w.role, w.ports}];
        PortCount& p = byRole[w.role];
        p.role = w.role;
        p.tier = tierOf(w.role);
        ++p.switches;
        p.ports += w.ports;
        p.used += ports[s].usedCount;
        p.free += ports[s].freeCount;
    }
    for (const auto& [key, n] : byRadix)
        b.switches.byRoleAndRadix.push_back({key.first, key.second, n});
    for (const auto& [role, p] : byRole)
        b.ports.push_back(p);
}

void countLinks(BillOfMaterials& b, const Topology& t, const std::vector<float>& lengthsM) {
    std::map<std::pair<LinkMedium, float>, long long> bySpeed;
    std::map<std::pair<bool, float>, long long> transceivers; // by InfiniBand, speed
    std::map<std::tuple<CableKind, float, double>, CableCount> cables;
    for (size_t i = 0; i < t.links.size(); ++i) {
        const Link& l = t.links[i];
        ++b.links.total;
        ++b.links.byMedium[size_t(l.medium)];
        ++bySpeed[{l.medium, l.gbps}];
        if (backendSwitch(t, l.a) && backendSwitch(t, l.b)) ++b.links.backendInterSwitch;
        const auto kind = cableKindOf(l.medium);
        if (!kind) continue;
        ++b.cables.total;
        ++b.cables.byKind[size_t(*kind)];
        b.cables.routedM[size_t(*kind)] += lengthsM[i];
        const double lengthClass = lengthClassM(lengthsM[i]);
        CableCount& c = cables[{*kind, l.gbps, lengthClass}];
        c.kind = *kind;
        c.gbps = l.gbps;
        c.lengthClassM = lengthClass;
        ++c.count;
        c.routedM += lengthsM[i];
        if (*kind == CableKind::Fibre) {
            transceivers[{infiniBandLink(t, l), l.gbps}] += 2;
            b.transceivers += 2;
        }
    }
    for (const auto& [key, n] : bySpeed)
        b.links.byMediumAndSpeed.push_back({key.first, key.second, n});
    for (const auto& [key, n] : transceivers)
        b.transceiversBySpeed.push_back({key.second, n, key.first});
    for (const auto& [key, c] : cables)
        b.cables.byLengthClass.push_back(c);
}

void rackFigures(BillOfMaterials& b) {
    double sum = 0;
    for (double w : b.power.rackW)
        if (w > 0) {
            ++b.rackKw.racks;
            sum += w / 1000;
            b.rackKw.max = std::max(b.rackKw.max, w / 1000);
        }
    b.rackKw.mean = b.rackKw.racks ? sum / double(b.rackKw.racks) : 0;
}

} // namespace

BillOfMaterials billOfMaterials(const Topology& t, const TopologyIndex& index,
                                const PriceTable& prices) {
    BillOfMaterials b;
    const std::vector<SwitchPortUse> ports = switchPortUse(t);
    b.power = sitePower(t, ports);
    countEntities(b, t);
    countSwitches(b, t, ports);
    countLinks(b, t, cableLengthsM(t, index));
    rackFigures(b);
    priceBill(b, t, ports, prices);
    return b;
}

} // namespace cs
