#pragma once
// How a backend fabric carries RDMA traffic, as a design chooses it: how flows spread over
// equal-cost paths, how senders react to congestion, how many queue pairs a GPU pair opens, the
// switches' buffers and whether switches reduce data themselves. Each has "auto": the fabric
// technology's own default (model/network/Transport.h resolves them, with sources).
#include "EntityKinds.h"
#include "EnumNames.h"

#include <cstdint>
#include <optional>
#include <string>

namespace cs {

// ecmp: every flow (queue pair) hashed onto one of the equal-cost paths at each hop; adaptive:
// packets or flowlets sent to the least loaded port (InfiniBand adaptive routing, Spectrum-X);
// spray: packets spread evenly over every equal-cost path, whatever their load.
enum class LoadBalancing : uint8_t { Auto, Ecmp, Adaptive, Spray };
inline constexpr EnumNames kLoadBalancingNames{std::to_array<EnumName<LoadBalancing>>({
    {LoadBalancing::Auto, "auto", "Fabric's default"},
    {LoadBalancing::Ecmp, "ecmp", "ECMP (hash per queue pair)"},
    {LoadBalancing::Adaptive, "adaptive", "Adaptive routing"},
    {LoadBalancing::Spray, "spray", "Packet spraying"},
})};
constexpr const auto& namesOf(LoadBalancing) {
    return kLoadBalancingNames;
}

// dcqcn: RoCE's rate control (ECN marks, senders back off) over PFC; pfc: PFC alone, no
// end-to-end rate control (Meta's 400G RoCE fabric); credit: InfiniBand's link-level credits;
// none: a lossy fabric without flow control (drops and retransmits).
enum class CongestionControl : uint8_t { Auto, Dcqcn, Pfc, Credit, None };
inline constexpr EnumNames kCongestionControlNames{std::to_array<EnumName<CongestionControl>>({
    {CongestionControl::Auto, "auto", "Fabric's default"},
    {CongestionControl::Dcqcn, "dcqcn", "DCQCN over PFC"},
    {CongestionControl::Pfc, "pfc", "PFC only"},
    {CongestionControl::Credit, "credit", "Credit-based (InfiniBand)"},
    {CongestionControl::None, "none", "None (lossy)"},
})};
constexpr const auto& namesOf(CongestionControl) {
    return kCongestionControlNames;
}

// sharp: the switches reduce an all-reduce's data (InfiniBand SHARP, NCCL's CollNet); off: the
// GPUs reduce it.
enum class InNetworkReduction : uint8_t { Auto, Off, Sharp };
inline constexpr EnumNames kInNetworkReductionNames{std::to_array<EnumName<InNetworkReduction>>({
    {InNetworkReduction::Auto, "auto", "Fabric's default"},
    {InNetworkReduction::Off, "off", "Off"},
    {InNetworkReduction::Sharp, "sharp", "SHARP (in-switch)"},
})};
constexpr const auto& namesOf(InNetworkReduction) {
    return kInNetworkReductionNames;
}

// Bounds of the numeric settings: more queue pairs than NCCL opens per connection, more buffer
// than any switch holds per port.
constexpr int kMaxQpsPerConnection = 128;
constexpr double kMaxSwitchBufferMiB = 65536;

// A cluster's transport as its design states it (auto and 0 where the fabric decides).
struct TransportSettings {
    LoadBalancing loadBalancing = LoadBalancing::Auto;
    int qpsPerConnection = 0; // queue pairs (flows) between two GPUs; 0: the fabric's
    CongestionControl congestionControl = CongestionControl::Auto;
    double switchBufferMiB = 0; // per port of a leaf switch; 0: the fabric's
    InNetworkReduction inNetworkReduction = InNetworkReduction::Auto;
    bool operator==(const TransportSettings&) const = default;
};

// Settings a fabric cannot have ("sharp" on Ethernet, credits on RoCE, PFC on InfiniBand):
// the setting's name and why; nothing when the fabric can have them all.
struct TransportConflict {
    std::string field, message;
};
std::optional<TransportConflict> transportConflict(Fabric fabric, const TransportSettings& s);

} // namespace cs
