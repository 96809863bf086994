#include "FlowSimulation.h"

#include <algorithm>
#include <limits>

namespace cs {
namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kFinishTogether = 1e-3;
} // namespace

FlowSimulation::FlowSimulation(const Topology& t, FabricRouter& router, double nvlinkBps,
                               int qpsOverride)
    : t_(t), router_(router), transports_(t), nvlinkBps_(nvlinkBps), qps_(qpsOverride),
      capacity_(router.capacities(transports_)),
      efficiency_(router.contendedEfficiencies(transports_)),
      buffer_(router.switchBuffers(transports_)), injection_(router.injectionLinks()) {}

FlowRun FlowSimulation::run(const std::vector<FlowSpec>& flows, bool reshare) {
    FlowRun out;
    out.finishS.assign(flows.size(), kInf);
    // Each flow as a transfer over the link directions it loads; one inside an NVLink domain
    // loads none and runs at NVLink's rate.
    TransferLoads loads;
    EdgeRouter routes(router_, transports_, capacity_, qps_);
    std::vector<std::pair<int32_t, double>> spread;
    std::vector<int32_t> path;
    std::vector<double>& startS = out.startS;
    startS.assign(flows.size(), 0);
    std::vector<double> remaining(flows.size(), 0);
    std::vector<int> active;
    for (size_t f = 0; f < flows.size(); ++f) {
        const Edge e{flows[f].src, flows[f].dst};
        if (!routes.route(e, spread)) {
            loads.add({}, 0);
            ++out.unroutable;
            continue;
        }
        const bool nvlink = spread.empty();
        loads.add(spread, nvlink ? nvlinkBps_ : kInf);
        path.clear();
        router_.route(e.src, e.dst, edgeFlowHash(e, 0), path);
        startS[f] = 2 * router_.latencyNs(path) * 1e-9;
        remaining[f] = flows[f].bytes;
        if (flows[f].bytes > 0)
            active.push_back(int(f));
        else
            out.finishS[f] = startS[f];
    }
    loads.index(capacity_.size());
    TransferSolveScratch scratch;
    std::vector<double> rate, left;
    double now = 0;
    while (!active.empty()) {
        // Max-min fair rates, the links two or more flows saturate giving up what their
        // congestion control loses there once what they still send outgrows the buffer.
        left.resize(active.size());
        for (size_t i = 0; i < active.size(); ++i)
            left[i] = remaining[size_t(active[i])];
        rate = contendedTransferRates(capacity_, {&efficiency_, &injection_, &left, &buffer_},
                                      loads, active, scratch);
        ++out.solves;
        if (!reshare) {
            for (size_t i = 0; i < active.size(); ++i) {
                const auto k = size_t(active[i]);
                if (rate[i] > 0) out.finishS[k] = remaining[k] / rate[i] + startS[k];
            }
            ++out.events;
            break;
        }
        // To the next finish: every flow that ends then leaves together.
        double dt = kInf;
        for (size_t i = 0; i < active.size(); ++i)
            if (rate[i] > 0) dt = std::min(dt, remaining[size_t(active[i])] / rate[i]);
        if (!(dt < kInf)) break; // nothing moves: the rest never finish
        // A contended link whose queue drains into its buffer first stops losing then.
        const bool drained = scratch.bufferDrainS < dt;
        if (drained) dt = scratch.bufferDrainS;
        now += dt;
        ++out.events;
        // Flows within a thousandth of that finish with it: one event for the many flows of a
        // symmetric pattern that end together (each a little early, by at most that much).
        const double slack = drained ? 0 : dt * kFinishTogether;
        size_t w = 0;
        for (size_t i = 0; i < active.size(); ++i) {
            const auto k = size_t(active[i]);
            remaining[k] -= rate[i] * dt;
            if (remaining[k] <= rate[i] * slack + flows[k].bytes * 1e-9 + 1e-6)
                out.finishS[k] = now + startS[k];
            else
                active[w++] = int(k);
        }
        active.resize(w);
    }
    return out;
}

} // namespace cs
