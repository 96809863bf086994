#pragma once
// Parameters of the topology generator. The defaults reproduce Meta's 24K RoCE cluster; each
// value says where it comes from: [paper] published by Meta, [2nd] secondary sources,
// [derived] arithmetic on those, [assumption] not published, our documented choice.
// Source list: docs/reference/llama3-clusters.md.
#include "EntityKinds.h"
#include "FabricFaultList.h"
#include "TransportKinds.h"

#include <string>
#include <vector>

namespace cs {

struct ClusterParams {
    std::string name = "roce";    // prefix of every entity id in this cluster
    Fabric fabric = Fabric::Roce; // [paper] cluster A RoCEv2, cluster B InfiniBand
    // How the fabric carries RDMA (TransportKinds.h); auto and 0: the fabric's own defaults,
    // which are Meta's for RoCE (model/network/Transport.cpp).
    LoadBalancing loadBalancing = LoadBalancing::Auto;
    int qpsPerConnection = 0;
    CongestionControl congestionControl = CongestionControl::Auto;
    double switchBufferMiB = 0;
    InNetworkReduction inNetworkReduction = InNetworkReduction::Auto;
    int pods = 8;          // [paper] 8 pods (AI zones) of 3,072 GPUs
    int racksPerPod = 192; // [paper] 192 racks per pod
    int hostsPerRack = 2;  // [paper] 16 GPUs = 2 Grand Teton servers under one RTSW
    int gpusPerHost = 8;   // [paper] Grand Teton: 8 x H100
    int cpusPerHost = 2;   // [paper] 2 CPUs per server
    // The NVLink domain: a host (its own NVSwitch) or the rack, whose GPUs all reach each other
    // through nvlinkSwitchTrays switch trays outside the hosts (GB200 NVL72: 9 trays).
    ScaleUp scaleUp = ScaleUp::Host;
    int nvlinkSwitchTrays = 9;
    int racksPerRow = 16; // [assumption] 12 rows of 16 racks per pod
    // Backend fabric. Each rack switch has one uplink per plane; a plane holds spinesPerPlane
    // spine switches per pod, each serving a contiguous block of the pod's racks.
    int planes = 16;        // [2nd] 16 RTSW uplinks: 16 down + 16 up = full bisection in the pod
    int spinesPerPlane = 1; // [assumption] one CTSW per plane and pod reaches all 192 RTSWs
    int leafRadix = 64;     // [2nd] Minipack2 / Wedge400 class: 64 ports at 400G (assumed)
    int spineRadix = 576;   // [paper] Arista 7800 CTSW: up to 576 x 400G ports
    // 0: as many as the pods' uplinks need (coresPerPlaneBuilt, SiteGenerator.h); at 1:7 that is
    // [assumption] one ATSW per plane joining that plane's CTSWs of all pods. N > 0: N per plane.
    int coresPerPlane = 0;
    int leafUplinksPerPlane = 1; // parallel links from a leaf to its spine of each plane
    // Leaf wiring. 0: one leaf per rack takes every NIC of its rack (Meta's RTSW). N > 0:
    // rail-optimised, as DGX SuperPOD and MegaScale wire it: the hosts of N consecutive racks
    // form a scalable unit with gpusPerHost leaves, and leaf k takes NIC k of every host in
    // the unit, so GPU k of two hosts of a unit is one leaf apart.
    int railGroupRacks = 0;
    // Multi-plane (DeepSeek's MPFT): 0, every leaf has uplinks to every plane; N > 0 (with rail
    // wiring), the leaves of rail k reach only planes k N to (k + 1) N - 1, so each rail is a
    // fabric of its own and traffic between rails crosses inside a host (NCCL's PXN).
    int planesPerRail = 0;
    int coreRadix = 576;           // [assumption] ATSW also an Arista 7800 class chassis
    double oversubscription = 7.0; // [paper] pod injection : pod uplink bandwidth = 7 : 1
    int spinesPerNetworkRack = 1;  // [assumption] a chassis fills a rack; 1U switches pack 8
    double nicGbps = 400;          // [paper] one 400G RDMA NIC per GPU
    double fabricGbps = 400;       // [paper] 400G links leaf-spine and spine-core
    double nvlinkGbps = 3600;      // [2nd] NVLink 4: 450 GB/s per direction per GPU
    double pcieGbps = 512;         // [2nd] PCIe Gen5 x16: 64 GB/s per direction GPU<->NIC
    // One-way latencies per medium (propagation + serialisation, no queueing). [assumption]
    // DAC ~3 m at 5 ns/m; in-pod fibre ~100 m; pod-to-ATSW fibre ~300 m (half of the
    // 22 us unloaded RTT [paper] is spent in switches and NICs, not in cables).
    double nvlinkLatencyNs = 250;
    double pcieLatencyNs = 400;
    double dacLatencyNs = 15;
    double podFibreLatencyNs = 500;
    double coreFibreLatencyNs = 1500;
    // Frontend network (data ingest, checkpoints, logging) [2nd]; sizes [assumption].
    double frontendNicGbps = 100; // one frontend NIC per host
    int frontendFabricPerPod = 4; // FSWs per pod; each rack's frontend ToR has one uplink to each
    double frontendUplinkGbps = 100; // ToR -> FSW
    double frontendSpineGbps = 400;  // FSW -> site frontend spine, one link per spine

    bool operator==(const ClusterParams&) const = default;
};

// The cluster's transport fields as the topology's Cluster holds them.
inline TransportSettings transportSettingsOf(const ClusterParams& c) {
    return {c.loadBalancing, c.qpsPerConnection, c.congestionControl, c.switchBufferMiB,
            c.inNetworkReduction};
}

struct StorageParams {
    int tectonicServers = 7500;         // [paper] 240 PB on 7,500 SSD servers
    int hammerspaceServers = 64;        // [assumption] Hammerspace NFS size was not published
    int serversPerRack = 20;            // [assumption] YV3 Sierra Point sleds per storage rack
    int racksPerRow = 20;               // [assumption]
    double tectonicServerGbps = 25;     // [assumption] 7,500 x 25G = 23 TB/s > 7 TB/s peak [paper]
    double hammerspaceServerGbps = 100; // [assumption]
    int frontendSpines = 16;            // [assumption] site frontend spines (SSW)
    int storageTorUplinks = 4;          // [assumption] each storage ToR -> 4 spines at 400G
    double storageUplinkGbps = 400;
    double storageLatencyNs = 15; // DAC in the storage rack
    double spineFibreLatencyNs = 1500;

    bool operator==(const StorageParams&) const = default;
};

// A site: one or more clusters sharing one frontend spine and one storage system.
struct SiteParams {
    std::string name = "site";
    std::string gpuModel = "H100-SXM-80GB"; // [paper] H100 SXM 80 GB HBM3, 700 W
    std::vector<ClusterParams> clusters;
    StorageParams storage;
    // Parts of the design that are down or slowed: simulations on it route around them
    // (the parameters file's top-level "fabric"; the generator builds them all the same).
    FabricFaults faults;

    bool operator==(const SiteParams&) const = default;
};

// Bounds that keep a hostile parameter file from asking for more than memory holds.
// 2,000,000 GPUs is 40x the 49K reference; the model is meant to stay fast at 10x.
constexpr long long kMaxGpus = 2'000'000;
constexpr long long kMaxStorageServers = 1'000'000;
constexpr int kMaxClusters = 64;

} // namespace cs
