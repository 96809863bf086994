#pragma once
// The cluster as flat arrays, one per kind of entity; an entity's id is its index in its array.
// Immutable after generation or load; derived lookups live in TopologyIndex.
#include "EntityKinds.h"
#include "TransportKinds.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cs {

constexpr int32_t kNone = -1;

struct Endpoint {
    EntityKind kind = EntityKind::Gpu;
    int32_t index = kNone;
    bool operator==(const Endpoint& o) const { return kind == o.kind && index == o.index; }
    bool operator!=(const Endpoint& o) const { return !(*this == o); }
};

struct Cluster {
    std::string name;
    Fabric fabric = Fabric::Roce;
    TransportSettings transport; // how the backend fabric carries RDMA (auto: the fabric's)
    bool operator==(const Cluster&) const = default;
};
struct Pod { // an AI zone / data hall
    std::string name;
    int32_t cluster = kNone;
    bool operator==(const Pod&) const = default;
};
struct Row { // kNone pod: a row of the cluster (cluster set) or of the site (both kNone)
    std::string name;
    int32_t cluster = kNone;
    int32_t pod = kNone;
    bool operator==(const Row&) const = default;
};
struct Rack {
    std::string name;
    int32_t row = kNone;
    int32_t position = 0; // slot along the row, from 0
    RackRole role = RackRole::Compute;
    bool operator==(const Rack&) const = default;
};
struct Host {
    std::string name;
    int32_t rack = kNone;
    int32_t firstGpu = 0; // GPUs of a host are contiguous
    uint8_t gpuCount = 0;
    uint8_t cpuCount = 0;
    uint8_t slot = 0; // position inside the rack, from the bottom
    // The lowest host index of the NVLink domain it shares with other hosts (a GB200 NVL72
    // rack); kNone: its GPUs reach only each other over NVLink. Set by assignNvlinkDomains.
    int32_t nvlinkDomain = kNone;
    bool operator==(const Host&) const = default;
};
struct Gpu {
    int32_t host = kNone;
    uint8_t local = 0; // index inside the host, as nvidia-smi numbers it
    bool operator==(const Gpu&) const = default;
};
struct Nic {
    std::string name;
    int32_t host = kNone;
    int32_t gpu = kNone; // the GPU a backend NIC serves (kNone for frontend NICs)
    NicRole role = NicRole::Backend;
    float gbps = 0;
    bool operator==(const Nic&) const = default;
};
struct Switch {
    std::string name;
    SwitchRole role = SwitchRole::Rtsw;
    int32_t rack = kNone;
    int32_t host = kNone;    // NVSwitch: the host it sits in
    int32_t cluster = kNone; // kNone: site-wide (frontend spine, storage)
    int32_t pod = kNone;     // kNone: above the pods
    int16_t plane = kNone;   // fabric plane (parallel spine/core slice), kNone if none
    uint16_t ports = 0;      // radix of the switch model
    bool operator==(const Switch&) const = default;
};
struct StorageServer {
    std::string name;
    StorageKind kind = StorageKind::Tectonic;
    int32_t rack = kNone;
    float gbps = 0; // network attachment
    bool operator==(const StorageServer&) const = default;
};
struct Link {
    Endpoint a, b;
    uint16_t portA = 0, portB = 0; // 0 = the endpoint has no numbered ports (GPU, NIC, storage)
    LinkMedium medium = LinkMedium::Fibre;
    float gbps = 0;      // per direction
    float latencyNs = 0; // one way, propagation + serialisation of the medium
    bool operator==(const Link&) const = default;
};

struct Topology {
    std::string name;
    std::string description; // a design's own words (the file's "description"); may be empty
    std::string gpuModel = "H100-SXM-80GB"; // one GPU model per topology
    std::vector<Cluster> clusters;
    std::vector<Pod> pods;
    std::vector<Row> rows;
    std::vector<Rack> racks;
    std::vector<Host> hosts;
    std::vector<Gpu> gpus;
    std::vector<Nic> nics;
    std::vector<Switch> switches;
    std::vector<StorageServer> storage;
    std::vector<Link> links;

    bool operator==(const Topology&) const = default;

    size_t count(EntityKind kind) const;
    std::string gpuName(int32_t gpu) const; // "<host>.gpu<local>"
    std::string nameOf(Endpoint e) const;
    int32_t podOfRack(int32_t rack) const;
    int32_t clusterOfRack(int32_t rack) const;
    int32_t podOfHost(int32_t host) const { return podOfRack(hosts[size_t(host)].rack); }
    // The NVLink domain of a host: its nvlinkDomain, or the host itself.
    int32_t nvlinkDomainOf(int32_t host) const {
        const int32_t d = hosts[size_t(host)].nvlinkDomain;
        return d != kNone ? d : host;
    }
    // Whether two GPUs reach each other over NVLink (one host, or one NVL72 rack).
    bool sameNvlinkDomain(int32_t gpuA, int32_t gpuB) const {
        const int32_t a = gpus[size_t(gpuA)].host, b = gpus[size_t(gpuB)].host;
        return a == b || (a != kNone && b != kNone && nvlinkDomainOf(a) == nvlinkDomainOf(b));
    }
    // The rack an entity sits in (a GPU's or NIC's host's, a host's, a switch's, a storage
    // server's, a rack itself); kNone for the rest or an index out of range.
    int32_t rackHolding(Endpoint e) const;
    // The GPUs of these hosts, ascending.
    std::vector<int32_t> gpusOfHosts(const std::vector<int32_t>& hostIndices) const;
    // Bytes held by the arrays (capacity, including heap strings), for benchmarks.
    size_t memoryBytes() const;
};

} // namespace cs
