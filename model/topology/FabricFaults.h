#pragma once
// Parts of the fabric that are down or slowed, applied to a topology (the lists themselves:
// FabricFaultList.h). A failed link, switch or NIC carries nothing, so routes go around it
// (FabricRouter skips links of 0 Gb/s); a degraded one keeps the fraction of its capacity.
#include "FabricFaultList.h"
#include "TopologyDocument.h"

#include <vector>

namespace cs {

// The topology with the faults applied (its entities and their indices unchanged). Throws
// InputException whose field is "fabric.failed[i]" or "fabric.degraded.<id>" for an id that
// names no link, switch or NIC of the topology.
Topology topologyWithFaults(const TopologyDocument& doc, const FabricFaults& faults);
// Throws as topologyWithFaults does, without building the topology.
void checkFaultIds(const TopologyDocument& doc, const FabricFaults& faults);
// The parts a fault list names as failed (links, switches, NICs), as the view marks them;
// ids that name none are left out.
std::vector<Endpoint> failedParts(const TopologyDocument& doc, const FabricFaults& faults);
// The links a fault list takes down (every link of a failed switch or NIC), sorted.
std::vector<int32_t> failedLinks(const TopologyDocument& doc, const FabricFaults& faults);

} // namespace cs
