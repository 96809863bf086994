#include "BomLines.h"

#include "EquipmentPower.h"
#include "PartFabric.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>

namespace cs {
namespace {

// Looks prices up and remembers which it used. InfiniBand parts have entries of their own.
class Pricer {
public:
    explicit Pricer(const PriceTable& table) : table_(table) {}
    double usd(const std::string& key, const std::string& what) {
        const Price& p = table_.at(key, what);
        used_.emplace(key, p);
        return p.usd;
    }
    double port(float gbps, bool ib) {
        return usd(partKey("switchPort", ib, speedKey(gbps)),
                   "a " + part(gbps, ib) + "switch port");
    }
    double transceiver(float gbps, bool ib) {
        return usd(partKey("transceiver", ib, speedKey(gbps)),
                   "a " + part(gbps, ib) + "transceiver");
    }
    double nic(float gbps, bool ib) {
        return usd(partKey("nic", ib, speedKey(gbps)), "a " + part(gbps, ib) + "NIC");
    }
    double chassis() { return usd("switchChassis", "a modular switch chassis"); }
    double cable(CableKind k) {
        return usd("cable." + std::string(kCableKindNames.name(k)),
                   "a " + std::string(kCableKindNames.label(k)) + " cable");
    }
    const std::map<std::string, Price>& used() const { return used_; }

private:
    const PriceTable& table_;
    std::map<std::string, Price> used_;
    static std::string part(float gbps, bool ib) {
        return speedKey(gbps) + (ib ? " InfiniBand " : " ");
    }
};

// Lines in the order they are first added; the same item adds up.
class Lines {
public:
    void add(BomCategory c, const std::string& item, long long count, double usd, double w) {
        auto [at, added] = index_.emplace(item, lines_.size());
        if (added) lines_.push_back({item, c, 0, 0, 0, 0, 0});
        BomLine& l = lines_[at->second];
        l.count += count;
        l.costUsd += usd;
        l.powerW += w;
    }
    std::vector<BomLine> take() {
        for (BomLine& l : lines_) {
            l.unitUsd = l.count ? l.costUsd / double(l.count) : 0;
            l.unitPowerW = l.count ? l.powerW / double(l.count) : 0;
        }
        return std::move(lines_);
    }

private:
    std::vector<BomLine> lines_;
    std::unordered_map<std::string, size_t> index_;
};

// A fixed switch comes with all its ports; a modular chassis (SwitchPorts.h) with the line
// cards its used ports fill, each port priced at its speed.
double switchUsd(Pricer& p, const Switch& s, const SwitchPortUse& u, bool ib) {
    if (s.role == SwitchRole::NvSwitch) return 0; // part of its host
    double usd = u.idleCount ? u.idleCount * p.port(u.fastestGbps, ib) : 0;
    for (const PortsAtSpeed& at : u.used)
        usd += at.count * p.port(at.gbps, ib);
    // The 16-slot chassis's price; a smaller one in proportion to its slots.
    if (u.lineCards > 0) usd += p.chassis() * chassisSlots(s.ports) / kChassisSlots;
    return usd;
}

// [paper] NVIDIA's GB200 rack reference design: 8 power shelves of 6 PSUs up to 5.5 kW
// (docs/reference/dgx-superpods.md).
constexpr long long kPowerShelvesPerNvlinkRack = 8;

bool backendSwitch(const Topology& t, Endpoint e) {
    return e.kind == EntityKind::Switch &&
           networkOf(t.switches[size_t(e.index)].role) == Network::Backend;
}

void addHostLines(Lines& lines, Pricer& p, const Topology& t, const GpuPowerFigures& gpu) {
    std::map<int, long long> hostsByGpus;
    for (const Host& h : t.hosts)
        ++hostsByGpus[h.gpuCount];
    const long long gpus = (long long)t.gpus.size();
    lines.add(BomCategory::Gpu, "GPU " + t.gpuModel, gpus,
              double(gpus) * p.usd("gpu." + t.gpuModel, "the GPU model " + t.gpuModel),
              double(gpus) * gpu.tdpW);
    for (const auto& [g, n] : hostsByGpus)
        lines.add(BomCategory::Host,
                  "host for " + std::to_string(g) + " GPUs (without GPUs and NICs)", n,
                  double(n) * p.usd("host", "a host") * g / 8.0, double(n) * hostRestW(gpu, g));
    std::map<std::tuple<NicRole, float, bool>, long long> nics; // by role, speed, InfiniBand
    for (size_t i = 0; i < t.nics.size(); ++i)
        ++nics[{t.nics[i].role, t.nics[i].gbps, infiniBandNic(t, int32_t(i))}];
    for (const auto& [key, n] : nics) {
        const auto& [role, gbps, ib] = key;
        lines.add(BomCategory::Nic,
                  "NIC " + std::string(toString(role)) + " " + speedKey(gbps) +
                      (ib ? " InfiniBand" : ""),
                  n, double(n) * p.nic(gbps, ib), double(n) * nicPowerW(gbps));
    }
}

void addSwitchLines(Lines& lines, Pricer& p, BillOfMaterials& b, const Topology& t,
                    const std::vector<SwitchPortUse>& ports) {
    struct Sum {
        long long count = 0;
        double usd = 0, w = 0;
    };
    // By role, radix, and for NVLink switches whether a host holds it or its rack (a tray).
    std::map<std::tuple<SwitchRole, int, bool>, Sum> groups;
    for (size_t s = 0; s < t.switches.size(); ++s) {
        const Switch& w = t.switches[s];
        const double usd = switchUsd(p, w, ports[s], infiniBandSwitch(t, int32_t(s)));
        const bool tray = w.role == SwitchRole::NvSwitch && w.host == kNone;
        Sum& g = groups[{w.role, w.ports, tray}];
        ++g.count;
        g.usd += usd;
        g.w += switchPowerW(w, ports[s]);
        if (networkOf(w.role) == Network::Backend) b.cost.backendFabricUsd += usd;
    }
    for (const auto& [key, g] : groups) {
        const auto& [role, radix, tray] = key;
        lines.add(BomCategory::Switch,
                  "switch " + std::string(toString(role)) + ", " + std::to_string(radix) +
                      " ports" +
                      (tray                           ? " (rack tray)"
                       : role == SwitchRole::NvSwitch ? " (in its host)"
                                                      : ""),
                  g.count, g.usd, g.w);
    }
    // A rack-wide NVLink domain comes as a rack system with power shelves of its own.
    std::vector<uint8_t> nvlinkRack(t.racks.size(), 0);
    for (const Switch& w : t.switches)
        if (w.role == SwitchRole::NvSwitch && w.host == kNone && w.rack != kNone)
            nvlinkRack[size_t(w.rack)] = 1;
    const long long racks = std::count(nvlinkRack.begin(), nvlinkRack.end(), uint8_t(1));
    if (racks > 0)
        lines.add(BomCategory::Host, "power shelf 33 kW (not priced)",
                  racks * kPowerShelvesPerNvlinkRack, 0, 0);
}

void addLinkLines(Lines& lines, Pricer& p, BillOfMaterials& b, const Topology& t) {
    for (const SpeedCount& s : b.transceiversBySpeed)
        lines.add(BomCategory::Transceiver,
                  "transceiver " + speedKey(s.gbps) + (s.infiniBand ? " InfiniBand" : ""), s.count,
                  double(s.count) * p.transceiver(s.gbps, s.infiniBand),
                  double(s.count) * transceiverPowerW(s.gbps));
    for (const CableCount& c : b.cables.byLengthClass)
        lines.add(BomCategory::Cable,
                  std::string(kCableKindNames.label(c.kind)) + " " + speedKey(c.gbps) + ", " +
                      QString::number(c.lengthClassM).toStdString() + " m",
                  c.count, double(c.count) * p.cable(c.kind),
                  c.kind == CableKind::Dac ? double(c.count) * dacPowerW() : 0.0);
    // The links between backend switches, as the fabric's share of cables and optics.
    for (const Link& l : t.links) {
        const auto kind = cableKindOf(l.medium);
        if (!kind || !backendSwitch(t, l.a) || !backendSwitch(t, l.b)) continue;
        b.cost.backendFabricUsd +=
            p.cable(*kind) +
            (*kind == CableKind::Fibre ? 2 * p.transceiver(l.gbps, infiniBandLink(t, l)) : 0.0);
    }
}

void addStorageLines(Lines& lines, Pricer& p, const Topology& t) {
    std::map<StorageKind, long long> byKind;
    for (const StorageServer& s : t.storage)
        ++byKind[s.kind];
    for (const auto& [kind, n] : byKind) {
        const std::string name(toString(kind));
        lines.add(BomCategory::Storage, "storage server " + name, n,
                  double(n) * p.usd("storage." + name, "a " + name + " storage server"),
                  double(n) * storageServerPowerW(kind));
    }
}

} // namespace

void priceBill(BillOfMaterials& b, const Topology& t, const std::vector<SwitchPortUse>& ports,
               const PriceTable& prices) {
    const std::optional<GpuPowerFigures> gpu = gpuPowerOf(t.gpuModel);
    if (!gpu) return; // sitePower has refused the topology already
    Pricer p(prices);
    Lines lines;
    addHostLines(lines, p, t, *gpu);
    addSwitchLines(lines, p, b, t, ports);
    addLinkLines(lines, p, b, t);
    addStorageLines(lines, p, t);
    b.lines = lines.take();
    for (const BomLine& l : b.lines) {
        b.cost.byCategoryUsd[size_t(l.category)] += l.costUsd;
        b.cost.totalUsd += l.costUsd;
    }
    b.cost.perGpuUsd = b.gpus ? b.cost.totalUsd / double(b.gpus) : 0;
    for (BomCategory c :
         {BomCategory::Switch, BomCategory::Nic, BomCategory::Transceiver, BomCategory::Cable})
        b.cost.networkUsd += b.cost.byCategoryUsd[size_t(c)];
    b.cost.perGpuNetworkUsd = b.gpus ? b.cost.networkUsd / double(b.gpus) : 0;
    b.cost.perBackendEndpointUsd =
        b.backendEndpoints ? b.cost.backendFabricUsd / double(b.backendEndpoints) : 0;
    b.pricesUsed.assign(p.used().begin(), p.used().end());
}

} // namespace cs
