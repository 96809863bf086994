#pragma once
// Cables as the floor layout routes them (CableRoutes.h: down the rack's rear, along the tray
// over the aisle, across to the other rack): each cable's length, and the standard length one
// would order for it. NVLink and PCIe run inside a host and are no cables.
#include "EnumNames.h"
#include "Topology.h"
#include "TopologyIndex.h"

#include <optional>
#include <vector>

namespace cs {

enum class CableKind : uint8_t { Dac, Fibre };
inline constexpr EnumNames kCableKindNames{std::to_array<EnumName<CableKind>>({
    {CableKind::Dac, "dac", "DAC"},
    {CableKind::Fibre, "fibre", "fibre"},
})};

std::optional<CableKind> cableKindOf(LinkMedium m);
// Per link, its routed length in metres on the floor layout; 0 for links that are no cable.
std::vector<float> cableLengthsM(const Topology& t, const TopologyIndex& index);
// The shortest standard cable length at least `lengthM` (0.5 m to 1 km, then whole 100 m).
double lengthClassM(double lengthM);

} // namespace cs
