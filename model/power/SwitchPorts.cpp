#include "SwitchPorts.h"

#include <algorithm>

namespace cs {

std::vector<SwitchPortUse> switchPortUse(const Topology& t) {
    std::vector<SwitchPortUse> out(t.switches.size());
    // For a switch no link reaches (a core of a thinned fabric): the speed its role's other
    // switches use, else the fastest of any switch but the NVSwitches (NVLink is no fabric).
    std::vector<float> fastestOfRole(kSwitchRoleCount, 0.f);
    float fastest = 0;
    auto use = [&](Endpoint e, float gbps) {
        if (e.kind != EntityKind::Switch) return;
        SwitchPortUse& s = out[size_t(e.index)];
        auto at = std::find_if(s.used.begin(), s.used.end(),
                               [&](const PortsAtSpeed& p) { return p.gbps == gbps; });
        if (at == s.used.end())
            s.used.push_back({gbps, 1});
        else
            ++at->count;
        ++s.usedCount;
        s.fastestGbps = std::max(s.fastestGbps, gbps);
    };
    for (const Link& l : t.links) {
        use(l.a, l.gbps);
        use(l.b, l.gbps);
    }
    for (size_t i = 0; i < out.size(); ++i) {
        const SwitchRole role = t.switches[i].role;
        float& f = fastestOfRole[size_t(role)];
        f = std::max(f, out[i].fastestGbps);
        if (role != SwitchRole::NvSwitch) fastest = std::max(fastest, out[i].fastestGbps);
    }
    for (size_t i = 0; i < out.size(); ++i) {
        SwitchPortUse& s = out[i];
        std::sort(s.used.begin(), s.used.end(),
                  [](const PortsAtSpeed& a, const PortsAtSpeed& b) { return a.gbps < b.gbps; });
        const float ofRole = fastestOfRole[size_t(t.switches[i].role)];
        if (s.usedCount == 0) s.fastestGbps = ofRole > 0 ? ofRole : fastest;
        const int radix = int(t.switches[i].ports);
        s.freeCount = std::max(0, radix - s.usedCount);
        s.idleCount = s.freeCount;
        if (radix > kFixedSwitchMaxPorts && t.switches[i].role != SwitchRole::NvSwitch) {
            s.lineCards = std::max(1, (s.usedCount + kLineCardPorts - 1) / kLineCardPorts);
            s.idleCount = std::max(0, std::min(radix, s.lineCards * kLineCardPorts) - s.usedCount);
        }
    }
    return out;
}

} // namespace cs
