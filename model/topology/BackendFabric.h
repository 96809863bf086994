#pragma once
// The backend fabric of a topology as the fabric formats see it: hosts with their backend
// NICs (each on one switch port), the backend switches and the links between them.
#include "Topology.h"

#include <vector>

namespace cs {

struct BackendFabric {
    struct NicLink {
        int32_t host = kNone, nic = kNone, gpuLocal = 0, sw = kNone;
        uint16_t port = 0; // the switch's
        float gbps = 0, latencyNs = 0;
    };
    struct SwitchLink {
        int32_t a = kNone, b = kNone;
        uint16_t portA = 0, portB = 0;
        float gbps = 0, latencyNs = 0;
    };
    std::vector<int32_t> switches;       // backend switches, by index
    std::vector<int32_t> ordinalOf;      // per switch index: its place in `switches`, or kNone
    std::vector<NicLink> nics;           // by host, then NIC
    std::vector<int32_t> firstNicOfHost; // hosts + 1 offsets into nics
    std::vector<SwitchLink> links;
    std::vector<uint16_t> radix; // per backend switch: its ports, at least the highest in use
};

BackendFabric backendFabric(const Topology& t);
int backendTier(SwitchRole role); // 1 leaf, 2 spine, 3 core

} // namespace cs
