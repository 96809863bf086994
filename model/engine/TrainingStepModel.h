#pragma once
// One training step of a GPT-style decoder on a cluster: compute from FLOPs, pipeline
// bubbles of the interleaved schedule, TP collectives on NVLink, CP all-gathers, PP sends,
// MoE all-to-alls and FSDP all-gather / reduce-scatter as flows over the routed fabric, memory
// per GPU.
#include "FabricShare.h"
#include "InputError.h"
#include "StepBreakdown.h"
#include "StepSchedule.h"
#include "TopologyIndex.h"
#include "TrainingConfig.h"

#include <memory>
#include <vector>

namespace cs {

// One layer's pass, as the kernel model splits it: compute, then the TP and CP time that
// stays exposed.
struct LayerPassSplit {
    double computeS = 0, tpS = 0, cpS = 0;
    double totalS() const { return computeS + tpS + cpS; }
};

struct StepEstimate {
    double stepS = 0;
    double microBatches = 0;
    int layersOnBusiestStage = 0;
    // Per micro-batch on the busiest stage.
    double computePerMicroS = 0, tpPerMicroS = 0, cpPerMicroS = 0;
    // Per step. pipelineS: to the last backward; dpAllGatherS, dpReduceScatterS: the busiest
    // stage's DP streams.
    double pipelineS = 0, dpAllGatherS = 0, dpReduceScatterS = 0, optimizerS = 0;
    // Where the step's time goes, measured from the schedule's timeline (StepBreakdown.h).
    StepBreakdown breakdown;
    double modelFlopsPerStep = 0, tflopsPerGpu = 0, mfu = 0, tokensPerS = 0;
    double bubbleFraction = 0; // the slowest stage's bubble, of the step
    MemoryEstimate memory;
    std::vector<double> linkBytesPerStep; // per link direction: 2 l (a to b), 2 l + 1 (b to a)
    std::vector<int32_t> gpuOfRank;
    LayerPassSplit forwardLayer, backwardLayer;   // backward: recomputation in its compute
    double headForwardS = 0, headBackwardS = 0;   // the output layer, on the last chunk
    std::vector<std::vector<int>> layersPerChunk; // [stage][chunk]
    double tpBytesForwardLayer = 0, tpBytesBackwardLayer = 0, cpBytesLayer = 0; // per GPU sent
    // MoE: one expert all-to-all (dispatch or combine) alone, the bytes one GPU sends in it to
    // its `epPeers` peers, whether it crosses the fabric, and what a layer's forward and
    // backward leave exposed of their two.
    double epAllToAllS = 0, epBytesPerAllToAll = 0, epForwardLayerS = 0, epBackwardLayerS = 0;
    int epPeers = 0;
    int epHosts = 0; // the NVLink domains an EP group spans (the most of any)
    // The host's time to issue a MoE layer's forward and backward (0: graphs replay them, or no
    // MoE), and what of it the GPU waits beyond its own work, per layer and micro-batch.
    double moeLayerHostS = 0, hostBoundForwardLayerS = 0, hostBoundBackwardLayerS = 0;
    EpDispatcher epDispatcher = EpDispatcher::AllToAll; // resolved from auto
    bool epCrossesFabric = false;
    double ppTransferS = 0;                      // one send between stages, on average
    long long fabricSolves = 0, loadsSolved = 0; // max-min solves of the step, link loads in them
    // Link directions the step's transfers load, and those its solves ran over (the others
    // can never be a bottleneck).
    size_t linksLoaded = 0, linksSolved = 0;
    bool dpTree = false;    // ZeRO 0's gradient all-reduce ran as NCCL's double binary tree
    bool dpPat = false;     // ZeRO 1-3's all-gathers and reduce-scatters ran as NCCL's PAT
    int dpBucketLayers = 1; // ZeRO 0-2: layers per DP collective
    // Compute time of the job's slowest GPU over the mean GPU's (stragglers in lock-step).
    double stragglerSlowdown = 1;
    // In-host TP: the fraction of NVLink's large-message bus bandwidth its collectives reach.
    double tpSizeFraction = 1;
    // Per step on the busiest stage: the compute time lost to SMs held by communication
    // kernels running beside it (TrainingEfficiency.h), and the time the GPU family's
    // in-training fraction (the loss no modelled mechanism explains; KernelModel.h) adds to
    // the layers' kernels.
    double commSmsLossS = 0, unexplainedComputeS = 0, inTrainingFraction = 1;
    // Of the full clock, the tensor cores' under the run's power limit (gpuPowerLimitW).
    double gpuClockFraction = 1;
    // Of commSmsLossS, per layer pass: a phase of compute after the layer's own.
    double commSmsForwardLayerS = 0, commSmsBackwardLayerS = 0;
    // The step as events (per stage: passes, DP gathers and reductions, and its sends)
    // and the bytes each link direction carries for one stage's DP collectives and for one
    // boundary's sends over the step: the replay's time-resolved traffic.
    std::shared_ptr<const ScheduleResult> schedule;
    // CP traffic per stage runs inside its passes (K and V around the CP ring, per layer).
    // ppLinkBytes per send class: boundary b forward at b, backward at boundaries + b.
    // tpLinkBytes per stage, only when TP rings cross the fabric (a placement that spreads
    // a TP group over hosts).
    std::vector<std::vector<float>> dpLinkBytes, ppLinkBytes, cpLinkBytes, tpLinkBytes;
    // epLinkBytes per stage: its MoE layers' all-to-alls over the step (empty without EP).
    std::vector<std::vector<float>> epLinkBytes;
};

// `solver`: how transfers share the fabric (the baselines for benchmarks: solved per link, or
// never slowing each other). `capacityLeft`: per link direction, the fraction of its capacity
// left to this job by the others on the fabric (SharedFabric.h); empty: the fabric is its own.
StepEstimate estimateStep(const Topology& t, const TopologyIndex& ix, const ModelSpec& m,
                          const GpuSpec& g, const ParallelConfig& c,
                          ShareSolver solver = ShareSolver::BindingLinks,
                          std::vector<double> capacityLeft = {});
// What a job's step is made of, kept for a joint simulation with other jobs on the same fabric
// (JointSchedule.h): its schedule, the fabric it routes on and the classes it loads there.
struct StepProgram {
    ScheduleInput input; // share: `mapped`, which answers which classes stay on NVLink
    std::shared_ptr<FabricRouter> router;
    std::shared_ptr<FabricShare> share;
    std::vector<int> shareId; // schedule class -> the share's class that runs it
    std::unique_ptr<MappedShare> mapped;
};
// The same step, also keeping its program (on the whole fabric: no capacity left to others).
StepEstimate estimateStep(const Topology& t, const TopologyIndex& ix, const ModelSpec& m,
                          const GpuSpec& g, const ParallelConfig& c,
                          std::shared_ptr<const StepProgram>& program);

} // namespace cs
