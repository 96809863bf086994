#pragma once
// Which GPU each rank of a TP x CP x PP x DP job runs on. Ranks are numbered TP fastest:
// rank = t + tp * (c + cp * (p + pp * d)).
//  - TopologyAware: each model replica (TP x CP x PP ranks) on consecutive GPUs (TP inside a
//    host over NVLink, CP and PP in the same pod where the replica fits), replicas filling
//    pods one after another so that only DP crosses pods. With expert parallelism wider than
//    a replica's TP x CP, EP / (TP x CP) replicas interleave stage by stage, so that each
//    stage's EP group is on consecutive GPUs.
//  - Linear: a naive launcher that enumerates data-parallel replicas first: rank r with
//    coordinates (t, c, p, d) lands on GPU d + dp * (p + pp * (c + cp * t)), so TP groups
//    straddle hosts and every collective crosses the fabric.
#include "InputError.h"
#include "Topology.h"
#include "TopologyIndex.h"
#include "TrainingSpecs.h"

#include <vector>

namespace cs {

struct RankCoord {
    int t, c, p, d;
};

inline int rankOf(const ParallelConfig& c, RankCoord x) {
    return x.t + c.tp * (x.c + c.cp * (x.p + c.pp * x.d));
}
RankCoord coordOf(const ParallelConfig& c, int rank);

// Throws InputException (field "parallel.dp") when the job needs more GPUs than there are.
std::vector<int32_t> placeRanks(const Topology& t, const TopologyIndex& ix,
                                const ParallelConfig& c);

} // namespace cs
