#pragma once
// Point-to-point flows on the fabric as a fluid simulation, flow by flow: every flow routed as
// its cluster's transport routes it (EdgeRoutes.h), the flows running at a moment sharing the
// links max-min fairly, re-shared at every finish. A congestion control that loses throughput
// where flows collide (DCQCN's rate cuts, PFC's pauses) gives up its measured fraction of a
// link that two or more flows saturate once what they still send there outgrows the switch's
// buffer; a flow ends when its last byte's acknowledgement is back,
// a round trip of its path after the fluid finish. The constants come from packet-level runs of
// htsim (docs/reference/htsim-campaign.md). `collective --op permutation|incast|alltoall|
// sendrecv` reports what comes out.
#include "EdgeRoutes.h"
#include "FabricRouter.h"
#include "MaxMinFairShare.h"

#include <vector>

namespace cs {

struct FlowSpec {
    int32_t src = 0, dst = 0; // GPUs
    double bytes = 0;
};

struct FlowRun {
    std::vector<double> finishS; // per flow, from the common start
    std::vector<double> startS;  // per flow: its path's round trip
    long long events = 0, solves = 0;
    int unroutable = 0; // flows with no route (kept out, finishS infinite)
};

class FlowSimulation {
public:
    // `nvlinkBps`: flows inside an NVLink domain; `qpsOverride` > 0 replaces the transport's
    // queue pairs per connection.
    FlowSimulation(const Topology& t, FabricRouter& router, double nvlinkBps, int qpsOverride = 0);
    // `reshare` false: the rates of the first solve hold to the end (a flow's share never grows
    // as others finish): one solve, for patterns too large to follow flow by flow.
    FlowRun run(const std::vector<FlowSpec>& flows, bool reshare = true);

private:
    const Topology& t_;
    FabricRouter& router_;
    FabricTransports transports_;
    double nvlinkBps_;
    int qps_;
    std::vector<double> capacity_, efficiency_, buffer_;
    std::vector<uint8_t> injection_;
};

} // namespace cs
