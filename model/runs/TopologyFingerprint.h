#pragma once
// A run belongs to one topology: its name and a fingerprint of its entities (counts, names of
// hosts and switches, every link's ends and speed), so that a run is never shown on another
// topology that happens to have as many GPUs and links.
#include "Topology.h"

#include <cstdint>

namespace cs {

uint64_t topologyFingerprint(const Topology& t);

} // namespace cs
