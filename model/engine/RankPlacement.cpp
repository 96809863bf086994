#include "RankPlacement.h"

#include <algorithm>
#include <random>

namespace cs {

RankCoord coordOf(const ParallelConfig& c, int rank) {
    RankCoord x;
    x.t = rank % c.tp;
    rank /= c.tp;
    x.c = rank % c.cp;
    rank /= c.cp;
    x.p = rank % c.pp;
    x.d = rank / c.pp;
    return x;
}

std::vector<int32_t> placeRanks(const Topology& t, const TopologyIndex&, const ParallelConfig& c) {
    const long long n = c.gpus();
    // The GPUs the job may use, ascending: its scheduler's share, or every GPU.
    std::vector<int32_t> pool;
    if (c.gpuPool) {
        pool = *c.gpuPool;
    } else {
        pool.resize(t.gpus.size());
        for (size_t g = 0; g < pool.size(); ++g)
            pool[g] = int32_t(g);
    }
    // Named as DP: the factor that sizes a job to its cluster.
    if (n > (long long)pool.size())
        throw InputException({{},
                              0,
                              0,
                              "parallel.dp",
                              "the job needs " + std::to_string(n) + " GPUs (TP x CP x PP x DP); " +
                                  (c.gpuPool ? "its scheduler gave it " : "the topology has ") +
                                  std::to_string(pool.size())});
    std::vector<int32_t> gpuOf(size_t(n), kNone);
    if (c.placement == Placement::Linear) {
        for (int r = 0; r < n; ++r) {
            const RankCoord x = coordOf(c, r);
            gpuOf[size_t(r)] = pool[size_t(x.d + c.dp * (x.p + c.pp * (x.c + c.cp * x.t)))];
        }
        return gpuOf;
    }
    if (c.placement == Placement::Fragmented) {
        // What a busy scheduler hands out: whole racks, scattered over every pod (seeded).
        // (GPUs of hosts outside any rack: one group of their own.)
        std::vector<std::vector<int32_t>> rackGpus(t.racks.size() + 1);
        for (int32_t g : pool) {
            const int32_t rack = t.hosts[size_t(t.gpus[size_t(g)].host)].rack;
            rackGpus[rack == kNone ? t.racks.size() : size_t(rack)].push_back(g);
        }
        std::erase_if(rackGpus, [](const auto& r) { return r.empty(); });
        std::mt19937_64 rng(c.placementSeed);
        std::shuffle(rackGpus.begin(), rackGpus.end(), rng);
        size_t next = 0;
        for (const auto& rack : rackGpus)
            for (int32_t g : rack)
                if (next < gpuOf.size()) gpuOf[next++] = g;
        return gpuOf;
    }
    // GPUs pod by pod, in index order (a host's GPUs are consecutive).
    std::vector<std::vector<int32_t>> podGpus(t.pods.size());
    for (int32_t g : pool) {
        const int32_t pod = t.podOfHost(t.gpus[size_t(g)].host);
        if (pod != kNone) podGpus[size_t(pod)].push_back(g);
    }
    // With expert parallelism (ETP x EP ranks) wider than TP x CP, `q` replicas' stages
    // interleave so that each stage's expert group sits on consecutive GPUs (inside a host
    // where it fits), as Megatron-Core orders EP inside DP and PP outermost.
    const int experts = c.ep * c.etp;
    const int q = experts > c.tp * c.cp && experts % (c.tp * c.cp) == 0 &&
                          c.dp % (experts / (c.tp * c.cp)) == 0
                      ? experts / (c.tp * c.cp)
                      : 1;
    const long long block = 1LL * c.tp * c.cp * c.pp * q;
    std::vector<int32_t> order; // whole replicas, pod after pod
    for (const auto& pod : podGpus) {
        const size_t whole = size_t(pod.size() / size_t(block)) * size_t(block);
        order.insert(order.end(), pod.begin(), pod.begin() + long(whole));
    }
    if ((long long)order.size() < n) {
        // Replicas do not fit whole into pods: they straddle pods, in GPU index order.
        order = pool;
    }
    for (int r = 0; r < n; ++r) {
        const RankCoord x = coordOf(c, r);
        const long long inner = x.t + 1LL * c.tp * (x.c + 1LL * c.cp * (x.d % q));
        const long long slot = inner + 1LL * c.tp * c.cp * q * (x.p + 1LL * c.pp * (x.d / q));
        gpuOf[size_t(r)] = order[size_t(slot)];
    }
    return gpuOf;
}

} // namespace cs
