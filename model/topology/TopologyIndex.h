#pragma once
// Lookups derived from an immutable Topology: children of each parent (compressed sparse
// rows) and entities by name. Built once after load, O(entities).
#include "Topology.h"

#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

namespace cs {

// Children of parent p are items[offsets[p] .. offsets[p+1]), in ascending index order.
struct ChildList {
    std::vector<int32_t> offsets;
    std::vector<int32_t> items;
    std::span<const int32_t> of(int32_t parent) const {
        if (parent < 0 || size_t(parent) + 1 >= offsets.size()) return {};
        return {items.data() + offsets[size_t(parent)],
                size_t(offsets[size_t(parent) + 1] - offsets[size_t(parent)])};
    }
    static ChildList build(size_t parents, const std::vector<int32_t>& parentOfChild);
};

class TopologyIndex {
public:
    explicit TopologyIndex(const Topology& t);

    std::span<const int32_t> podsOfCluster(int32_t c) const { return clusterPods_.of(c); }
    std::span<const int32_t> racksOfPod(int32_t p) const { return podRacks_.of(p); }
    std::span<const int32_t> hostsOfRack(int32_t r) const { return rackHosts_.of(r); }
    std::span<const int32_t> switchesOfRack(int32_t r) const { return rackSwitches_.of(r); }
    std::span<const int32_t> storageOfRack(int32_t r) const { return rackStorage_.of(r); }
    std::span<const int32_t> nicsOfHost(int32_t h) const { return hostNics_.of(h); }
    std::span<const int32_t> linksOf(Endpoint e) const; // GPU, NIC, switch or storage
    long long gpusOfPod(int32_t p) const { return podGpus_[size_t(p)]; }
    long long gpusOfCluster(int32_t c) const { return clusterGpus_[size_t(c)]; }

    // By id as written in files ("roce.pod3.rack17.host1.gpu5"); nothing if unknown.
    std::optional<Endpoint> find(const std::string& name) const;

private:
    const Topology& t_;
    ChildList clusterPods_, podRacks_, rackHosts_, rackSwitches_, rackStorage_, hostNics_;
    ChildList gpuLinks_, nicLinks_, switchLinks_, storageLinks_;
    std::vector<long long> podGpus_, clusterGpus_;
    std::unordered_map<std::string, Endpoint> byName_;
};

} // namespace cs
