#pragma once
// Expert parallelism's all-to-all (the token dispatch before the experts and the combine
// after them): every member of an EP group sends each other member its share of the token
// copies at once. Inside a host the copies go over the GPU's NVLink, shared by its peers in
// the host; across hosts as flows over the routed fabric, max-min fair with the other EP
// groups of the same stage (stages run their MoE layers at different moments). DeepEP sends
// a token across the fabric once per host it reaches and over NVLink once per GPU it reaches
// (that GPU's experts share the copy); NCCL's all-to-all sends every copy, and across three or
// more hosts reaches less of the NIC.
#include "CollectiveTimer.h"
#include "TrainingSpecs.h"

#include <vector>

namespace cs {

struct AllToAllInput {
    std::vector<std::vector<int32_t>> groups; // EP groups, as GPUs
    std::vector<int32_t> stageOfGroup;
    int stages = 1;
    double bytesPerPeer = 0; // one member to one other member, one all-to-all
    EpDispatcher dispatcher = EpDispatcher::AllToAll;
    // Routing, for DeepEP's copies per host and per GPU: the experts (spread evenly over the
    // members), those each token reaches, and the limits on where they lie.
    MoeSpec routing;
};

struct AllToAllResult {
    double seconds = 0; // one all-to-all, the slowest group
    double nvlinkS = 0, fabricS = 0;
    bool crossesFabric = false;
    int peers = 0; // per member
    int hosts = 1; // the NVLink domains of the largest group
    // Bytes per link direction of one all-to-all, per stage.
    std::vector<std::vector<float>> linkBytesByStage;
};

// The all-to-all of a MoE layer's dispatch (a combine sends as much back) for a micro-batch of
// `tokensPerMicro` tokens, its groups left to the caller: each routed copy of a token, its
// bf16 hidden state, to the rank of its expert; balanced routing sends every peer 1 / EP of
// them, and the busiest rank gets the routing skew. `c` is resolved (withResolvedDefaults).
AllToAllInput expertAllToAllInput(const ModelSpec& m, const ParallelConfig& c,
                                  double tokensPerMicro);

AllToAllResult timeAllToAll(const Topology& t, CollectiveTimer& timer, const GpuSpec& g,
                            const AllToAllInput& in);

} // namespace cs
