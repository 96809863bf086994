#include "MaxMinFairShare.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <queue>

namespace cs {

void FlowPaths::add(std::span<const int32_t> path) {
    resources.insert(resources.end(), path.begin(), path.end());
    offsets.push_back(int32_t(resources.size()));
}

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr uint8_t kRising = 0, kFreezing = 1, kFrozen = 2;

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
    onOffsets.clear(); // the transpose no longer holds
    on.clear();
}

void TransferLoads::index(size_t nResources) {
    onOffsets.assign(nResources + 1, 0);
    for (int32_t r : resources)
        ++onOffsets[size_t(r) + 1];
    for (size_t r = 0; r < nResources; ++r)
        onOffsets[r + 1] += onOffsets[r];
    on.resize(resources.size());
    std::vector<int32_t> fill(onOffsets.begin(), onOffsets.end() - 1);
    for (size_t k = 0; k < transfers(); ++k)
        for (auto i = size_t(offsets[k]); i < size_t(offsets[k + 1]); ++i)
            on[size_t(fill[size_t(resources[i])]++)] = int32_t(k);
}

std::vector<double> maxMinFairTransferRates(const std::vector<double>& capacity,
                                            const TransferLoads& given, std::span<const int> which,
                                            TransferSolveScratch& s) {
    // The transpose finds the transfers a saturated resource freezes; loads indexed for
    // these resources carry it, others get an indexed copy.
    std::optional<TransferLoads> indexed;
    if (given.onOffsets.size() != capacity.size() + 1) {
        indexed = given;
        indexed->index(capacity.size());
    }
    const TransferLoads& loads = indexed ? *indexed : given;
    std::vector<int> all;
    if (which.empty()) {
        all.resize(loads.transfers());
        for (size_t k = 0; k < all.size(); ++k)
            all[k] = int(k);
        which = all;
    }
    const size_t n = which.size();
    s.frozenLoad.resize(capacity.size(), 0.0);
    s.weight.resize(capacity.size(), 0.0);
    s.unfrozenOn.resize(capacity.size(), 0);
    s.positionOf.resize(loads.transfers(), -1);
    s.used.clear();
    std::vector<double> rate(n, kInf);
    s.state.assign(n, kRising);
    // Transfer i's loads, as a range of `loads`.
    auto from = [&](size_t i) { return size_t(loads.offsets[size_t(which[i])]); };
    auto to = [&](size_t i) { return size_t(loads.offsets[size_t(which[i]) + 1]); };
    // The resources in use, each with the weight of its unfrozen transfers (what one unit of
    // level puts on it) and their count (weights never subtract to exactly zero).
    for (size_t k = 0; k < n; ++k) {
        s.positionOf[size_t(which[k])] = int32_t(k);
        for (size_t i = from(k); i < to(k); ++i) {
            const auto r = size_t(loads.resources[i]);
            if (s.unfrozenOn[r]++ == 0) s.used.push_back(int32_t(r));
            s.weight[r] += loads.coefficients[i];
        }
    }
    auto levelOf = [&](int32_t r) {
        return std::max(0.0, capacity[size_t(r)] - s.frozenLoad[size_t(r)]) / s.weight[size_t(r)];
    };
    size_t left = n;
    while (left > 0) {
        // The level at which the first resource or cap saturates; resources whose transfers
        // all froze leave the list.
        double level = kInf;
        for (size_t k = 0; k < n; ++k)
            if (s.state[k] == kRising) level = std::min(level, loads.caps[size_t(which[k])]);
        size_t kept = 0;
        for (int32_t r : s.used)
            if (s.unfrozenOn[size_t(r)] > 0) {
                level = std::min(level, levelOf(r));
                s.used[kept++] = r;
            } else {
                s.frozenLoad[size_t(r)] = 0, s.weight[size_t(r)] = 0;
            }
        s.used.resize(kept);
        // Freeze every transfer that crosses a saturated resource or reached its cap, in
        // transfer order (so sums come out the same whichever resource found them).
        const double tight = level * (1 + 1e-12) + 1e-300;
        s.freezing.clear();
        auto mark = [&](size_t k) {
            if (s.state[k] != kRising) return;
            s.state[k] = kFreezing;
            s.freezing.push_back(k);
        };
        for (size_t k = 0; k < n; ++k)
            if (level == kInf || loads.caps[size_t(which[k])] <= tight) mark(k);
        for (int32_t r : s.used)
            if (levelOf(r) <= tight)
                for (auto j = size_t(loads.onOffsets[size_t(r)]);
                     j < size_t(loads.onOffsets[size_t(r) + 1]); ++j)
                    if (const int32_t k = s.positionOf[size_t(loads.on[j])]; k >= 0)
                        mark(size_t(k));
        std::sort(s.freezing.begin(), s.freezing.end());
        const bool last = s.freezing.size() == left; // nothing reads the loads after it
        for (size_t k : s.freezing) {
            s.state[k] = kFrozen;
            rate[k] = level;
            --left;
            if (last) continue;
            for (size_t i = from(k); i < to(k); ++i) {
                const auto r = size_t(loads.resources[i]);
                s.frozenLoad[r] += level * loads.coefficients[i];
                s.weight[r] -= loads.coefficients[i];
                --s.unfrozenOn[r];
            }
        }
    }
    for (int32_t r : s.used) { // leave the scratch zeroed
        s.frozenLoad[size_t(r)] = 0;
        s.weight[size_t(r)] = 0;
        s.unfrozenOn[size_t(r)] = 0;
    }
    for (int k : which)
        s.positionOf[size_t(k)] = -1;
    return rate;
}

