#include "MaxMinFairShare.h"

#include <algorithm>
#include <limits>
#include <queue>

namespace cs {

void FlowPaths::add(std::span<const int32_t> path) {
    resources.insert(resources.end(), path.begin(), path.end());
    offsets.push_back(int32_t(resources.size()));
}

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();

// Flows per resource (the transpose of the paths), counting only resources in use.
void transpose(size_t nResources, const FlowPaths& paths, std::vector<int32_t>& offsets,
               std::vector<int32_t>& flows) {
    offsets.assign(nResources + 1, 0);
    for (int32_t r : paths.resources)
        ++offsets[size_t(r) + 1];
    for (size_t i = 1; i <= nResources; ++i)
        offsets[i] += offsets[i - 1];
    flows.resize(paths.resources.size());
    std::vector<int32_t> fill(offsets.begin(), offsets.end() - 1);
    for (size_t f = 0; f < paths.flows(); ++f)
        for (int32_t r : paths.of(f))
            flows[size_t(fill[size_t(r)]++)] = int32_t(f);
}
} // namespace

std::vector<double> maxMinFairRates(const std::vector<double>& capacity, const FlowPaths& paths) {
    const size_t nFlows = paths.flows(), nRes = capacity.size();
    std::vector<double> rate(nFlows, kInf);
    std::vector<int32_t> resOffsets, resFlows;
    transpose(nRes, paths, resOffsets, resFlows);
    std::vector<double> remaining(capacity);
    std::vector<int32_t> active(nRes, 0);
    for (size_t r = 0; r < nRes; ++r)
        active[r] = resOffsets[r + 1] - resOffsets[r];
    std::vector<uint8_t> frozen(nFlows, 0);
    using Entry = std::pair<double, int32_t>; // fair share, resource
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap;
    for (size_t r = 0; r < nRes; ++r)
        if (active[r] > 0) heap.push({remaining[r] / active[r], int32_t(r)});
    while (!heap.empty()) {
        const auto [share, r] = heap.top();
        heap.pop();
        if (active[size_t(r)] == 0) continue;
        const double current = std::max(0.0, remaining[size_t(r)]) / active[size_t(r)];
        if (current > share * (1 + 1e-12) + 1e-300) { // stale entry: shares only grow
            heap.push({current, r});
            continue;
        }
        for (int32_t i = resOffsets[size_t(r)]; i < resOffsets[size_t(r) + 1]; ++i) {
            const auto f = size_t(resFlows[size_t(i)]);
            if (frozen[f]) continue;
            frozen[f] = 1;
            rate[f] = current;
            for (int32_t q : paths.of(f)) {
                remaining[size_t(q)] -= current;
                if (--active[size_t(q)] > 0 && q != r)
                    heap.push({std::max(0.0, remaining[size_t(q)]) / active[size_t(q)], q});
            }
        }
    }
    return rate;
}

std::vector<double> maxMinFairRatesNaive(const std::vector<double>& capacity,
                                         const FlowPaths& paths) {
    const size_t nFlows = paths.flows(), nRes = capacity.size();
    std::vector<double> rate(nFlows, kInf);
    std::vector<double> remaining(capacity);
    std::vector<uint8_t> frozen(nFlows, 0);
    for (size_t f = 0; f < nFlows; ++f)
        if (paths.of(f).empty()) frozen[f] = 1;
    for (;;) {
        std::vector<int32_t> active(nRes, 0);
        for (size_t f = 0; f < nFlows; ++f)
            if (!frozen[f])
                for (int32_t r : paths.of(f))
                    ++active[size_t(r)];
        double best = kInf;
        int32_t bestRes = -1;
        for (size_t r = 0; r < nRes; ++r)
            if (active[r] > 0 && std::max(0.0, remaining[r]) / active[r] < best) {
                best = std::max(0.0, remaining[r]) / active[r];
                bestRes = int32_t(r);
            }
        if (bestRes < 0) break;
        for (size_t f = 0; f < nFlows; ++f) {
            if (frozen[f]) continue;
            const auto p = paths.of(f);
            if (std::find(p.begin(), p.end(), bestRes) == p.end()) continue;
            frozen[f] = 1;
            rate[f] = best;
            for (int32_t q : p)
                remaining[size_t(q)] -= best;
        }
    }
    return rate;
}

} // namespace cs

namespace cs {

void TransferLoads::add(std::span<const std::pair<int32_t, double>> loads, double cap) {
    for (const auto& [r, c] : loads) {
        resources.push_back(r);
        coefficients.push_back(c);
    }
    offsets.push_back(int32_t(resources.size()));
    caps.push_back(cap);
}

std::vector<double> maxMinFairTransferRates(const std::vector<double>& capacity,
                                            const TransferLoads& loads,
                                            std::vector<double>& frozenLoad,
                                            std::vector<double>& unfrozenWeight) {
    const size_t n = loads.transfers();
    frozenLoad.resize(capacity.size(), 0.0);
    unfrozenWeight.resize(capacity.size(), 0.0);
    std::vector<double> rate(n, kInf);
    std::vector<uint8_t> frozen(n, 0);
    size_t left = n;
    while (left > 0) {
        // The level at which the first resource or cap saturates.
        for (size_t k = 0; k < n; ++k)
            if (!frozen[k])
                for (int32_t i = loads.offsets[k]; i < loads.offsets[k + 1]; ++i)
                    unfrozenWeight[size_t(loads.resources[size_t(i)])] +=
                        loads.coefficients[size_t(i)];
        double level = kInf;
        for (size_t k = 0; k < n; ++k) {
            if (frozen[k]) continue;
            level = std::min(level, loads.caps[k]);
            for (int32_t i = loads.offsets[k]; i < loads.offsets[k + 1]; ++i) {
                const auto r = size_t(loads.resources[size_t(i)]);
                if (unfrozenWeight[r] > 0)
                    level = std::min(level, std::max(0.0, capacity[r] - frozenLoad[r]) /
                                                unfrozenWeight[r]);
            }
        }
        // Freeze every transfer that crosses a saturated resource or reached its cap.
        const double tight = level * (1 + 1e-12) + 1e-300;
        std::vector<size_t> freezing;
        for (size_t k = 0; k < n; ++k) {
            if (frozen[k]) continue;
            bool saturated = level == kInf || loads.caps[k] <= tight;
            for (int32_t i = loads.offsets[k]; i < loads.offsets[k + 1] && !saturated; ++i) {
                const auto r = size_t(loads.resources[size_t(i)]);
                saturated = unfrozenWeight[r] > 0 &&
                            std::max(0.0, capacity[r] - frozenLoad[r]) / unfrozenWeight[r] <= tight;
            }
            if (saturated) freezing.push_back(k);
        }
        for (size_t k = 0; k < n; ++k) // clear the weights for the next round
            if (!frozen[k])
                for (int32_t i = loads.offsets[k]; i < loads.offsets[k + 1]; ++i)
                    unfrozenWeight[size_t(loads.resources[size_t(i)])] = 0;
        for (size_t k : freezing) {
            frozen[k] = 1;
            rate[k] = level;
            --left;
            for (int32_t i = loads.offsets[k]; i < loads.offsets[k + 1]; ++i)
                frozenLoad[size_t(loads.resources[size_t(i)])] +=
                    level * loads.coefficients[size_t(i)];
        }
    }
    for (size_t k = 0; k < n; ++k) // leave the scratch zeroed
        for (int32_t i = loads.offsets[k]; i < loads.offsets[k + 1]; ++i)
            frozenLoad[size_t(loads.resources[size_t(i)])] = 0;
    return rate;
}

} // namespace cs
