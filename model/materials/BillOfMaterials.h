#pragma once
// A design's bill of materials: what it is made of (GPUs, hosts, racks; switches by role and
// radix; links by medium and speed; transceivers; cables by kind and standard length, the
// lengths from the floor layout's routes; ports used and free per switch role), what it draws
// (SitePower: data-sheet figures) and what it costs (a PriceTable). A plain struct: the
// command line prints it (BomReport.h), the GUI's Summary tab shows it.
#include "CableLengths.h"
#include "PriceTable.h"
#include "SitePower.h"
#include "TopologyIndex.h"

#include <array>
#include <string>
#include <utility>
#include <vector>

namespace cs {

enum class BomCategory : uint8_t { Gpu, Host, Nic, Switch, Transceiver, Cable, Storage };
constexpr int kBomCategoryCount = 7;
inline constexpr EnumNames kBomCategoryNames{std::to_array<EnumName<BomCategory>>({
    {BomCategory::Gpu, "gpu", "GPUs"},
    {BomCategory::Host, "host", "hosts"},
    {BomCategory::Nic, "nic", "NICs"},
    {BomCategory::Switch, "switch", "switches"},
    {BomCategory::Transceiver, "transceiver", "transceivers"},
    {BomCategory::Cable, "cable", "cables"},
    {BomCategory::Storage, "storage", "storage servers"},
})};

// One line of the bill: a part, how many, what they cost and draw. A line of parts priced
// port by port (switches) gives the mean per part as its unit figures.
struct BomLine {
    std::string item; // "switch rtsw, 64 ports", "fibre 400G, 30 m"
    BomCategory category = BomCategory::Gpu;
    long long count = 0;
    double unitUsd = 0, costUsd = 0;
    double unitPowerW = 0, powerW = 0; // at full load (GPUs at their power limit)
};

struct SwitchCount {
    SwitchRole role = SwitchRole::Rtsw;
    int radix = 0;
    long long count = 0;
};
struct LinkCount {
    LinkMedium medium = LinkMedium::Fibre;
    float gbps = 0;
    long long count = 0;
};
struct SpeedCount {
    float gbps = 0;
    long long count = 0;
    bool infiniBand = false; // transceivers: InfiniBand ones (PartFabric.h)
};
struct CableCount {
    CableKind kind = CableKind::Dac;
    float gbps = 0;
    double lengthClassM = 0; // the standard length to order
    long long count = 0;
    double routedM = 0; // the routes' lengths, in all
};
struct PortCount { // the switches of one role
    SwitchRole role = SwitchRole::Rtsw;
    int tier = 0; // tierOf(role): 0 in the host, 1 rack, 2 pod, 3 cluster or site
    long long switches = 0, ports = 0, used = 0, free = 0;
};

struct BillOfMaterials {
    std::string topology, gpuModel;
    long long gpus = 0, hosts = 0;
    long long racks = 0; // racks holding hosts, as `stats` counts them
    long long networkRacks = 0, storageRacks = 0, nics = 0, storageServers = 0;
    long long backendEndpoints = 0; // backend NICs: the endpoints of the GPUs' fabric

    struct Switches {
        long long total = 0;
        long long backend = 0; // the switches of the GPUs' backend fabric
        std::array<long long, kSwitchRoleCount> byRole{};
        std::vector<SwitchCount> byRoleAndRadix;
    } switches;
    struct Links {
        long long total = 0;
        long long backendInterSwitch = 0; // links between two backend switches
        std::array<long long, kLinkMediumCount> byMedium{};
        std::vector<LinkCount> byMediumAndSpeed;
    } links;
    long long transceivers = 0; // two per fibre link
    std::vector<SpeedCount> transceiversBySpeed;
    struct Cables {
        long long total = 0;                   // DAC and fibre links
        std::array<long long, 2> byKind{};     // by CableKind
        std::array<double, 2> routedM{};       // by CableKind, the routes' lengths in all
        std::vector<CableCount> byLengthClass; // by kind, speed and standard length
    } cables;
    std::vector<PortCount> ports; // one per switch role present

    SitePower power; // watts by kind and per rack
    struct RackKw {  // over the racks drawing power, GPUs at their limit
        double max = 0, mean = 0;
        long long racks = 0;
    } rackKw;

    struct Cost {
        double totalUsd = 0, perGpuUsd = 0;
        // The backend switches and the links between them (cables, transceivers), as network
        // cost tables count a fabric; over the backend endpoints.
        double backendFabricUsd = 0, perBackendEndpointUsd = 0;
        // The network, backend and frontend: switches, NICs, transceivers and cables.
        double networkUsd = 0, perGpuNetworkUsd = 0;
        std::array<double, kBomCategoryCount> byCategoryUsd{};
    } cost;
    std::vector<BomLine> lines;
    std::vector<std::pair<std::string, Price>> pricesUsed; // key and price, in key order
};

// Throws InputException when the GPU model has no power figures or a part has no price.
BillOfMaterials billOfMaterials(const Topology& t, const TopologyIndex& index,
                                const PriceTable& prices);

} // namespace cs
