#pragma once
// Checkpoint writes as flows: from each host of the job, through its frontend NIC and the
// frontend fabric, to Tectonic storage servers (each host striping over a few, spread by
// hash), routed over the shortest
// paths with ECMP, sharing link bandwidth max-min fairly and capped by the storage system's
// sustained write rate. What comes out is the load on every link direction and server, and
// how long the checkpoint takes: each host writes its own shard, and the checkpoint is done
// when the slowest host's shard is written (hosts that finish early free their bandwidth for
// the others, max-min fair again).
#include "ComposedTraffic.h"
#include "TopologyDocument.h"

#include <cstdint>
#include <map>
#include <vector>

namespace cs {

struct StorageFlows {
    TrafficSource links;          // B/s per link direction while every host writes
    std::vector<float> serverBps; // B/s per storage server, the same
    double totalBps = 0;          // what the checkpoint starts writing at
    double writeS = 0;            // until the slowest host's shard is written; 0: no flows
    int slowestHost = -1;         // the host written last
    int hostsWithoutPath = 0;     // job hosts with no frontend path to storage: not written
};

// Hop counts from every frontend node to storage ToRs, kept between calls on one design (a
// cluster run routes every job's checkpoints to the same ToRs).
struct StorageRouteCache {
    std::map<int32_t, std::vector<int16_t>> hopsTo; // by the ToR's node
};

// shardBytes: what each job host writes. `cache`: kept routes of earlier calls on this design.
StorageFlows checkpointFlows(const TopologyDocument& doc, const std::vector<int32_t>& jobHosts,
                             double sustainedBytesPerS, double goodputFraction, double shardBytes,
                             StorageRouteCache* cache = nullptr);

} // namespace cs
