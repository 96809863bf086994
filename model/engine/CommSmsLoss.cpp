#include "CommSmsLoss.h"

#include "TrainingEfficiency.h"

#include <algorithm>

namespace cs {

CommSmsLoss commSmsLoss(const LayerPassBeside& x, double sms) {
    using namespace efficiency;
    CommSmsLoss out;
    if (x.tpCommS > 0) {
        if (x.tpUserbuffers) {
            const double forwardSms = x.precision == Precision::Bf16 ? kUserbufferForwardSmsBf16
                                                                     : kUserbufferForwardSmsFp8;
            const double forwardS = smsHeldExtraS(x.gemmS, x.tpCommS, forwardSms, sms);
            out.forwardS += forwardS;
            out.backwardS += x.recomputeShare * forwardS +
                             smsHeldExtraS(x.gemmS, x.tpCommS, kUserbufferBackwardSms, sms);
        } else {
            out.backwardS += smsHeldExtraS(x.gemmS, x.tpCommS, kNcclCollectiveSms, sms);
        }
    }
    // Sharded weights gather again before each backward; replicated ones only ahead of the
    // forwards.
    const double backwardBesideS = x.weightsSharded ? x.dpGatherS + x.dpReduceS : x.dpReduceS;
    out.forwardS += smsHeldCostS(x.forwardS, x.dpGatherS, kNcclCollectiveSms, sms);
    out.backwardS += smsHeldCostS(x.backwardS, backwardBesideS, kNcclCollectiveSms, sms);
    return out;
}

double expertAllToAllSmsS(double computeS, double allToAllS, double heldSms, double sms,
                          bool reserved) {
    if (!reserved) return efficiency::smsHeldExtraS(computeS, allToAllS, heldSms, sms);
    // The compute runs on the other SMs throughout: the pass lasts the longer of that and the
    // all-to-all.
    if (!(heldSms < sms)) return 0;
    return std::max(0.0, computeS * sms / (sms - heldSms) - std::max(computeS, allToAllS));
}

} // namespace cs
