#pragma once
// Where every entity and link of a topology stands in 3D, for two layouts:
//  - Floor: the data halls as built: rows of racks, hosts and GPUs in racks, network and
//    storage racks, fibre runs through overhead trays.
//  - Fabric: the logical tiers stacked: GPUs and hosts at the bottom, rack switches, pod
//    spines and cluster cores above, pods side by side, frontend and storage behind.
// Also the far level of detail: links bundled between groups (a row of racks, or a switch
// that stands alone), which the 3D view draws instead of individual links when far away.
#include "EnumNames.h"
#include "SceneGeometry.h"
#include "Topology.h"
#include "TopologyIndex.h"

#include <vector>

namespace cs {

enum class LayoutKind : uint8_t { Floor, Fabric };
// The layouts' names (the command line, sessions, bookmarks, the title line) and labels.
inline constexpr EnumNames kLayoutNames{std::to_array<EnumName<LayoutKind>>({
    {LayoutKind::Floor, "floor", "Floor"},
    {LayoutKind::Fabric, "fabric", "Fabric"},
})};

struct LinkBundles {
    std::vector<Vec3> a, b;        // ends: the mean of the member links' ends
    ChildList members;             // links per bundle
    std::vector<int32_t> bundleOf; // per link; kNone for links inside one group
};

struct SceneLayout {
    LayoutKind kind = LayoutKind::Floor;
    std::vector<Box> racks, hosts, gpus, switches, storage; // size 0: not drawn
    std::vector<Box> nics;                     // floor: on the host's front, above its GPUs
    std::vector<Vec3> linkA, linkB;            // per link
    std::vector<int32_t> linkRackA, linkRackB; // per link: the ends' racks (kNone)
    std::vector<uint8_t> linkDrawn;            // per link, in the near level of detail
    float trayHeight = 0;              // floor: fibre runs rise to this height; 0 = straight
    std::vector<uint8_t> rackFar;      // per rack: drawn as a box at far detail
    std::vector<uint8_t> switchFar;    // per switch: drawn on its own at far detail
    std::vector<int32_t> rackOfSwitch; // per switch: the rack it expands with (kNone: always)
    LinkBundles bundles;
    Bounds bounds;
    std::vector<Bounds> podBounds;

    const Box& boxOf(Endpoint e) const;
};

SceneLayout computeLayout(const Topology& t, const TopologyIndex& index, LayoutKind kind);

} // namespace cs
