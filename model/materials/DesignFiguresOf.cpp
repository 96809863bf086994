#include "DesignFiguresOf.h"

#include "BillOfMaterials.h"
#include "PriceTable.h"

namespace cs {

DesignFigures designFiguresOf(const TopologyDocument& doc) {
    DesignFigures d;
    try {
        const BillOfMaterials b = billOfMaterials(doc.topology(), doc.index(), shippedPrices());
        d.switches = double(b.switches.total - b.switches.byRole[size_t(SwitchRole::NvSwitch)]);
        d.transceivers = double(b.transceivers);
        d.powerW = b.power.totalW();
        d.costPerGpu = b.cost.perGpuUsd;
    } catch (const InputException&) {
        // Unknown parts: the figures stay unknown rather than wrong.
    }
    return d;
}

} // namespace cs
