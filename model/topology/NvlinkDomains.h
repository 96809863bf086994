#pragma once
// Scale-up domains: the GPUs that reach each other over NVLink. A host's own NVSwitch makes
// it a domain of its own (HGX, DGX); NVLink switches outside any host that several hosts'
// GPUs are wired to (the switch trays of a GB200 NVL72 rack) join those hosts into one.
#include "Topology.h"

namespace cs {

// Sets every host's nvlinkDomain from the NVLink links: the lowest host index of its domain
// where the domain holds several hosts, else kNone.
void assignNvlinkDomains(Topology& t);

} // namespace cs
