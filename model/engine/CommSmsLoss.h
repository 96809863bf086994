#pragma once
// What the SMs communication kernels hold cost the compute of a layer pass beside them
// (TrainingEfficiency.h: the SM counts and their sources).
#include "TrainingSpecs.h"

namespace cs {

// What runs beside one layer's forward and backward (recomputation included).
struct LayerPassBeside {
    double forwardS = 0, backwardS = 0; // the pass's compute
    double gemmS = 0;                   // the GEMMs TP's collectives run beside
    double tpCommS = 0;                 // a pass's four TP collectives (0: no TP)
    bool tpUserbuffers = false;         // Transformer Engine's TP overlap, else NCCL's
    Precision precision = Precision::Bf16;
    double recomputeShare = 0;           // of the layers, those whose forward is rerun with its TP
    double dpGatherS = 0, dpReduceS = 0; // overlapped DP collectives, per layer pass
    bool weightsSharded = false;         // ZeRO 3: gathers before the backward too
};

struct CommSmsLoss {
    double forwardS = 0, backwardS = 0; // added to each layer's forward and backward
};

// TP's collectives share the GEMMs' phase: the slowed GEMMs cost only where they outlast
// them. DP's run on streams of their own: the slowed compute costs in full.
CommSmsLoss commSmsLoss(const LayerPassBeside& x, double sms);

// An overlapped expert all-to-all of `allToAllS` beside `computeS`, the dispatcher holding
// `heldSms`: what the pass grows by. `reserved`: the SMs stay the communication's for the
// whole compute (DeepSeek-V3's 20 in DualPipe's pairs, its report 3.2.2), not only while the
// all-to-all runs.
double expertAllToAllSmsS(double computeS, double allToAllS, double heldSms, double sms,
                          bool reserved);

} // namespace cs
