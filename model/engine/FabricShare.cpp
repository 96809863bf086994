#include "FabricShare.h"

#include "KernelModel.h"
#include "TrainingEfficiency.h"

#include <algorithm>
#include <limits>

namespace cs {

FabricShare::FabricShare(const Topology& t, FabricRouter& router, const GpuSpec& gpu,
                         bool contention)
    : t_(t), router_(router),
      nvlinkBps_(gpu.nvlinkGBpsPerDirection * 1e9 * kernelConstants(gpu).nvlinkGoodput),
      capacity_(router.capacities(efficiency::kFabricGoodput)), contention_(contention) {}

int FabricShare::addClass(const std::vector<Edge>& edges, int flowsPerPair) {
    Class c;
    std::vector<int32_t> route;
    const int qps = std::max(1, flowsPerPair);
    std::vector<double>& flowsOn = flowsOn_; // zero outside the links this class touches
    flowsOn.resize(capacity_.size(), 0.0);
    std::vector<int32_t> touched;
    for (const Edge& e : edges) {
        if (t_.gpus[size_t(e.src)].host == t_.gpus[size_t(e.dst)].host) {
            c.nvlink = true;
            continue;
        }
        for (int q = 0; q < qps; ++q) {
            route.clear();
            // The same hash as the collective timer's: one ECMP choice per queue pair.
            const uint64_t hash =
                (uint64_t(uint32_t(e.src)) << 32 | uint32_t(e.dst)) * 31 + uint64_t(q);
            if (!router_.route(e.src, e.dst, hash, route) || route.empty()) continue;
            c.fabric = true;
            for (int32_t r : route) {
                if (flowsOn[size_t(r)] == 0) touched.push_back(r);
                flowsOn[size_t(r)] += 1;
            }
        }
    }
    std::sort(touched.begin(), touched.end());
    for (int32_t r : touched) {
        c.load.emplace_back(r, flowsOn[size_t(r)] / qps);
        flowsOn[size_t(r)] = 0;
    }
    classes_.push_back(std::move(c));
    return int(classes_.size()) - 1;
}

void FabricShare::rates(std::span<const int> active, std::vector<double>& rate) {
    if (!contention_ && active.size() > 1) {
        std::vector<double> solo(active.size());
        for (size_t k = 0; k < active.size(); ++k)
            solo[k] = soloRate(active[k]);
        rate = std::move(solo);
        return;
    }
    std::vector<int> key(active.begin(), active.end());
    if (const auto hit = memo_.find(key); hit != memo_.end()) {
        rate = hit->second;
        return;
    }
    TransferLoads loads;
    for (int cls : active) {
        const Class& c = classes_[size_t(cls)];
        // Edges inside a host run on NVLink: the class goes no faster than that.
        loads.add(c.load, c.nvlink ? nvlinkBps_ : std::numeric_limits<double>::infinity());
        flowsSolved_ += static_cast<long long>(c.load.size());
    }
    rate = maxMinFairTransferRates(capacity_, loads, scratchLoad_, scratchWeight_);
    ++solves_;
    memo_.emplace(std::move(key), rate);
}

double FabricShare::soloRate(int cls) {
    std::vector<double> r;
    const int one[1] = {cls};
    rates(one, r);
    return r.front();
}

void FabricShare::addLinkBytes(int cls, double bytesPerEdge, std::vector<double>* total,
                               std::vector<float>* perClass) const {
    for (const auto& [r, coefficient] : classes_[size_t(cls)].load) {
        if (total) (*total)[size_t(r)] += bytesPerEdge * coefficient;
        if (perClass) (*perClass)[size_t(r)] += float(bytesPerEdge * coefficient);
    }
}

} // namespace cs
