#include "ClusterScheduler.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <random>

namespace cs {

ClusterScheduler::ClusterScheduler(const Topology& t, SchedulerPolicy policy, PodCrossing crossing,
                                   uint64_t seed)
    : t_(t), policy_(policy), crossing_(crossing), seed_(seed), rackOf_(t.hosts.size(), -1),
      free_(t.hosts.size(), 0), down_(t.hosts.size(), 0) {
    std::map<int32_t, int> groupOfRack; // the topology's rack -> group
    std::map<int32_t, int> groupOfPod;
    for (size_t h = 0; h < t.hosts.size(); ++h) {
        if (t.hosts[h].gpuCount == 0) continue;
        const int32_t rack = t.hosts[h].rack;
        int group;
        if (auto it = groupOfRack.find(rack); rack != kNone && it != groupOfRack.end()) {
            group = it->second;
        } else {
            group = int(rackHosts_.size());
            rackHosts_.emplace_back();
            if (rack != kNone) groupOfRack.emplace(rack, group);
            const int32_t pod = rack != kNone ? t.podOfRack(rack) : kNone;
            int podGroup;
            if (auto p = groupOfPod.find(pod); pod != kNone && p != groupOfPod.end()) {
                podGroup = p->second;
            } else {
                podGroup = int(podRacks_.size());
                podRacks_.emplace_back();
                if (pod != kNone) groupOfPod.emplace(pod, podGroup);
            }
            podOfGroup_.push_back(podGroup);
            podRacks_[size_t(podGroup)].push_back(group);
        }
        rackHosts_[size_t(group)].push_back(int32_t(h));
        rackOf_[h] = group;
        free_[h] = 1;
        totalGpus_ += t.hosts[h].gpuCount;
    }
    freeGpus_ = totalGpus_;
}

long long ClusterScheduler::freeIn(int rack) const {
    long long n = 0;
    for (int32_t h : rackHosts_[size_t(rack)])
        if (usable(size_t(h))) n += t_.hosts[size_t(h)].gpuCount;
    return n;
}

long long ClusterScheduler::freeInPod(int pod) const {
    long long n = 0;
    for (int rack : podRacks_[size_t(pod)])
        n += freeIn(rack);
    return n;
}

std::vector<long long> ClusterScheduler::freeGpusPerPod() const {
    std::vector<long long> out;
    for (size_t p = 0; p < podRacks_.size(); ++p)
        out.push_back(freeInPod(int(p)));
    return out;
}

long long ClusterScheduler::largestFreeBlock() const {
    const std::vector<long long> perPod = freeGpusPerPod();
    return perPod.empty() ? 0 : *std::max_element(perPod.begin(), perPod.end());
}

long long ClusterScheduler::largestPodGpus() const {
    long long most = 0;
    for (const std::vector<int>& racks : podRacks_) {
        long long n = 0;
        for (int rack : racks)
            for (int32_t h : rackHosts_[size_t(rack)])
                n += t_.hosts[size_t(h)].gpuCount;
        most = std::max(most, n);
    }
    return most;
}

std::optional<std::vector<int32_t>> ClusterScheduler::fill(const std::vector<int>& racks,
                                                           long long gpus) const {
    std::vector<int32_t> hosts;
    long long held = 0;
    for (int rack : racks)
        for (int32_t h : rackHosts_[size_t(rack)]) {
            if (held >= gpus) return hosts;
            if (!usable(size_t(h))) continue;
            hosts.push_back(h);
            held += t_.hosts[size_t(h)].gpuCount;
        }
    if (held < gpus) return std::nullopt;
    return hosts;
}

std::vector<int> ClusterScheduler::racksByFree(int pod) const {
    std::vector<int> racks = podRacks_[size_t(pod)];
    std::vector<long long> freeOf(rackHosts_.size(), 0);
    for (int r : racks)
        freeOf[size_t(r)] = freeIn(r);
    std::stable_sort(racks.begin(), racks.end(),
                     [&](int a, int b) { return freeOf[size_t(a)] > freeOf[size_t(b)]; });
    return racks;
}

std::optional<std::vector<int32_t>> ClusterScheduler::topologyAware(long long gpus) const {
    // One rack: the fullest rack that still has room (best fit keeps empty racks whole).
    int bestRack = -1;
    long long bestRackFree = 0;
    for (size_t r = 0; r < rackHosts_.size(); ++r) {
        const long long f = freeIn(int(r));
        if (f >= gpus && (bestRack < 0 || f < bestRackFree)) bestRack = int(r), bestRackFree = f;
    }
    if (bestRack >= 0) return fill({bestRack}, gpus);
    // One pod: the fullest pod with room, its racks with the most free GPUs first.
    int bestPod = -1;
    long long bestPodFree = 0;
    for (size_t p = 0; p < podRacks_.size(); ++p) {
        const long long f = freeInPod(int(p));
        if (f >= gpus && (bestPod < 0 || f < bestPodFree)) bestPod = int(p), bestPodFree = f;
    }
    if (bestPod >= 0) return fill(racksByFree(bestPod), gpus);
    if (gpus <= largestPodGpus() && crossing_ == PodCrossing::Wait) return std::nullopt;
    // Several pods: the emptiest pods first, so the job crosses as few as it can.
    std::vector<int> pods(podRacks_.size());
    std::iota(pods.begin(), pods.end(), 0);
    std::vector<long long> freeOf = freeGpusPerPod();
    std::stable_sort(pods.begin(), pods.end(),
                     [&](int a, int b) { return freeOf[size_t(a)] > freeOf[size_t(b)]; });
    std::vector<int> racks;
    for (int p : pods)
        for (int r : racksByFree(p))
            racks.push_back(r);
    return fill(racks, gpus);
}

std::optional<std::vector<int32_t>> ClusterScheduler::place(long long gpus, uint64_t draw) const {
    if (gpus > freeGpus_) return std::nullopt;
    switch (policy_) {
    case SchedulerPolicy::TopologyAware:
        return topologyAware(gpus);
    case SchedulerPolicy::FirstFit: {
        std::vector<int32_t> hosts;
        long long held = 0;
        for (size_t h = 0; h < free_.size() && held < gpus; ++h)
            if (usable(h)) hosts.push_back(int32_t(h)), held += t_.hosts[h].gpuCount;
        if (held < gpus) return std::nullopt;
        return hosts;
    }
    case SchedulerPolicy::Fragmented: {
        std::vector<int32_t> freeHosts;
        for (size_t h = 0; h < free_.size(); ++h)
            if (usable(h)) freeHosts.push_back(int32_t(h));
        std::mt19937_64 rng(seed_ * 0x9E3779B97F4A7C15ULL + draw);
        std::shuffle(freeHosts.begin(), freeHosts.end(), rng);
        std::vector<int32_t> hosts;
        long long held = 0;
        for (int32_t h : freeHosts) {
            if (held >= gpus) break;
            hosts.push_back(h);
            held += t_.hosts[size_t(h)].gpuCount;
        }
        if (held < gpus) return std::nullopt;
        std::sort(hosts.begin(), hosts.end());
        return hosts;
    }
    }
    return std::nullopt;
}

void ClusterScheduler::take(const std::vector<int32_t>& hosts) {
    for (int32_t h : hosts)
        free_[size_t(h)] = 0;
    countFree();
}

void ClusterScheduler::release(const std::vector<int32_t>& hosts) {
    for (int32_t h : hosts)
        if (rackOf_[size_t(h)] >= 0) free_[size_t(h)] = 1;
    countFree();
}

void ClusterScheduler::setDown(std::vector<uint8_t> down) {
    down.resize(t_.hosts.size(), 0);
    down_ = std::move(down);
    countFree();
}

void ClusterScheduler::countFree() {
    freeGpus_ = 0;
    for (size_t h = 0; h < free_.size(); ++h)
        if (usable(h)) freeGpus_ += t_.hosts[h].gpuCount;
}

std::vector<int32_t> ClusterScheduler::gpusOf(const std::vector<int32_t>& hosts) const {
    return t_.gpusOfHosts(hosts);
}

} // namespace cs
