#include "RackCells.h"

#include <cmath>

namespace cs {

void appendRackCells(const Topology& t, const TopologyIndex& ix, const Box& rack, int32_t rackId,
                     std::vector<Box>& cells, std::vector<int32_t>& gpus) {
    int n = 0;
    for (int32_t h : ix.hostsOfRack(rackId))
        n += t.hosts[size_t(h)].gpuCount;
    if (n == 0 || !rack.drawn()) return;
    const float w = rack.size.x, d = rack.size.y;
    // Columns along x, rows along y, cells as near square as the face allows.
    const int cols = std::max(1, std::min(n, int(std::lround(std::sqrt(float(n) * w / d)))));
    const int rows = (n + cols - 1) / cols;
    const float cw = w / float(cols), cd = d / float(rows);
    const float gap = 0.12f; // of a cell: neighbours stay apart at a pixel or two
    const float height = std::max(0.01f, 0.02f * rack.size.z);
    const Vec3 corner = rack.center - rack.size * 0.5f;
    int k = 0;
    for (int32_t h : ix.hostsOfRack(rackId)) {
        const Host& host = t.hosts[size_t(h)];
        for (int g = 0; g < host.gpuCount; ++g, ++k) {
            const int c = k % cols, r = k / cols;
            Box cell;
            cell.center = {corner.x + (float(c) + 0.5f) * cw, corner.y + (float(r) + 0.5f) * cd,
                           corner.z + rack.size.z + height * 0.5f};
            cell.size = {cw * (1 - gap), cd * (1 - gap), height};
            cells.push_back(cell);
            gpus.push_back(host.firstGpu + g);
        }
    }
}

} // namespace cs
