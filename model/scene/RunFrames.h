#pragma once
// The views' frame of a stored run at a time: GPU busy fraction, link load as a fraction of
// capacity (from the stored bytes per second), storage load.
#include "FrameValues.h"
#include "RunStore.h"

namespace cs {

// Throws InputException when the run belongs to another topology (entity counts differ).
FrameValues frameOfRun(const RunStore& store, int64_t run, const Topology& t, int64_t tsNs);

} // namespace cs
