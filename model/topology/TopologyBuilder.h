#pragma once
// Appends entities to a Topology and numbers switch ports as links are made.
#include "Topology.h"

namespace cs {

class TopologyBuilder {
public:
    explicit TopologyBuilder(std::string name, std::string gpuModel);

    int32_t addCluster(std::string name, Fabric fabric, TransportSettings transport = {});
    int32_t addPod(std::string name, int32_t cluster);
    int32_t addRow(std::string name, int32_t cluster, int32_t pod);
    int32_t addRack(std::string name, int32_t row, int32_t position, RackRole role);
    // Adds the host and its GPUs (contiguous, local index 0..gpuCount-1).
    int32_t addHost(std::string name, int32_t rack, int gpuCount, int cpuCount, int slot);
    int32_t addNic(std::string name, int32_t host, int32_t gpu, NicRole role, double gbps);
    int32_t addSwitch(Switch s);
    int32_t addStorage(std::string name, StorageKind kind, int32_t rack, double gbps);
    // Connects a and b; a switch endpoint gets its next free port (from 1).
    void link(Endpoint a, Endpoint b, LinkMedium medium, double gbps, double latencyNs);
    // The same with the ports a file names (0: the next free one, as above).
    void link(Endpoint a, Endpoint b, uint16_t portA, uint16_t portB, LinkMedium medium,
              double gbps, double latencyNs);

    const Topology& topology() const { return t_; }
    void reserve(size_t gpus, size_t links);
    Topology take();

private:
    uint16_t nextPort(Endpoint e);

    Topology t_;
    std::vector<uint16_t> usedPorts_; // per switch
};

} // namespace cs
