#pragma once
// The parallel groups of a run as GPUs: TP, CP and DP groups and PP edges per stage, and for a
// mixture of experts the EP, expert-DP and expert-TP groups of Megatron-Core's parallel folding.
#include "CollectiveTimer.h"
#include "TrainingSpecs.h"

#include <cstdint>
#include <vector>

namespace cs {

// Groups of ranks as GPUs, with the stage (or boundary) each belongs to.
struct RankGroups {
    std::vector<std::vector<int32_t>> tp, cp, dp;
    std::vector<Edge> ppEdges;
    std::vector<int32_t> ppBoundaryOfEdge, stageOfDpGroup, stageOfCpGroup;
    // MoE: each stage's EP groups and the expert-DP groups its experts' gradients reduce over.
    std::vector<std::vector<int32_t>> ep, expertDp, expertTp;
    std::vector<int32_t> stageOfEpGroup, stageOfExpertDpGroup;
};

// The groups of a placement; gpuOfRank: each rank's GPU (rankOf's numbering).
RankGroups formRankGroups(const ModelSpec& m, const ParallelConfig& c,
                          const std::vector<int32_t>& gpuOfRank);

} // namespace cs
