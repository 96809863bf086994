#include "MoeLayerAlone.h"

#include "CollectiveTimer.h"
#include "ExpertAllToAll.h"
#include "FabricRouter.h"
#include "KernelModel.h"
#include "TopologyIndex.h"
#include "TrainingConfig.h"
#include "TrainingEfficiency.h"

namespace cs {

MoeLayerAloneTime timeMoeLayerAlone(const Topology& t, const std::vector<int32_t>& group,
                                    const ModelSpec& m, const GpuSpec& g,
                                    const ParallelConfig& asked, double tokens) {
    const ParallelConfig c = withResolvedDefaults(m, asked);
    MoeLayerAloneTime out;
    const MoeBlockTimes block = moeBlockTimes(m, g, c, tokens, KernelRate::Alone);
    out.computeForwardS = block.forwardS;
    out.computeBackwardS = block.backwardS;
    if (group.size() > 1) {
        const TopologyIndex ix(t);
        FabricRouter router(t, ix);
        CollectiveTimer timer(t, router, nvlinkBytesPerS(g), c.flowsPerPair);
        AllToAllInput in;
        in.groups = {group};
        in.stageOfGroup = {0};
        in.bytesPerPeer = expertBytesPerPeer(m, c, tokens);
        in.dispatcher = c.epDispatcher;
        in.experts = m.moe.experts, in.activeExperts = m.moe.activeExperts;
        in.nodeLimit = m.moe.nodeLimit;
        in.routerGroups = m.moe.groups, in.groupLimit = m.moe.groupLimit;
        out.allToAllS = timeAllToAll(t, timer, g, in).seconds;
    }
    // Forward: dispatch and combine; backward: the combine's gradient and the dispatch's.
    out.forwardS = out.computeForwardS + 2 * out.allToAllS;
    out.backwardS = out.computeBackwardS + 2 * out.allToAllS;
    out.hostS = efficiency::kMoeLayerHostEagerS;
    return out;
}

} // namespace cs
