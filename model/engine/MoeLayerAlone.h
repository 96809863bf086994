#pragma once
// One MoE layer alone on one EP group, as Megatron-LM's MoE layer benchmark times it: the
// forward and the backward of the router, the dispatch, the experts, the shared experts and
// the combine for one micro-batch, nothing overlapped, the kernels at their rates alone (no
// training step around them). The host's time to issue the layer is beside it, not in it
// (docs/reference/megatron-moe-layer.md).
#include "TrainingSpecs.h"

#include <vector>

namespace cs {

struct Topology;
class TopologyIndex;

struct MoeLayerAloneTime {
    double forwardS = 0, backwardS = 0; // what the benchmark's events time
    double computeForwardS = 0, computeBackwardS = 0;
    double allToAllS = 0; // one dispatch or combine
    double hostS =
        0; // the host's time to issue the layer's forward and backward, as the run issues it
};

// `ix`: `t`'s index; `group`: the EP group's GPUs (ep of them); `tokens`: a micro-batch's tokens
// per rank.
MoeLayerAloneTime timeMoeLayerAlone(const Topology& t, const TopologyIndex& ix,
                                    const std::vector<int32_t>& group, const ModelSpec& m,
                                    const GpuSpec& g, const ParallelConfig& c, double tokens);

} // namespace cs
