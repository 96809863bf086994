#pragma once
// A collective as `clusterscope collective` and the Collectives dock ask for it: the group
// placed on the design, the GPUs' NVLink taken from their model, then the network model's
// sweep (CollectiveBench.h).
#include "CollectiveBench.h"
#include "TopologyIndex.h"

#include <string>

namespace cs {

struct CollectiveRequest {
    BenchOp op = BenchOp::AllReduce;
    int gpus = 0;
    int perHost = 0; // 0: every GPU of a host
    GroupPlacement placement = GroupPlacement::Packed;
    uint64_t seed = 1;
    std::vector<double> sizes; // ascending bytes
    NcclAlgoFilter algo;
    int channelsPerNic = 0;
    int qpsOverride = 0;
};

// Throws InputException naming the option ("--gpus", "--gpus-per-host", "--algo") for a group
// the design cannot hold or an algorithm that cannot run the op.
BenchResult runCollective(const Topology& t, const TopologyIndex& ix, const CollectiveRequest& r);

// NVLink SHARP's all-reduce bus bandwidth inside a host per GB/s of NVLink per direction: 478.87
// GB/s on 8 H100 of 450 (the measured in-host curve's top, CollectiveSize.cpp).
constexpr double kNvlsBusPerNvlink = 478.87 / 450.0;

} // namespace cs
