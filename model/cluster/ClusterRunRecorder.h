#pragma once
// A cluster run as a stored run, so that the replay plays it: one pattern over the whole run
// with a frame at each event (a value holds until the next), each GPU's busy (the fraction of
// its job's step it computes; 0 when no job holds it) and each link's traffic (the busier
// direction of the sum over the jobs on it of bytes per step over their step, stored as one
// traffic source per job and route, named in the summary's "trafficSources": "job a", then
// "job a (route 2)" once a failure, repair or requeue moved its traffic), the traffic per
// network tier, each storage
// server's checkpoint writes (averaged over each job's checkpoint interval), and the run's
// summary as `simulate-cluster --json` gives it.
#include "ClusterSimulation.h"
#include "RunStore.h"

#include <memory>
#include <string>
#include <vector>

namespace cs {

class ClusterRunRecorder {
public:
    ClusterRunRecorder(const Topology& t, std::string name);
    // The ClusterFrameFn of simulateCluster.
    void frame(double atS, const std::vector<ClusterFrameJob>& running);
    // Writes the run into the store (one transaction); returns its id.
    int64_t write(RunStore& store, const ClusterRunResult& result) const;

private:
    const Topology& t_;
    std::string name_;
    std::vector<std::pair<double, std::vector<ClusterFrameJob>>> frames_;
};

} // namespace cs
