#include "MoeLayerAlone.h"

#include "CollectiveTimer.h"
#include "ExpertAllToAll.h"
#include "FabricRouter.h"
#include "HostWait.h"
#include "KernelModel.h"
#include "TopologyIndex.h"
#include "TrainingConfig.h"

namespace cs {

MoeLayerAloneTime timeMoeLayerAlone(const Topology& t, const TopologyIndex& ix,
                                    const std::vector<int32_t>& group, const ModelSpec& m,
                                    const GpuSpec& g, const ParallelConfig& asked, double tokens) {
    const ParallelConfig c = withResolvedDefaults(m, asked);
    MoeLayerAloneTime out;
    const MoeBlockTimes block =
        moeBlockTimes(m, gpuUnderPowerLimit(g, c.gpuPowerLimitW), c, tokens, KernelRate::Alone);
    out.computeForwardS = block.forwardS;
    out.computeBackwardS = block.backwardS;
    if (group.size() > 1) {
        FabricRouter router(t, ix);
        CollectiveTimer timer(t, router, nvlinkBytesPerS(g), c.flowsPerPair);
        AllToAllInput in = expertAllToAllInput(m, c, tokens);
        in.groups = {group};
        in.stageOfGroup = {0};
        out.allToAllS = timeAllToAll(t, timer, g, in).seconds;
    }
    // Forward: dispatch and combine; backward: the combine's gradient and the dispatch's.
    out.forwardS = out.computeForwardS + 2 * out.allToAllS;
    out.backwardS = out.computeBackwardS + 2 * out.allToAllS;
    out.hostS = moeLayerHostSeconds(c);
    return out;
}

} // namespace cs
