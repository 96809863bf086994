#include "FlowSimulation.h"

#include <algorithm>
#include <limits>

namespace cs {
namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
} // namespace

double contendedLinkEfficiency(CongestionControl cc) {
    // resources/reference/htsim-campaign.md, "What the flow model takes".
    switch (cc) {
    case CongestionControl::Dcqcn:
        return 0.70;
    case CongestionControl::Pfc:
    case CongestionControl::Credit:
        return 0.88;
    case CongestionControl::Auto:
    case CongestionControl::None:
        break;
    }
    return 1.0;
}

FlowSimulation::FlowSimulation(const Topology& t, FabricRouter& router, double nvlinkBps,
                               int qpsOverride)
    : t_(t), router_(router), transports_(t), nvlinkBps_(nvlinkBps), qps_(qpsOverride),
      capacity_(router.capacities(transports_)) {}

FlowRun FlowSimulation::run(const std::vector<FlowSpec>& flows) {
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
    std::vector<double> efficiency(flows.size(), 1.0); // per flow: its transport's
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
        startS[f] = kFlowStartS + router_.latencyNs(path) * 1e-9;
        remaining[f] = flows[f].bytes;
        efficiency[f] = contendedLinkEfficiency(transports_.ofGpu(e.src).congestionControl);
        if (flows[f].bytes > 0)
            active.push_back(int(f));
        else
            out.finishS[f] = startS[f];
    }
    loads.index(capacity_.size());
    TransferSolveScratch scratch;
    std::vector<double> capacity = capacity_, rate, linkLoad(capacity_.size(), 0.0);
    std::vector<int32_t> flowsOn(capacity_.size(), 0);
    double now = 0;
    while (!active.empty()) {
        // Max-min fair rates; then the links two or more flows saturate give up what their
        // flows' congestion control loses there, and the rates are solved again.
        capacity = capacity_;
        rate = maxMinFairTransferRates(capacity, loads, active, scratch);
        ++out.solves;
        bool lossy = false;
        for (size_t i = 0; i < active.size(); ++i) {
            const auto k = size_t(active[i]);
            for (auto j = size_t(loads.offsets[k]); j < size_t(loads.offsets[k + 1]); ++j) {
                const auto r = size_t(loads.resources[j]);
                linkLoad[r] += rate[i] * loads.coefficients[j];
                ++flowsOn[r];
            }
            lossy |= efficiency[k] < 1;
        }
        bool penalised = false;
        for (size_t i = 0; i < active.size() && lossy; ++i) {
            const auto k = size_t(active[i]);
            for (auto j = size_t(loads.offsets[k]); j < size_t(loads.offsets[k + 1]); ++j) {
                const auto r = size_t(loads.resources[j]);
                if (flowsOn[r] >= 2 && linkLoad[r] >= capacity_[r] * (1 - 1e-9) &&
                    capacity[r] == capacity_[r] && efficiency[k] < 1) {
                    capacity[r] = capacity_[r] * efficiency[k];
                    penalised = true;
                }
            }
        }
        for (int k : active)
            for (auto j = size_t(loads.offsets[size_t(k)]);
                 j < size_t(loads.offsets[size_t(k) + 1]); ++j) {
                linkLoad[size_t(loads.resources[j])] = 0;
                flowsOn[size_t(loads.resources[j])] = 0;
            }
        if (penalised) {
            rate = maxMinFairTransferRates(capacity, loads, active, scratch);
            ++out.solves;
        }
        // To the next finish: every flow that ends then leaves together.
        double dt = kInf;
        for (size_t i = 0; i < active.size(); ++i)
            if (rate[i] > 0) dt = std::min(dt, remaining[size_t(active[i])] / rate[i]);
        if (!(dt < kInf)) break; // nothing moves: the rest never finish
        now += dt;
        ++out.events;
        size_t w = 0;
        for (size_t i = 0; i < active.size(); ++i) {
            const auto k = size_t(active[i]);
            remaining[k] -= rate[i] * dt;
            if (remaining[k] <= flows[k].bytes * 1e-9 + 1e-6)
                out.finishS[k] = now + startS[k];
            else
                active[w++] = int(k);
        }
        active.resize(w);
    }
    return out;
}

} // namespace cs
