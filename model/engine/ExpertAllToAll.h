#pragma once
// Expert parallelism's all-to-all (the token dispatch before the experts and the combine
// after them): every member of an EP group sends each other member its share of the token
// copies at once. Inside a host the copies go over the GPU's NVLink, shared by its peers in
// the host; across hosts as flows over the routed fabric, max-min fair with the other EP
// groups of the same stage (stages run their MoE layers at different moments). With
// node-limited routing (DeepEP)
// a token crosses the fabric once per node it reaches and is forwarded over NVLink there.
#include "CollectiveTimer.h"

#include <vector>

namespace cs {

struct AllToAllInput {
    std::vector<std::vector<int32_t>> groups; // EP groups, as GPUs
    std::vector<int32_t> stageOfGroup;
    int stages = 1;
    double bytesPerPeer = 0;       // one member to one other member, one all-to-all
    double fabricByteFraction = 1; // of those bytes that cross hosts (node-limited routing)
};

struct AllToAllResult {
    double seconds = 0; // one all-to-all, the slowest group
    double nvlinkS = 0, fabricS = 0;
    bool crossesFabric = false;
    int peers = 0; // per member
    // Bytes per link direction of one all-to-all, per stage.
    std::vector<std::vector<float>> linkBytesByStage;
};

AllToAllResult timeAllToAll(const Topology& t, CollectiveTimer& timer, const GpuSpec& g,
                            const AllToAllInput& in);

} // namespace cs
