#include "FabricShare.h"

#include "EdgeRoutes.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

namespace cs {
namespace {
constexpr size_t kMaxMemo = 200'000;
} // namespace

FabricShare::FabricShare(const Topology& t, FabricRouter& router, double nvlinkBps,
                         ShareSolver solver)
    : t_(t), router_(router), transports_(t), nvlinkBps_(nvlinkBps),
      capacity_(router.capacities(transports_)),
      efficiency_(router.contendedEfficiencies(transports_)), injection_(router.injectionLinks()),
      solver_(solver) {}

int FabricShare::addClass(const std::vector<Edge>& edges, int flowsPerPair) {
    Class c;
    std::vector<double>& share = flowsOn_; // zero outside the links this class touches
    share.resize(capacity_.size(), 0.0);
    std::vector<int32_t> touched;
    EdgeRouter routes(router_, transports_, capacity_, flowsPerPair);
    for (const Edge& e : edges) {
        if (t_.sameNvlinkDomain(e.src, e.dst)) {
            c.nvlink = true;
            continue;
        }
        // Each link direction the edge's bytes cross, with the fraction of them there.
        if (!routes.route(e, spread_) || spread_.empty()) continue;
        c.fabric = true;
        for (const auto& [r, fraction] : spread_) {
            if (share[size_t(r)] == 0) touched.push_back(r);
            share[size_t(r)] += fraction;
        }
    }
    std::sort(touched.begin(), touched.end());
    std::vector<std::pair<int32_t, double>> load;
    loaded_.resize(capacity_.size(), 0);
    for (int32_t r : touched) {
        if (!loaded_[size_t(r)]) loaded_[size_t(r)] = 1, ++linksLoaded_;
        load.emplace_back(r, share[size_t(r)]);
        share[size_t(r)] = 0;
    }
    // Edges inside a host run on NVLink: the class goes no faster than that.
    loads_.add(load, c.nvlink ? nvlinkBps_ : std::numeric_limits<double>::infinity());
    classes_.push_back(c);
    return int(classes_.size()) - 1;
}

int FabricShare::addLoads(std::span<const int32_t> resources, std::span<const double> coefficients,
                          double cap, bool fabric) {
    std::vector<std::pair<int32_t, double>> load;
    loaded_.resize(capacity_.size(), 0);
    for (size_t i = 0; i < resources.size(); ++i) {
        load.emplace_back(resources[i], coefficients[i]);
        if (!loaded_[size_t(resources[i])]) loaded_[size_t(resources[i])] = 1, ++linksLoaded_;
    }
    loads_.add(load, cap);
    Class c;
    c.fabric = fabric;
    c.nvlink = !fabric || std::isfinite(cap);
    classes_.push_back(c);
    return int(classes_.size()) - 1;
}

void FabricShare::rates(std::span<const int> active, std::vector<double>& rate) {
    if (solver_ == ShareSolver::Solo && active.size() > 1) {
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
    const bool pruned = solver_ == ShareSolver::BindingLinks;
    if (pruned && bindingClasses_ != classes_.size()) keepBindingLinks();
    if (!pruned && loads_.onOffsets.empty()) loads_.index(capacity_.size());
    const TransferLoads& loads = pruned ? binding_ : loads_;
    for (int cls : active)
        flowsSolved_ += loads.offsets[size_t(cls) + 1] - loads.offsets[size_t(cls)];
    rate = contendedTransferRates(
        pruned ? bindingCapacity_ : capacity_,
        {pruned ? &bindingEfficiency_ : &efficiency_, pruned ? &bindingInjection_ : &injection_},
        loads, active, scratch_);
    ++solves_;
    // Sets of several jobs' transfers recur less than one job's: the memo is kept bounded.
    if (memo_.size() >= kMaxMemo) memo_.clear();
    memo_.emplace(std::move(key), rate);
}

void FabricShare::keepBindingLinks() {
    // Each link direction's loads: the (class, coefficient) pairs on it, in class order (the
    // transpose of loads_).
    const size_t nLinks = capacity_.size();
    std::vector<int32_t> offsets(nLinks + 1, 0);
    for (int32_t r : loads_.resources)
        ++offsets[size_t(r) + 1];
    for (size_t r = 0; r < nLinks; ++r)
        offsets[r + 1] += offsets[r];
    std::vector<std::pair<int32_t, double>> on(loads_.resources.size());
    {
        std::vector<int32_t> fill(offsets.begin(), offsets.end() - 1);
        for (size_t k = 0; k < loads_.transfers(); ++k)
            for (auto i = size_t(loads_.offsets[k]); i < size_t(loads_.offsets[k + 1]); ++i)
                on[size_t(fill[size_t(loads_.resources[i])]++)] = {int32_t(k),
                                                                   loads_.coefficients[i]};
    }
    auto loadsOf = [&](size_t r) {
        return std::span(on.begin() + offsets[r], on.begin() + offsets[r + 1]);
    };
    // A link with one class is a cap on that class (rate x coefficient <= capacity).
    std::vector<double> caps = loads_.caps;
    // Links with the same classes, by class set (hash buckets, then an exact comparison).
    std::vector<std::vector<int32_t>> linksOfSet;
    std::unordered_map<uint64_t, std::vector<int32_t>> setsByHash;
    for (size_t r = 0; r < nLinks; ++r) {
        const auto l = loadsOf(r);
        if (l.empty()) continue;
        if (l.size() == 1) {
            caps[size_t(l[0].first)] =
                std::min(caps[size_t(l[0].first)], capacity_[r] / l[0].second);
            continue;
        }
        uint64_t h = 14695981039346656037ULL;
        for (const auto& [k, c] : l)
            h = (h ^ uint64_t(uint32_t(k))) * 1099511628211ULL;
        auto sameClasses = [&](size_t other) {
            const auto o = loadsOf(other);
            return std::equal(l.begin(), l.end(), o.begin(), o.end(),
                              [](const auto& x, const auto& y) { return x.first == y.first; });
        };
        std::vector<int32_t>& bucket = setsByHash[h];
        int32_t set = -1;
        for (int32_t candidate : bucket)
            if (sameClasses(size_t(linksOfSet[size_t(candidate)].front()))) set = candidate;
        if (set < 0) {
            set = int32_t(linksOfSet.size());
            bucket.push_back(set);
            linksOfSet.emplace_back();
        }
        linksOfSet[size_t(set)].push_back(int32_t(r));
    }
    // Within a class set, a link whose every class fills a larger share of it than of
    // another link (coefficient over capacity) saturates no later than that one, and freezes
    // the same transfers when it does: the other can never bind. Keep the undominated ones
    // (the skyline), up to a bound on the comparisons.
    constexpr size_t kMaxSkyline = 4096;
    std::vector<int32_t> kept;
    std::vector<double> share;
    for (std::vector<int32_t>& links : linksOfSet) {
        const size_t width = loadsOf(size_t(links.front())).size();
        auto shareOf = [&](int32_t r, size_t j) {
            return loadsOf(size_t(r))[j].second / capacity_[size_t(r)];
        };
        auto total = [&](int32_t r) {
            double sum = 0;
            for (size_t j = 0; j < width; ++j)
                sum += shareOf(r, j);
            return sum;
        };
        std::stable_sort(links.begin(), links.end(),
                         [&](int32_t a, int32_t b) { return total(a) > total(b); });
        const size_t first = kept.size();
        for (int32_t r : links) {
            bool dominated = false;
            if (kept.size() - first < kMaxSkyline)
                for (size_t i = first; i < kept.size() && !dominated; ++i) {
                    dominated = true;
                    for (size_t j = 0; j < width && dominated; ++j)
                        dominated = shareOf(kept[i], j) >= shareOf(r, j);
                }
            if (!dominated) kept.push_back(r);
        }
    }
    // The solve's resources: the kept links, with their capacities and loads.
    std::sort(kept.begin(), kept.end());
    std::vector<int32_t> index(nLinks, -1);
    bindingCapacity_.clear();
    bindingEfficiency_.clear();
    bindingInjection_.clear();
    for (int32_t r : kept) {
        index[size_t(r)] = int32_t(bindingCapacity_.size());
        bindingCapacity_.push_back(capacity_[size_t(r)]);
        bindingEfficiency_.push_back(efficiency_[size_t(r)]);
        bindingInjection_.push_back(injection_[size_t(r)]);
    }
    binding_ = TransferLoads{};
    std::vector<std::pair<int32_t, double>> load;
    for (size_t k = 0; k < loads_.transfers(); ++k) {
        load.clear();
        for (auto i = size_t(loads_.offsets[k]); i < size_t(loads_.offsets[k + 1]); ++i)
            if (const int32_t x = index[size_t(loads_.resources[i])]; x >= 0)
                load.emplace_back(x, loads_.coefficients[i]);
        binding_.add(load, caps[k]);
    }
    binding_.index(bindingCapacity_.size());
    bindingClasses_ = classes_.size();
}

double FabricShare::soloRate(int cls) {
    std::vector<double> r;
    const int one[1] = {cls};
    rates(one, r);
    return r.front();
}

void FabricShare::addLinkBytes(int cls, double bytesPerEdge, std::vector<double>* total,
                               std::vector<float>* perClass) const {
    for (auto i = size_t(loads_.offsets[size_t(cls)]); i < size_t(loads_.offsets[size_t(cls) + 1]);
         ++i) {
        const auto r = size_t(loads_.resources[i]);
        if (total) (*total)[r] += bytesPerEdge * loads_.coefficients[i];
        if (perClass) (*perClass)[r] += float(bytesPerEdge * loads_.coefficients[i]);
    }
}

} // namespace cs
