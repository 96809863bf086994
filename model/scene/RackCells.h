#pragma once
// The GPUs of a rack drawn as cells on its top face at far detail, so that each GPU's own
// value shows at every distance: one idle GPU among 24,576 busy ones is a dark cell in a
// bright rack, where the rack's mean would move by a few levels. Cells are laid out in a
// grid as square as the face allows, in the order of the rack's hosts and their GPUs.
#include "SceneGeometry.h"
#include "Topology.h"
#include "TopologyIndex.h"

#include <vector>

namespace cs {

// Appends one cell per GPU of `rack`'s hosts to `cells` and the GPU ids to `gpus`.
void appendRackCells(const Topology& t, const TopologyIndex& ix, const Box& rack, int32_t rackId,
                     std::vector<Box>& cells, std::vector<int32_t>& gpus);

} // namespace cs
