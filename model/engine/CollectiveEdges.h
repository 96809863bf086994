#pragma once
// The GPU-to-GPU edges NCCL's algorithms send over within a group.
#include "EdgeRoutes.h"

#include <cstdint>
#include <vector>

namespace cs {

// A ring over a group's members: each sends to the next (none for a group of one).
void addRingEdges(const std::vector<int32_t>& group, std::vector<Edge>& out);
// NCCL's double binary tree over a group's members: two heap-ordered binary trees, the second
// over the members in reverse order, so that each member is interior in at most one. Each tree
// carries half the data, up (reduce) and down (broadcast) at once: both directions of every
// tree edge.
void addTreeEdges(const std::vector<int32_t>& group, std::vector<Edge>& out);

} // namespace cs
