#include "Transport.h"

#include "NcclConstants.h"

namespace cs {
namespace {

// Bytes on the wire per 4 KiB of payload. InfiniBand: LRH 8 + BTH 12 + ICRC 4 + VCRC 2 (IBTA
// spec). RoCEv2: preamble and start 8, Ethernet 14, 802.1Q tag 4, IPv4 20, UDP 8, BTH 12, ICRC 4,
// FCS 4, inter-frame gap 12 (IEEE 802.3, RoCEv2 annex A17).
constexpr double kPayload = 4096;
constexpr double kInfinibandOverhead = 26;
constexpr double kRoceOverhead = 86;
// Meta's collective library opens 16 flows between two GPUs (Llama 3, 3.3.1): 8 queue pairs on
// each of NCCL's 2 channels of a NIC [derived].
constexpr int kRoceQpsPerConnection = 16 / nccl::kChannelsPerNic;
// A leaf switch's buffer per port: Minipack2's Tomahawk 4, 64 MB shared by 64 ports of 400G
// (Broadcom); Quantum-2's is not published [assumption: the same].
constexpr double kLeafBufferBytesPerPort = 1 << 20;

} // namespace

Transport resolveTransport(Fabric fabric, const TransportSettings& s) {
    Transport t;
    t.fabric = fabric;
    const bool ib = fabric == Fabric::InfiniBand;
    t.loadBalancing = s.loadBalancing != LoadBalancing::Auto ? s.loadBalancing
                      : ib                                   ? LoadBalancing::Adaptive
                                                             : LoadBalancing::Ecmp;
    t.qpsPerConnection =
        s.qpsPerConnection > 0 ? s.qpsPerConnection : (ib ? 1 : kRoceQpsPerConnection);
    t.congestionControl = s.congestionControl != CongestionControl::Auto ? s.congestionControl
                          : ib                                           ? CongestionControl::Credit
                                                                         : CongestionControl::Pfc;
    t.switchBufferBytes =
        s.switchBufferMiB > 0 ? s.switchBufferMiB * 1024 * 1024 : kLeafBufferBytesPerPort;
    t.sharp = s.inNetworkReduction == InNetworkReduction::Sharp;
    t.wireEfficiency = kPayload / (kPayload + (ib ? kInfinibandOverhead : kRoceOverhead));
    return t;
}

int Transport::flowsPerGpuPair() const {
    return nccl::kChannelsPerNic * qpsPerConnection;
}

double Transport::contendedEfficiency() const {
    switch (congestionControl) {
    case CongestionControl::Dcqcn:
        return 0.65;
    case CongestionControl::Pfc:
    case CongestionControl::Credit:
        return 0.88;
    case CongestionControl::Auto:
    case CongestionControl::None:
        break;
    }
    return 1.0;
}

Transport transportOf(const Cluster& c) {
    return resolveTransport(c.fabric, c.transport);
}

FabricTransports::FabricTransports(const Topology& t) {
    for (const Cluster& c : t.clusters)
        byCluster_.push_back(transportOf(c));
    if (byCluster_.empty()) {
        byCluster_.push_back(resolveTransport(Fabric::Roce, {}));
        return;
    }
    if (byCluster_.size() == 1) return;
    clusterOfGpu_.assign(t.gpus.size(), 0);
    for (size_t g = 0; g < t.gpus.size(); ++g) {
        const int32_t host = t.gpus[g].host;
        const int32_t c = host == kNone ? kNone : t.clusterOfRack(t.hosts[size_t(host)].rack);
        clusterOfGpu_[g] = uint16_t(c == kNone ? 0 : c);
    }
}

} // namespace cs
