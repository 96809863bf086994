#pragma once
// What a design needs, for a comparison of two runs (RunComparison.h): its switches (not the
// NVSwitches inside hosts), optical transceivers, site power at full load and cost per GPU,
// from its bill of materials at the shipped prices.
#include "RunComparison.h"
#include "TopologyDocument.h"

namespace cs {

// NaN figures when the bill cannot be made (a GPU model without power figures, a part
// without a price): the comparison then shows them as unknown.
DesignFigures designFiguresOf(const TopologyDocument& doc);

} // namespace cs
