#include "EdgeRoutes.h"

#include <algorithm>

namespace cs {

int EdgeRouter::flowsOf(const Edge& e) const {
    const Transport& t = transports_.ofGpu(e.src);
    if (t.loadBalancing == LoadBalancing::Adaptive) return 1;
    const int flows = std::max(1, qps_ > 0 ? qps_ : t.flowsPerGpuPair());
    // Spraying spreads a flow's packets over a fixed set of entropy values, each hashed onto
    // a path as a flow of its own.
    return t.loadBalancing == LoadBalancing::Spray ? std::max(flows, kSprayEntropies) : flows;
}

bool EdgeRouter::route(const Edge& e, std::vector<std::pair<int32_t, double>>& out) {
    out.clear();
    const Transport& t = transports_.ofGpu(e.src);
    if (t.loadBalancing == LoadBalancing::Adaptive) {
        const bool ok = router_.spread(e.src, e.dst, &capacity_, out);
        std::sort(out.begin(), out.end());
        return ok;
    }
    const int qps = flowsOf(e);
    for (int q = 0; q < qps; ++q) {
        path_.clear();
        if (!router_.route(e.src, e.dst, edgeFlowHash(e, q), path_)) return false;
        for (int32_t r : path_)
            out.emplace_back(r, 1.0 / qps);
    }
    // One entry per direction: queue pairs that share a link add up there.
    std::sort(out.begin(), out.end());
    size_t w = 0;
    for (size_t i = 0; i < out.size(); ++i)
        if (w > 0 && out[w - 1].first == out[i].first)
            out[w - 1].second += out[i].second;
        else
            out[w++] = out[i];
    out.resize(w);
    return true;
}

} // namespace cs
