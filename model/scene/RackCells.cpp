#include "RackCells.h"

#include <cmath>

namespace cs {

RackCellGrid rackCellGrid(const Topology& t, const TopologyIndex& ix, const Box& rack,
                          int32_t rackId) {
    RackCellGrid g;
    for (int32_t h : ix.hostsOfRack(rackId)) {
        const Host& host = t.hosts[size_t(h)];
        for (int k = 0; k < host.gpuCount; ++k)
            g.gpus.push_back(host.firstGpu + k);
    }
    const auto n = int(g.gpus.size());
    if (n == 0 || !rack.drawn()) return {};
    g.cols =
        std::max(1, std::min(n, int(std::lround(std::sqrt(float(n) * rack.size.x / rack.size.y)))));
    g.rows = (n + g.cols - 1) / g.cols;
    return g;
}

} // namespace cs
