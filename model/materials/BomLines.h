#pragma once
// The bill's lines and costs: every part priced from the table (a switch port by port, each
// port at its speed), and the backend fabric's cost as network cost tables count a fabric.
#include "BillOfMaterials.h"
#include "SwitchPorts.h"

namespace cs {

// Fills b.lines, b.cost and b.pricesUsed; the counts and b.power must be in place. Throws
// InputException naming the missing price.
void priceBill(BillOfMaterials& b, const Topology& t, const std::vector<SwitchPortUse>& ports,
               const PriceTable& prices);

} // namespace cs
