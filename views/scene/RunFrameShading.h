#pragma once
// A stored run's frame as the scene shows it, in the window, `render --run` and `movie` alike:
// the values as fractions of capacity, the entities failed at that time outlined in red, and
// (colouring by GPU busy) each GPU far from its rack's mean outlined with its rack, so that
// one idle GPU among busy ones shows at the overview.
#include "ClusterScene.h"
#include "RunReader.h"

#include <vector>

namespace cs::views {

void showRunFrame(ClusterScene& scene, const Topology& t, const RunFrame& frame, Metric gpuMetric,
                  const std::vector<Endpoint>& failed);
// What the run leaves without a value: a simulated run's GPUs outside every job are idle;
// recorded telemetry may simply lack them.
void labelMissingValues(ClusterScene& scene, const RunInfo& run);

} // namespace cs::views
