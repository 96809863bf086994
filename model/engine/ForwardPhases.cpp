#include "ForwardPhases.h"

#include <algorithm>

namespace cs {

void addForwardPhases(const ParallelConfig& c, double computeS, double gemmS, double tpPassBytes,
                      std::vector<LayerPhase>& out, double share) {
    const double bytes = share * tpPassBytes, gemms = share * gemmS;
    if (c.tp <= 1) {
        out.push_back({computeS});
    } else if (c.overlap.tpComm) {
        out.push_back({std::min(computeS, gemms), 4 * bytes, 4 * share});
        out.push_back({computeS - std::min(computeS, gemms)});
    } else if (c.sequenceParallel) {
        for (int half = 0; half < 2; ++half) {
            out.push_back({0, bytes, share});
            out.push_back({computeS / 2});
            out.push_back({0, bytes, share});
        }
    } else {
        for (int half = 0; half < 2; ++half) {
            out.push_back({computeS / 2});
            out.push_back({0, 2 * bytes, 2 * share});
        }
    }
}

} // namespace cs
