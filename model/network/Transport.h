#pragma once
// A cluster's transport with its "auto" settled: what its fabric technology does by default
// (each default with its source), and what the transport costs on the wire. Sources:
// docs/reference/network-transport.md.
#include "Topology.h"
#include "TransportKinds.h"

#include <string>
#include <vector>

namespace cs {

struct Transport {
    Fabric fabric = Fabric::Roce;
    LoadBalancing loadBalancing = LoadBalancing::Ecmp;
    int qpsPerConnection = 1; // per connection: a channel between two GPUs
    // Flows between two GPUs: each of NCCL's channels on the pair's NIC a connection.
    int flowsPerGpuPair() const;
    // What the congestion control keeps of a link that two or more flows saturate (htsim:
    // the mean completion of ECMP permutations against UEC's NSCC, which keeps colliding flows
    // near their fair share). docs/reference/htsim-campaign.md.
    double contendedEfficiency() const;
    CongestionControl congestionControl = CongestionControl::Pfc;
    double switchBufferBytes = 0; // per port of a leaf switch
    bool sharp = false;           // the switches reduce all-reduces (NCCL CollNet)
    // Payload over wire bytes of a full 4 KiB RDMA packet: what the link's bit rate carries of
    // data once the technology's headers (and Ethernet's preamble and gap) are paid.
    double wireEfficiency = 1;
};

// RoCE: ECMP on the queue pair with 16 flows per GPU pair and PFC without DCQCN (Meta's 400G
// fabric, Llama 3 section 3.3.1 and SIGCOMM 2024); InfiniBand: adaptive routing and credit flow
// control (Quantum-2), one queue pair per connection (NCCL's default). SHARP only when asked.
Transport resolveTransport(Fabric fabric, const TransportSettings& s);
Transport transportOf(const Cluster& c);

// Per GPU, the transport of its cluster (GPUs outside any cluster: the first cluster's, or
// RoCE's defaults in a topology without clusters).
class FabricTransports {
public:
    explicit FabricTransports(const Topology& t);
    const Transport& ofGpu(int32_t gpu) const {
        return byCluster_[size_t(clusterOfGpu_.empty() ? 0 : clusterOfGpu_[size_t(gpu)])];
    }
    // A cluster's (kNone: the first cluster's).
    const Transport& ofCluster(int32_t cluster) const {
        return byCluster_[cluster >= 0 && size_t(cluster) < byCluster_.size() ? size_t(cluster)
                                                                              : 0];
    }

private:
    std::vector<Transport> byCluster_;
    std::vector<uint16_t> clusterOfGpu_;
};

} // namespace cs