namespace {

// Transfers that each load whole links without caps (single-path flows) solve by the heap,
// whose cost does not grow with the number of distinct bottleneck levels; the others by rounds.
std::vector<double> solveTransfers(const std::vector<double>& capacity, const TransferLoads& loads,
                                   std::span<const int> which, TransferSolveScratch& s) {
    const size_t n = which.empty() ? loads.transfers() : which.size();
    bool unit = n > 64;
    for (size_t i = 0; i < n && unit; ++i) {
        const size_t k = which.empty() ? i : size_t(which[i]);
        unit = !std::isfinite(loads.caps[k]);
        for (auto j = size_t(loads.offsets[k]); j < size_t(loads.offsets[k + 1]) && unit; ++j)
            unit = loads.coefficients[j] == 1.0;
    }
    if (!unit) return maxMinFairTransferRates(capacity, loads, which, s);
    FlowPaths paths;
    for (size_t i = 0; i < n; ++i) {
        const size_t k = which.empty() ? i : size_t(which[i]);
        paths.add(std::span<const int32_t>(loads.resources.data() + loads.offsets[k],
                                           size_t(loads.offsets[k + 1] - loads.offsets[k])));
    }
    return maxMinFairRates(capacity, paths);
}

} // namespace

std::vector<double> contendedTransferRates(const std::vector<double>& capacity,
                                           Contention contention, const TransferLoads& loads,
                                           std::span<const int> which, TransferSolveScratch& s) {
    s.bufferDrainS = std::numeric_limits<double>::infinity();
    std::vector<double> rate = solveTransfers(capacity, loads, which, s);
    if (!contention.efficiency) return rate;
    const std::vector<double>& efficiency = *contention.efficiency;
    const size_t n = which.empty() ? loads.transfers() : which.size();
    auto each = [&](size_t i, auto&& fn) {
        const size_t k = which.empty() ? i : size_t(which[i]);
        for (auto j = size_t(loads.offsets[k]); j < size_t(loads.offsets[k + 1]); ++j)
            fn(size_t(loads.resources[j]), loads.coefficients[j]);
    };
    auto moving = [&](size_t i) { return rate[i] > 0 && std::isfinite(rate[i]); };
    s.load.resize(capacity.size(), 0.0);
    s.transfersOn.resize(capacity.size(), 0);
    s.touched.clear();
    for (size_t i = 0; i < n; ++i)
        if (moving(i))
            each(i, [&](size_t r, double c) {
                if (s.load[r] == 0) s.touched.push_back(int32_t(r));
                s.load[r] += rate[i] * c;
            });
    auto saturated = [&](size_t r) { return s.load[r] >= capacity[r] * (1 - 1e-9); };
    auto injecting = [&](size_t r) {
        return contention.injection && (*contention.injection)[r] != 0;
    };
    // Per saturated link inside the fabric, the transfers that would send more but for the
    // fabric: not held at their own NIC's link into it.
    const bool buffered = contention.remainingBytes && contention.bufferBytes;
    s.held.clear();
    if (buffered) s.queued.resize(capacity.size(), 0.0);
    for (size_t i = 0; i < n; ++i) {
        if (!moving(i)) continue;
        bool atNic = false;
        each(i, [&](size_t r, double) { atNic |= injecting(r) && saturated(r); });
        if (atNic) continue;
        if (buffered) s.held.push_back(int32_t(i));
        each(i, [&](size_t r, double c) {
            if (!saturated(r) || injecting(r)) return;
            ++s.transfersOn[r];
            if (buffered) s.queued[r] += (*contention.remainingBytes)[i] * c;
        });
    }
    // A byte's tolerance on the buffer, so that a queue drained to it counts as fitting.
    auto fits = [&](size_t r) {
        return s.queued[r] <= (*contention.bufferBytes)[r] * (1 + 1e-9) + 1;
    };
    auto contended = [&](size_t r) {
        return s.transfersOn[r] >= 2 && efficiency[r] < 1 && !(buffered && fits(r));
    };
    bool lower = false;
    for (int32_t r : s.touched)
        lower |= contended(size_t(r));
    // The buffered links lowered, each with its queue above the buffer (in s.queued) and, once
    // solved, the rate its held transfers drain it at (in s.load).
    std::vector<int32_t> overBuffer;
    if (lower) {
        s.lowered = capacity;
        for (int32_t r : s.touched)
            if (contended(size_t(r))) {
                s.lowered[size_t(r)] = capacity[size_t(r)] * efficiency[size_t(r)];
                if (buffered && (*contention.bufferBytes)[size_t(r)] > 0) overBuffer.push_back(r);
            }
    }
    for (int32_t r : s.touched) {
        s.load[size_t(r)] = 0, s.transfersOn[size_t(r)] = 0;
        if (buffered && !std::count(overBuffer.begin(), overBuffer.end(), r))
            s.queued[size_t(r)] = 0;
    }
    if (!lower) return rate;
    std::vector<double> lowered = solveTransfers(s.lowered, loads, which, s);
    if (overBuffer.empty()) return lowered;
    // When the first of them drains to its buffer the link stops losing: the caller's next
    // event at the latest.
    for (int32_t i : s.held)
        each(size_t(i), [&](size_t r, double c) { s.load[r] += lowered[size_t(i)] * c; });
    for (int32_t r : overBuffer) {
        const auto k = size_t(r);
        if (s.load[k] > 0)
            s.bufferDrainS =
                std::min(s.bufferDrainS, (s.queued[k] - (*contention.bufferBytes)[k]) / s.load[k]);
    }
    for (int32_t i : s.held)
        each(size_t(i), [&](size_t r, double) { s.load[r] = 0; });
    for (int32_t r : overBuffer)
        s.queued[size_t(r)] = 0;
    return lowered;
}

} // namespace cs
