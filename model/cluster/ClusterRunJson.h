#pragma once
// A cluster run as `simulate-cluster --json` prints it:
//   {"scheduler", "simulatedS", "gpus", "stepEstimates",
//    "jobs": [{"name", "model", "gpus", "state", "submitS", "startS", "endS", "waitS",
//              "stepTimeS", "aloneStepTimeS", "slowdown", "steps", "restarts", "lostSteps",
//              "stepTimeDistribution": {"p50", "p99", "max", "meanS"},
//              "pods", "racks",
//              "hosts": [names], "stepTimeline": [[atS, stepS], ...],
//              "metOthersOn": [{"link", "othersBusy", "jobs": [names]}], "error"}],
//    "fragmentation": [{"atS", "freeGpus", "largestFreeBlock", "idleWhileWaiting", "queued",
//                       "running", "freeGpusPerPod": [...]}]}
// and as text for people.
#include "ClusterSimulation.h"

#include <QJsonObject>

#include <string>

namespace cs {

QJsonObject clusterRunJson(const ClusterRunResult& r, const Topology& t);
std::string clusterRunText(const ClusterRunResult& r, const Topology& t);

} // namespace cs
