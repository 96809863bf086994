#include "RunFrameShading.h"

#include "FrameValues.h"

#include <algorithm>

namespace cs::views {

void showRunFrame(ClusterScene& scene, const Topology& t, const RunFrame& frame, Metric gpuMetric,
                  const std::vector<Endpoint>& failed) {
    scene.setValues(fractionsOfCapacity(frame, t, gpuMetric));
    scene.setMarked(failed);
    if (gpuMetric != Metric::GpuBusy) { // outliers are by busy
        scene.setFlagged({});
        return;
    }
    std::vector<Endpoint> outliers = rackOutliers(scene.rackMembers(), scene.values().gpu);
    auto isFailed = [&](const Endpoint& e) {
        return std::find(failed.begin(), failed.end(), e) != failed.end();
    };
    std::erase_if(outliers, [&](const Endpoint& e) { // failed ones are outlined in red
        return isFailed(e) || isFailed({EntityKind::Host, t.gpus[size_t(e.index)].host});
    });
    scene.setFlagged(std::move(outliers));
}

void labelMissingValues(ClusterScene& scene, const RunInfo& run) {
    scene.setNoValueLabel(run.kind == "simulated" ? "idle" : "no data");
}

} // namespace cs::views
