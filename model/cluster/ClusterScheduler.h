#pragma once
// Which hosts a job gets on a shared cluster, by the workload's policy, and what is left free.
// Jobs get whole hosts (exclusive nodes, as training clusters run them); a job of N GPUs gets
// the fewest hosts holding N. Hosts are grouped in racks and racks in pods as the topology
// has them (a host outside any rack or pod is a group of its own).
#include "Topology.h"
#include "Workload.h"

#include <optional>
#include <vector>

namespace cs {

class ClusterScheduler {
public:
    ClusterScheduler(const Topology& t, SchedulerPolicy policy, PodCrossing crossing,
                     uint64_t seed);

    // The hosts for a job of `gpus` GPUs, or nothing when it must wait. `draw` varies the
    // fragmented policy's choice from job to job.
    std::optional<std::vector<int32_t>> place(long long gpus, uint64_t draw) const;
    void take(const std::vector<int32_t>& hosts);
    void release(const std::vector<int32_t>& hosts);
    // Hosts a fabric failure cuts off take no job until they are up again (per host: down).
    void setDown(std::vector<uint8_t> down);
    // The GPUs of the hosts, ascending.
    std::vector<int32_t> gpusOf(const std::vector<int32_t>& hosts) const;

    long long totalGpus() const { return totalGpus_; }
    long long freeGpus() const { return freeGpus_; }
    long long largestPodGpus() const; // the largest pod's GPUs, free or not
    std::vector<long long> freeGpusPerPod() const;
    // The most GPUs free in one pod: the largest job that starts without crossing pods.
    long long largestFreeBlock() const;
    int pods() const { return int(podRacks_.size()); }
    int podOf(int32_t host) const { return podOfGroup_[size_t(rackOf_[size_t(host)])]; }
    int rackOf(int32_t host) const { return rackOf_[size_t(host)]; }

private:
    const Topology& t_;
    SchedulerPolicy policy_;
    PodCrossing crossing_;
    uint64_t seed_;
    // Racks as groups of hosts with GPUs (index: group), pods as groups of racks.
    std::vector<std::vector<int32_t>> rackHosts_;
    std::vector<int> podOfGroup_;
    std::vector<std::vector<int>> podRacks_;
    std::vector<int> rackOf_;   // per host: its group, -1 without GPUs
    std::vector<uint8_t> free_; // no job holds it
    std::vector<uint8_t> down_; // cut off from the fabric
    bool usable(size_t h) const { return free_[h] && !down_[h]; }
    void countFree();
    long long totalGpus_ = 0, freeGpus_ = 0;

    long long freeIn(int rack) const;
    long long freeInPod(int pod) const;
    // Free hosts of the racks in order, until `gpus` are held.
    std::optional<std::vector<int32_t>> fill(const std::vector<int>& racks, long long gpus) const;
    std::optional<std::vector<int32_t>> topologyAware(long long gpus) const;
    // The pod's racks, most free GPUs first: the fewest racks for the job.
    std::vector<int> racksByFree(int pod) const;
};

} // namespace cs
