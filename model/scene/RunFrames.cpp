#include "RunFrames.h"

#include <algorithm>
#include <cmath>

namespace cs {

FrameValues frameOfRun(const RunStore& store, int64_t run, const Topology& t, int64_t tsNs) {
    FrameValues v;
    if (auto id = store.metricId("gpu_busy")) v.gpu = store.frameAt(run, *id, tsNs);
    if (auto id = store.metricId("link_bytes_per_s")) v.link = store.frameAt(run, *id, tsNs);
    if (auto id = store.metricId("storage_load")) v.storage = store.frameAt(run, *id, tsNs);
    if ((!v.gpu.empty() && v.gpu.size() != t.gpus.size()) ||
        (!v.link.empty() && v.link.size() != t.links.size()) ||
        (!v.storage.empty() && v.storage.size() != t.storage.size()))
        throw InputException(
            {{},
             0,
             0,
             "--run",
             "the run was recorded on another topology (entity counts differ from " + t.name +
                 ")"});
    for (size_t l = 0; l < v.link.size();
         ++l) // bytes per second -> fraction of one direction's capacity
        if (!std::isnan(v.link[l]))
            v.link[l] = std::min(1.f, v.link[l] / (t.links[l].gbps * 1e9f / 8));
    return v;
}

} // namespace cs
