#include "SitePower.h"

#include "EquipmentPower.h"
#include "InputError.h"

namespace cs {
namespace {

int32_t rackOf(const Topology& t, Endpoint e) {
    switch (e.kind) {
    case EntityKind::Switch:
        return t.switches[size_t(e.index)].rack;
    case EntityKind::Nic:
        return t.hosts[size_t(t.nics[size_t(e.index)].host)].rack;
    case EntityKind::Gpu:
        return t.hosts[size_t(t.gpus[size_t(e.index)].host)].rack;
    case EntityKind::Storage:
        return t.storage[size_t(e.index)].rack;
    default:
        return kNone;
    }
}

} // namespace

double switchPowerW(const Switch& s, const SwitchPortUse& ports) {
    if (s.role == SwitchRole::NvSwitch) return 0;
    // Ports bought but idle draw as used ones; a chassis's empty slots draw nothing.
    double w = ports.idleCount * switchPortPowerW(ports.fastestGbps) +
               (ports.lineCards > 0 ? switchChassisPowerW(chassisSlots(s.ports)) : 0.0);
    for (const PortsAtSpeed& p : ports.used)
        w += p.count * switchPortPowerW(p.gbps);
    return w;
}

SitePower sitePower(const Topology& t, const std::vector<SwitchPortUse>& ports) {
    const std::optional<GpuPowerFigures> gpu = gpuPowerOf(t.gpuModel);
    if (!gpu)
        throw InputException({t.name, 0, 0, "gpuModel",
                              "no power figures for the GPU model \"" + t.gpuModel +
                                  "\"; known: " + gpuPowerModels()});
    SitePower p;
    p.rackW.assign(t.racks.size(), 0.0);
    auto add = [&](double& total, int32_t rack, double w) {
        total += w;
        if (rack != kNone) p.rackW[size_t(rack)] += w;
    };
    for (const Host& h : t.hosts) {
        add(p.gpusW, h.rack, h.gpuCount * gpu->tdpW);
        p.gpusIdleW += h.gpuCount * gpu->idleW;
        add(p.hostsW, h.rack, hostRestW(*gpu, h.gpuCount));
    }
    for (const Nic& n : t.nics)
        add(p.nicsW, t.hosts[size_t(n.host)].rack, nicPowerW(n.gbps));
    for (size_t s = 0; s < t.switches.size(); ++s)
        add(p.switchesW, t.switches[s].rack, switchPowerW(t.switches[s], ports[s]));
    for (const StorageServer& s : t.storage)
        add(p.storageW, s.rack, storageServerPowerW(s.kind));
    for (const Link& l : t.links) {
        if (l.medium == LinkMedium::Fibre) {
            add(p.opticsW, rackOf(t, l.a), transceiverPowerW(l.gbps));
            add(p.opticsW, rackOf(t, l.b), transceiverPowerW(l.gbps));
        } else if (l.medium == LinkMedium::CopperDac) {
            add(p.opticsW, rackOf(t, l.a), dacPowerW());
        }
    }
    return p;
}

SitePower sitePower(const Topology& t) {
    return sitePower(t, switchPortUse(t));
}

std::optional<SitePowerModel> sitePowerModel(const Topology& t) {
    const std::optional<GpuPowerFigures> gpu = gpuPowerOf(t.gpuModel);
    if (!gpu) return std::nullopt;
    const SitePower p = sitePower(t);
    return SitePowerModel{(long long)t.gpus.size(), gpu->idleW, gpu->tdpW, p.restW()};
}

} // namespace cs
