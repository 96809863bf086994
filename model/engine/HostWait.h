#pragma once
// The GPU's wait for a host that issues a MoE layer's kernels eagerly: where the host's time
// to issue a layer's forward and backward is longer than the GPU's work on them, a phase of
// its own at the end of each pass (docs/reference/microbenchmarks.md, "Host time of a
// MoE layer").
#include "StepSchedule.h"
#include "TrainingSpecs.h"

#include <utility>
#include <vector>

namespace cs {

struct HostIssue {
    double hostS = 0;         // the host's time for a forward and a backward
    double forwardShare = 0;  // of it, the forward's (as the layer's compute divides)
    double forwardExtraS = 0; // GPU time a pass spends besides its phases (TP as estimated)
    double backwardExtraS = 0;
    // Issued as one unit (the all-to-all overlapped, DualPipe's pairs): the pair waits for
    // what the whole host time leaves over both passes' work, split as their work.
    bool asOne = false;
};

// The host's time to issue a MoE layer's forward and backward as the run issues it: the
// option's figure, else the measured one for eager or scoped-graph issue; 0 with full graphs.
double moeLayerHostSeconds(const ParallelConfig& c);

// Appends each pass's wait (none where the GPU's work outlasts the host) and returns the
// forward's and the backward's.
std::pair<double, double> appendHostWait(std::vector<LayerPhase>& forward,
                                         std::vector<LayerPhase>& backward, const HostIssue& h);

} // namespace cs
