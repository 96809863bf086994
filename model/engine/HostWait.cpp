#include "HostWait.h"

#include "TrainingEfficiency.h"

#include <algorithm>

namespace cs {

namespace {

double gpuSeconds(const std::vector<LayerPhase>& pass) {
    double sum = 0;
    for (const LayerPhase& x : pass)
        sum += x.computeS;
    return sum;
}

void append(std::vector<LayerPhase>& pass, double waitS) {
    if (waitS > 0) pass.push_back({waitS, 0, 0, false, false, true});
}

} // namespace

double moeLayerHostSeconds(const ParallelConfig& c) {
    if (c.cudaGraphs == CudaGraphs::Full) return 0;
    if (c.moeLayerHostMs > 0) return c.moeLayerHostMs * 1e-3;
    return c.cudaGraphs == CudaGraphs::Scoped ? efficiency::kMoeLayerHostScopedGraphsS
                                              : efficiency::kMoeLayerHostEagerS;
}

std::pair<double, double> appendHostWait(std::vector<LayerPhase>& forward,
                                         std::vector<LayerPhase>& backward, const HostIssue& h) {
    const double f = gpuSeconds(forward) + h.forwardExtraS;
    const double b = gpuSeconds(backward) + h.backwardExtraS;
    double waitF = 0, waitB = 0;
    if (h.asOne) {
        const double waitS = std::max(0.0, h.hostS - f - b);
        waitF = f + b > 0 ? waitS * f / (f + b) : 0;
        waitB = waitS - waitF;
    } else {
        const double hostF = h.hostS * h.forwardShare;
        waitF = std::max(0.0, hostF - f);
        waitB = std::max(0.0, h.hostS - hostF - b);
    }
    append(forward, waitF);
    append(backward, waitB);
    return {waitF, waitB};
}

} // namespace cs
