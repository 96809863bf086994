#pragma once
// The ports of each switch as the links use them: one port per link end, at that link's speed,
// and the ports left free, taken at the switch's fastest speed (what a free port would carry).
// Power and prices are per port at its speed.
#include "Topology.h"

#include <vector>

namespace cs {

struct PortsAtSpeed {
    float gbps = 0;
    int count = 0;
};

struct SwitchPortUse {
    std::vector<PortsAtSpeed> used; // by speed, fastest last
    int usedCount = 0;
    int freeCount = 0;     // radix less the used ports (never below 0)
    float fastestGbps = 0; // its fastest link; without links, its role's (switchPortUse)
};

std::vector<SwitchPortUse> switchPortUse(const Topology& t);

} // namespace cs
