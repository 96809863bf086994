#pragma once
// Checkpoint writes as flows: from each host of the job, through its frontend NIC and the
// frontend fabric, to Tectonic storage servers (each host striping over a few, spread by
// hash), routed over the shortest
// paths with ECMP, sharing link bandwidth max-min fairly and capped by the storage system's
// sustained write rate. What comes out is the load on every link direction and server.
#include "ComposedTraffic.h"
#include "TopologyDocument.h"

#include <vector>

namespace cs {

struct StorageFlows {
    TrafficSource links;          // B/s per link direction while the checkpoint writes
    std::vector<float> serverBps; // B/s per storage server
    double totalBps = 0;          // what the checkpoint writes at
};

StorageFlows checkpointFlows(const TopologyDocument& doc, const std::vector<int32_t>& jobHosts,
                             double sustainedBytesPerS, double goodputFraction);

} // namespace cs
