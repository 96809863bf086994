#include "TransportKinds.h"

namespace cs {

std::optional<TransportConflict> transportConflict(Fabric fabric, const TransportSettings& s) {
    const bool ib = fabric == Fabric::InfiniBand;
    if (!ib && s.inNetworkReduction == InNetworkReduction::Sharp)
        return TransportConflict{"inNetworkReduction",
                                 "sharp reduces in InfiniBand switches (Quantum SHARP); a roce "
                                 "fabric has none: expected auto or off"};
    if (!ib && s.congestionControl == CongestionControl::Credit)
        return TransportConflict{"congestionControl",
                                 "credit is InfiniBand's link-level flow control; on roce "
                                 "expected auto, dcqcn, pfc or none"};
    if (ib && (s.congestionControl == CongestionControl::Dcqcn ||
               s.congestionControl == CongestionControl::Pfc))
        return TransportConflict{
            "congestionControl",
            std::string(namesOf(s.congestionControl).name(s.congestionControl)) +
                " is RoCE's; on infiniband expected auto, credit or none"};
    return std::nullopt;
}

} // namespace cs
