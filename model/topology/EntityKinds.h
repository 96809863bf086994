#pragma once
// Enumerations of what a cluster is made of, with their names as the file format spells them.
#include "EnumNames.h"

#include <cstdint>
#include <optional>
#include <string_view>

namespace cs {

enum class EntityKind : uint8_t { Cluster, Pod, Row, Rack, Host, Gpu, Nic, Switch, Storage, Link };
enum class Fabric : uint8_t { Roce, InfiniBand };
enum class RackRole : uint8_t { Compute, Network, Storage };
enum class NicRole : uint8_t { Backend, Frontend };
enum class StorageKind : uint8_t { Tectonic, Hammerspace };
enum class LinkMedium : uint8_t { NvLink, Pcie, CopperDac, Fibre };
// Backend roles by fabric (RoCE: RTSW/CTSW/ATSW, InfiniBand: leaf/spine/core), the frontend
// network (ToR, fabric, spine), storage ToRs, and the NVSwitch inside each host.
enum class SwitchRole : uint8_t {
    NvSwitch,
    Rtsw,
    Ctsw,
    Atsw,
    IbLeaf,
    IbSpine,
    IbCore,
    FrontendTor,
    FrontendFabric,
    FrontendSpine,
    StorageTor,
};
enum class Network : uint8_t { ScaleUp, Backend, Frontend };

// The fabric's names and labels, one table for the file format, --set and dialogs.
inline constexpr EnumNames kFabricNames{std::to_array<EnumName<Fabric>>({
    {Fabric::Roce, "roce", "RoCE"},
    {Fabric::InfiniBand, "infiniband", "InfiniBand"},
})};
constexpr const auto& namesOf(Fabric) {
    return kFabricNames;
}

// The NVLink domain: each host's own NVSwitch (HGX, DGX, Grand Teton), or the rack's hosts
// together through NVLink switch trays (GB200 NVL72).
enum class ScaleUp : uint8_t { Host, Rack };
inline constexpr EnumNames kScaleUpNames{std::to_array<EnumName<ScaleUp>>({
    {ScaleUp::Host, "host", "Each host"},
    {ScaleUp::Rack, "rack", "The rack (NVL72)"},
})};
constexpr const auto& namesOf(ScaleUp) {
    return kScaleUpNames;
}

constexpr int kSwitchRoleCount = 11;
constexpr int kLinkMediumCount = 4;

std::string_view toString(EntityKind v);
std::string_view toString(Fabric v);
std::string_view toString(RackRole v);
std::string_view toString(NicRole v);
std::string_view toString(StorageKind v);
std::string_view toString(LinkMedium v);
std::string_view toString(SwitchRole v);
std::string_view toString(Network v);

// Each returns nothing when the text names no value of the enum.
std::optional<Fabric> parseFabric(std::string_view s);
std::optional<RackRole> parseRackRole(std::string_view s);
std::optional<NicRole> parseNicRole(std::string_view s);
std::optional<StorageKind> parseStorageKind(std::string_view s);
std::optional<LinkMedium> parseLinkMedium(std::string_view s);
std::optional<SwitchRole> parseSwitchRole(std::string_view s);

// The accepted spellings joined by " | ", for error messages of the explicit form.
std::string_view fabricChoices();
std::string_view rackRoleChoices();
std::string_view nicRoleChoices();
std::string_view storageKindChoices();
std::string_view linkMediumChoices();
std::string_view switchRoleChoices();

Network networkOf(SwitchRole role);
// Tier above the hosts: 0 inside the host (NVSwitch), 1 rack, 2 pod, 3 cluster / site.
int tierOf(SwitchRole role);

} // namespace cs
