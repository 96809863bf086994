#include "EntityKinds.h"

#include <array>

namespace cs {
namespace {

template <typename E, size_t N>
std::optional<E> parseFrom(const std::array<std::string_view, N>& names, std::string_view s) {
    for (size_t i = 0; i < N; ++i)
        if (names[i] == s) return static_cast<E>(i);
    return std::nullopt;
}

constexpr std::array<std::string_view, 10> kEntityKindNames{
    "cluster", "pod", "row", "rack", "host", "gpu", "nic", "switch", "storage", "link"};
constexpr std::array<std::string_view, 3> kRackRoleNames{"compute", "network", "storage"};
constexpr std::array<std::string_view, 2> kNicRoleNames{"backend", "frontend"};
constexpr std::array<std::string_view, 2> kStorageKindNames{"tectonic", "hammerspace"};
constexpr std::array<std::string_view, kLinkMediumCount> kLinkMediumNames{"nvlink", "pcie",
                                                                          "copper-dac", "fibre"};
constexpr std::array<std::string_view, kSwitchRoleCount> kSwitchRoleNames{
    "nvswitch", "rtsw",   "ctsw",      "atsw",     "ib-leaf",    "ib-spine",
    "ib-core",  "fe-tor", "fe-fabric", "fe-spine", "storage-tor"};
constexpr std::array<std::string_view, 3> kNetworkNames{"scale-up", "backend", "frontend"};

} // namespace

std::string_view toString(EntityKind v) {
    return kEntityKindNames[size_t(v)];
}
std::string_view toString(Fabric v) {
    return kFabricNames.name(v);
}
std::string_view toString(RackRole v) {
    return kRackRoleNames[size_t(v)];
}
std::string_view toString(NicRole v) {
    return kNicRoleNames[size_t(v)];
}
std::string_view toString(StorageKind v) {
    return kStorageKindNames[size_t(v)];
}
std::string_view toString(LinkMedium v) {
    return kLinkMediumNames[size_t(v)];
}
std::string_view toString(SwitchRole v) {
    return kSwitchRoleNames[size_t(v)];
}
std::string_view toString(Network v) {
    return kNetworkNames[size_t(v)];
}

std::optional<Fabric> parseFabric(std::string_view s) {
    return kFabricNames.parse(s);
}
std::optional<RackRole> parseRackRole(std::string_view s) {
    return parseFrom<RackRole>(kRackRoleNames, s);
}
std::optional<NicRole> parseNicRole(std::string_view s) {
    return parseFrom<NicRole>(kNicRoleNames, s);
}
std::optional<StorageKind> parseStorageKind(std::string_view s) {
    return parseFrom<StorageKind>(kStorageKindNames, s);
}
std::optional<LinkMedium> parseLinkMedium(std::string_view s) {
    return parseFrom<LinkMedium>(kLinkMediumNames, s);
}
std::optional<SwitchRole> parseSwitchRole(std::string_view s) {
    return parseFrom<SwitchRole>(kSwitchRoleNames, s);
}

std::string_view fabricChoices() {
    return "roce | infiniband";
}
std::string_view rackRoleChoices() {
    return "compute | network | storage";
}
std::string_view nicRoleChoices() {
    return "backend | frontend";
}
std::string_view storageKindChoices() {
    return "tectonic | hammerspace";
}
std::string_view linkMediumChoices() {
    return "nvlink | pcie | copper-dac | fibre";
}
std::string_view switchRoleChoices() {
    return "nvswitch | rtsw | ctsw | atsw | ib-leaf | ib-spine | ib-core | fe-tor | fe-fabric | "
           "fe-spine | storage-tor";
}

Network networkOf(SwitchRole role) {
    switch (role) {
    case SwitchRole::NvSwitch:
        return Network::ScaleUp;
    case SwitchRole::Rtsw:
    case SwitchRole::Ctsw:
    case SwitchRole::Atsw:
    case SwitchRole::IbLeaf:
    case SwitchRole::IbSpine:
    case SwitchRole::IbCore:
        return Network::Backend;
    default:
        return Network::Frontend;
    }
}

int tierOf(SwitchRole role) {
    switch (role) {
    case SwitchRole::NvSwitch:
        return 0;
    case SwitchRole::Rtsw:
    case SwitchRole::IbLeaf:
    case SwitchRole::FrontendTor:
    case SwitchRole::StorageTor:
        return 1;
    case SwitchRole::Ctsw:
    case SwitchRole::IbSpine:
    case SwitchRole::FrontendFabric:
        return 2;
    default:
        return 3;
    }
}

} // namespace cs
