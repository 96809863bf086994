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
    // A modular chassis (more ports than one switch box has): the line cards its used ports
    // fill; 0 for a fixed switch, which comes with all its ports.
    int lineCards = 0;
    // Ports bought and powered but not used: a fixed switch's free ports, or those left on
    // the chassis's line cards (empty slots cost and draw nothing).
    int idleCount = 0;
};

// [2nd] The largest fixed switches of the era have 64 ports of 400G (NVIDIA Quantum-2 QM9700,
// Spectrum-4 SN5600 at 800G); a switch of more ports is a modular chassis.
constexpr int kFixedSwitchMaxPorts = 64;
// [2nd] Arista 7800R3 line cards carry 36 x 400G; 16 slots make Meta's 576-port CTSW
// (docs/reference/llama3-clusters.md).
constexpr int kLineCardPorts = 36;
constexpr int kChassisSlots = 16; // the 576-port chassis's; smaller ones in proportion

// The line-card slots of a modular chassis of this radix.
inline int chassisSlots(int radix) {
    return (radix + kLineCardPorts - 1) / kLineCardPorts;
}

std::vector<SwitchPortUse> switchPortUse(const Topology& t);

} // namespace cs
