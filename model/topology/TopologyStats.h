#pragma once
// Figures derived from the topology graph (never stored in it): counts by kind, role and
// medium, and per pod the injection, uplink, oversubscription and bisection bandwidth.
#include "Topology.h"

#include <array>
#include <limits>
#include <string>
#include <vector>

namespace cs {

struct PodStats {
    std::string name;
    int32_t cluster = kNone;
    long long gpus = 0;
    double injectionGbps = 0;    // backend NICs of the pod's hosts
    double uplinkGbps = 0;       // backend links from the pod's switches to switches above pods
    double oversubscription = 0; // injection / uplink; NaN: no uplinks (not applicable)
    double bisectionGbps = 0;    // max flow between the two halves of the pod's rack switches
    bool fullBisection = false;  // bisection >= half the injection
};

struct TopologyStats {
    long long clusters = 0, pods = 0, rows = 0;
    long long racks = 0; // racks holding hosts
    long long networkRacks = 0, storageRacks = 0;
    long long hosts = 0, gpus = 0, nics = 0, switches = 0, storageServers = 0, links = 0;
    long long tectonicServers = 0, hammerspaceServers = 0;
    std::array<long long, kSwitchRoleCount> switchesByRole{};
    std::array<long long, kLinkMediumCount> linksByMedium{};
    std::array<double, kLinkMediumCount> gbpsByMedium{};
    double injectionGbps = 0; // all backend NICs
    // The largest over pods (pod injection / pod uplink); NaN when no pod has uplinks.
    double oversubscription = std::numeric_limits<double>::quiet_NaN();
    std::vector<PodStats> podStats;
};

TopologyStats computeStats(const Topology& t);

} // namespace cs
