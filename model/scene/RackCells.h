#pragma once
// The GPUs of a rack drawn as cells on its top face at far detail, so that each GPU's own
// value shows at every distance: one idle GPU among 24,576 busy ones is a dark cell in a
// bright rack, where the rack's mean would move by a few levels. Cells form a grid as square
// as the face allows, in the order of the rack's hosts and their GPUs.
#include "SceneGeometry.h"
#include "Topology.h"
#include "TopologyIndex.h"

#include <vector>

namespace cs {

struct RackCellGrid {
    int cols = 0, rows = 0;    // cell k sits at column k % cols, row k / cols
    std::vector<int32_t> gpus; // per cell
};

// Columns run along the face's x, rows along its y. Empty for racks without GPUs.
RackCellGrid rackCellGrid(const Topology& t, const TopologyIndex& ix, const Box& rack,
                          int32_t rackId);

} // namespace cs
