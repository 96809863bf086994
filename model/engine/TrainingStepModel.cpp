#include "TrainingStepModel.h"

#include "CollectiveTimer.h"
#include "FabricShare.h"
#include "KernelModel.h"
#include "RankPlacement.h"
#include "StepSchedule.h"
#include "TrainingEfficiency.h"

#include <cmath>
#include <cstdio>

namespace cs {
namespace {

constexpr double kGiB = 1024.0 * 1024 * 1024;

[[noreturn]] void reject(const char* field, const std::string& message) {
    throw InputException({{}, 0, 0, field, message});
}

std::string fmt(double v, int decimals = 1) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

// Whether the first and last stages hold one fewer layer (Llama 3, 3.3.2: it balances
// memory); used when the layers split that way, else they split evenly.
bool unevenStages(const ModelSpec& m, const ParallelConfig& c) {
    return c.pp > 1 && (m.layers + 2) % (c.pp * c.virtualStages) == 0;
}

int layersOfStage(const ModelSpec& m, const ParallelConfig& c, int s) {
    if (!unevenStages(m, c)) return m.layers / c.pp;
    const int middle = (m.layers + 2) / c.pp;
    return (s == 0 || s == c.pp - 1) ? middle - 1 : middle;
}

// Layers of one chunk (virtual stage) of a stage: the first chunk of the first stage holds
// the embedding in place of a layer, the last chunk of the last stage the head.
int layersOfChunk(const ModelSpec& m, const ParallelConfig& c, int stage, int chunk) {
    if (!unevenStages(m, c)) return m.layers / (c.pp * c.virtualStages);
    const int slot = (m.layers + 2) / (c.pp * c.virtualStages);
    const bool first = stage == 0 && chunk == 0;
    const bool last = stage == c.pp - 1 && chunk == c.virtualStages - 1;
    return slot - (first ? 1 : 0) - (last ? 1 : 0);
}

// Forward FLOPs per token of one layer: the GEMMs (2 per weight) and causal attention
// scores (QK^T and AV over S/2 positions on average).
double linearFlopsPerTokenLayer(const ModelSpec& m) {
    return 2.0 * m.parametersPerLayer();
}
double attentionFlopsPerTokenLayer(const ModelSpec& m, int seqLen) {
    return 2.0 * 2.0 * (seqLen / 2.0) * m.modelDim;
}

// A ring over a group's members: each sends to the next (none for a group of one).
void addRingEdges(const std::vector<int32_t>& group, std::vector<Edge>& out) {
    if (group.size() < 2) return;
    for (size_t k = 0; k < group.size(); ++k)
        out.push_back({group[k], group[(k + 1) % group.size()]});
}

// NCCL's double binary tree over a group's members: two heap-ordered binary trees, the second
// over the members in reverse order, so that each member is interior in at most one. Each tree
// carries half the data, up (reduce) and down (broadcast) at once: both directions of every
// tree edge.
void addTreeEdges(const std::vector<int32_t>& group, std::vector<Edge>& out) {
    const size_t n = group.size();
    for (int tree = 0; tree < 2; ++tree)
        for (size_t i = 1; i < n; ++i) {
            const size_t parent = (i - 1) / 2;
            const int32_t a = group[tree ? n - 1 - i : i];
            const int32_t b = group[tree ? n - 1 - parent : parent];
            out.push_back({a, b});
            out.push_back({b, a});
        }
}

} // namespace

double modelFlopsPerStep(const ModelSpec& m, const ParallelConfig& c) {
    const double forwardPerToken =
        m.layers * (linearFlopsPerTokenLayer(m) + attentionFlopsPerTokenLayer(m, c.seqLen)) +
        2.0 * m.modelDim * m.vocab;
    return 3.0 * forwardPerToken * c.tokensPerStep(); // backward = 2 x forward
}

MemoryEstimate estimateMemory(const ModelSpec& m, const ParallelConfig& c) {
    MemoryEstimate e;
    const double paramsPerRank = m.parameters() / (double(c.tp) * c.pp);
    const double shards = double(c.dp) * c.cp; // CP ranks hold the same weights
    // Mixed precision with Adam: bf16 weights (2 bytes), fp32 gradients (4), fp32 master and
    // two moments (12). ZeRO 1 shards the optimizer, 2 also the gradients, 3 also the weights
    // (plus the layer being gathered).
    const double layerParams = m.parametersPerLayer() / c.tp;
    e.weightsGiB =
        (c.zeroStage >= 3 ? paramsPerRank / shards + 2 * layerParams : paramsPerRank) * 2 / kGiB;
    e.gradientsGiB = paramsPerRank * 4 / (c.zeroStage >= 2 ? shards : 1) / kGiB;
    e.optimizerGiB = paramsPerRank * 12 / (c.zeroStage >= 1 ? shards : 1) / kGiB;
    // Activations per layer and micro-batch (Korthikanti et al.): s b h (34 + 5 a s / h) bytes
    // unsharded; tensor + sequence parallelism divide all of it by t, tensor parallelism alone
    // leaves 10 s b h replicated; fused attention never stores the s x s scores (the 5 a s / h
    // term), nor does selective recomputation; full recomputation keeps the layer input only.
    const double sbh = double(c.seqLen) * c.microBatchSeqs / c.cp * m.modelDim;
    const double scores = (c.fusedAttention || c.recompute != Recompute::None)
                              ? 0
                              : 5.0 * m.heads * double(c.seqLen) / m.modelDim / c.tp;
    const double perLayerMicro =
        c.recompute == Recompute::Full
            ? 2 * sbh / (c.sequenceParallel ? c.tp : 1)
            : sbh * ((c.sequenceParallel
                          ? efficiency::kActivationBytesPerTokenDim / c.tp
                          : 10 + (efficiency::kActivationBytesPerTokenDim - 10) / c.tp) +
                     scores);
    // Full recomputation rebuilds one layer's activations at a time during backward.
    const double working =
        c.recompute == Recompute::Full ? sbh * efficiency::kActivationBytesPerTokenDim / c.tp : 0;
    double worst = 0;
    for (int s = 0; s < c.pp; ++s) // 1F1B: stage s holds up to pp - s micro-batches in flight
        worst = std::max(worst, double(c.pp - s) * layersOfStage(m, c, s) * perLayerMicro);
    e.activationsGiB = (worst + working) / kGiB;
    return e;
}

void checkTrainingConfig(const ModelSpec& m, const GpuSpec& g, const ParallelConfig& c) {
    for (auto [field, v] : {std::pair{"parallel.tp", c.tp},
                            {"parallel.cp", c.cp},
                            {"parallel.pp", c.pp},
                            {"parallel.dp", c.dp}})
        if (v < 1 || v > 1'000'000)
            reject(field, "expected a positive integer, got " + std::to_string(v));
    if (m.heads % c.tp != 0 || m.kvHeads % c.tp != 0)
        reject("parallel.tp", "TP must divide the attention heads (" + std::to_string(m.heads) +
                                  ") and KV heads (" + std::to_string(m.kvHeads) + ") of " +
                                  m.name);
    if (c.seqLen < 2 * c.cp || c.seqLen % (2 * c.cp) != 0)
        reject("parallel.seq",
               "CP splits the sequence into 2 x CP chunks: " + std::to_string(c.seqLen) +
                   " is not divisible by " + std::to_string(2 * c.cp));
    if (c.virtualStages < 1 || (c.pp == 1 && c.virtualStages != 1))
        reject("parallel.virtualStages",
               "expected 1 without pipeline parallelism, at least 1 with it");
    if (!unevenStages(m, c) && m.layers % (c.pp * c.virtualStages) != 0)
        reject("parallel.pp",
               std::to_string(m.layers) + " layers do not split into " + std::to_string(c.pp) +
                   " stages x " + std::to_string(c.virtualStages) +
                   " virtual stages; choose PP x V dividing " + std::to_string(m.layers) + " (or " +
                   std::to_string(m.layers + 2) +
                   ", with one layer fewer on the first and last stage)");
    const double micro = c.microBatches();
    if (micro < 1 || std::fabs(micro - std::round(micro)) > 1e-9)
        reject("parallel.batchTokens",
               "batch tokens / (seq x DP x micro-batch) must be a whole number "
               "of micro-batches, got " +
                   fmt(micro, 3));
    if (c.virtualStages > 1 && std::llround(micro) % c.pp != 0)
        reject("parallel.virtualStages",
               "the interleaved schedule needs micro-batches in multiples of PP (" +
                   std::to_string(c.pp) + "), got " + fmt(micro, 0) +
                   "; change the batch or use one virtual stage");
    if (c.pp > 1 && micro < c.pp)
        reject("parallel.batchTokens", "the pipeline needs at least PP = " + std::to_string(c.pp) +
                                           " micro-batches per step, got " + fmt(micro, 0));
    const MemoryEstimate mem = estimateMemory(m, c);
    if (mem.totalGiB() > g.hbmGiB)
        reject("parallel.pp", "does not fit in " + fmt(g.hbmGiB) + " GiB of HBM: needs about " +
                                  fmt(mem.totalGiB()) + " GiB per GPU (weights " +
                                  fmt(mem.weightsGiB) + ", gradients " + fmt(mem.gradientsGiB) +
                                  ", optimizer " + fmt(mem.optimizerGiB) + ", activations " +
                                  fmt(mem.activationsGiB) +
                                  "); raise TP, PP or CP, or shorten the sequence");
}

StepEstimate estimateStep(const Topology& t, const TopologyIndex& ix, const ModelSpec& m,
                          const GpuSpec& g, const ParallelConfig& c, bool contention) {
    checkTrainingConfig(m, g, c);
    StepEstimate e;
    e.gpuOfRank = placeRanks(t, ix, c);
    e.memory = estimateMemory(m, c);
    e.linkBytesPerStep.assign(2 * t.links.size(), 0.0); // per direction
    e.microBatches = c.microBatches();
    const double M = e.microBatches, V = c.virtualStages;

    // Compute on the busiest stage, per micro-batch: the kernel model's layer times.
    const double tokensPerMicro = double(c.seqLen) * c.microBatchSeqs / c.cp;
    const LayerTimes layer = layerTimes(m, g, c, tokensPerMicro);
    const double headS = headSeconds(m, g, c, tokensPerMicro);
    const int middle = layersOfStage(m, c, c.pp > 2 ? 1 : 0), last = layersOfStage(m, c, c.pp - 1);
    e.layersOnBusiestStage = middle;
    const double perLayerS = layer.forwardS + layer.backwardS + layer.recomputeS;
    e.computePerMicroS = std::max(middle * perLayerS, last * perLayerS + headS);
    const int busiestLayers = middle * perLayerS >= last * perLayerS + headS ? middle : last;

    // Groups of ranks, as GPUs.
    auto gpu = [&](int tt, int cc, int p, int d) {
        return e.gpuOfRank[size_t(rankOf(c, {tt, cc, p, d}))];
    };
    std::vector<std::vector<int32_t>> tpGroups, cpGroups, dpGroups;
    std::vector<Edge> ppEdges;
    std::vector<int32_t> ppBoundaryOfEdge, stageOfDpGroup, stageOfCpGroup;
    for (int d = 0; d < c.dp; ++d)
        for (int p = 0; p < c.pp; ++p)
            for (int cc = 0; cc < c.cp; ++cc) {
                std::vector<int32_t> tg;
                for (int tt = 0; tt < c.tp; ++tt)
                    tg.push_back(gpu(tt, cc, p, d));
                tpGroups.push_back(std::move(tg));
                if (p + 1 < c.pp)
                    for (int tt = 0; tt < c.tp; ++tt) {
                        ppEdges.push_back({gpu(tt, cc, p, d), gpu(tt, cc, p + 1, d)});
                        ppBoundaryOfEdge.push_back(p);
                    }
            }
    for (int d = 0; d < c.dp; ++d)
        for (int p = 0; p < c.pp; ++p)
            for (int tt = 0; tt < c.tp; ++tt) {
                std::vector<int32_t> cg;
                for (int cc = 0; cc < c.cp; ++cc)
                    cg.push_back(gpu(tt, cc, p, d));
                cpGroups.push_back(std::move(cg));
                stageOfCpGroup.push_back(p);
            }
    for (int p = 0; p < c.pp; ++p)
        for (int tt = 0; tt < c.tp; ++tt) {
            std::vector<int32_t> dg; // CP ranks hold the same weights: they join the DP collectives
            for (int d = 0; d < c.dp; ++d)
                for (int cc = 0; cc < c.cp; ++cc)
                    dg.push_back(gpu(tt, cc, p, d));
            dpGroups.push_back(std::move(dg));
            stageOfDpGroup.push_back(p);
        }

    FabricRouter router(t, ix);
    CollectiveTimer timer(t, router, g, c.flowsPerPair);
    const double layerMicros =
        double(busiestLayers) * M; // layer passes per step on the busiest stage
    std::vector<double>* bytes = &e.linkBytesPerStep;
    // TP: per layer 2 all-reduces forward and 2 backward of the micro-batch's activations
    // (bf16) - with sequence parallelism each an all-gather + a reduce-scatter of the same
    // volume: 8 ring passes either way; full recomputation repeats the forward's 4.
    const double tpShard = tokensPerMicro * m.modelDim * 2 / c.tp;
    const double tpPassBytes = (c.tp - 1) * tpShard; // per ring edge
    const bool fullRecompute = c.recompute == Recompute::Full;
    // Ring passes per layer: forward 4, recomputed forward 4 more, backward 4, and with
    // sequence parallelism 2 more (the column-parallel GEMMs' inputs gathered again).
    const double tpPasses = 8 + (fullRecompute ? 4 : 0) + (c.sequenceParallel ? 2 : 0);
    // CP: all-gather of K and V forward, reduce-scatter of their gradients backward.
    const double cpShard = tokensPerMicro * 2 * (m.kvDim() / c.tp) * 2;
    if (c.cp > 1) e.cpLinkBytes.assign(size_t(c.pp), std::vector<float>(2 * t.links.size(), 0.f));
    const double cpStepS = c.cp > 1 ? timer
                                          .rings(cpGroups, {cpShard * 2 * layerMicros}, bytes,
                                                 &stageOfCpGroup, &e.cpLinkBytes)
                                          .front()
                                    : 0;
    e.cpPerMicroS = cpStepS / M;
    // PP: activations forward and gradients backward at each stage boundary, V times per
    // micro-batch (the last stage feeds the first stage's next chunk).
    const double ppBytes = tokensPerMicro * m.modelDim * 2 / c.tp;
    // DP over DP x CP ranks. ZeRO 0: all-reduce of bf16 gradients. ZeRO 1 and 2: reduce-scatter
    // of fp32 gradients [paper] and all-gather of the updated bf16 weights. ZeRO 3: the weights
    // are gathered again per layer before forward and before backward. A ring moves
    // (members - 1) shards over each edge per collective.
    const double paramsPerRank = m.parameters() / (double(c.tp) * c.pp);
    const double members = double(c.dp) * c.cp;
    const double ringSteps = members - 1;
    double gatherBytes = 0, reduceBytes = 0, dpCollectives = 1;
    if (members > 1) {
        if (c.zeroStage == 0) {
            reduceBytes = 2 * ringSteps * paramsPerRank * 2 / members; // reduce-scatter + gather
            dpCollectives = 2;
        } else {
            gatherBytes = (c.zeroStage >= 3 ? 2 : 1) * ringSteps * paramsPerRank * 2 / members;
            reduceBytes = ringSteps * paramsPerRank * 4 / members;
        }
    }

    // The step's transfer classes on the fabric, in the schedule's numbering.
    const ScheduleClasses classes = ScheduleClasses::of(c.pp, c.virtualStages);
    FabricShare share(t, router, g, contention);
    std::vector<std::vector<Edge>> dpEdges(size_t(c.pp));
    for (size_t i = 0; i < dpGroups.size(); ++i)
        addRingEdges(dpGroups[i], dpEdges[size_t(stageOfDpGroup[i])]);
    std::vector<std::vector<Edge>> sendEdges(size_t(classes.boundaries));
    for (size_t i = 0; i < ppEdges.size(); ++i)
        sendEdges[size_t(ppBoundaryOfEdge[i])].push_back(ppEdges[i]);
    if (classes.boundaries == c.pp) // the wrap from the last stage to the first
        for (int d = 0; d < c.dp; ++d)
            for (int cc = 0; cc < c.cp; ++cc)
                for (int tt = 0; tt < c.tp; ++tt)
                    sendEdges.back().push_back({gpu(tt, cc, c.pp - 1, d), gpu(tt, cc, 0, d)});
    for (int st = 0; st < c.pp; ++st)
        share.addClass(dpEdges[size_t(st)], c.flowsPerPair);
    for (int st = 0; st < c.pp; ++st)
        share.addClass(dpEdges[size_t(st)], c.flowsPerPair);
    auto reversed = [](std::vector<Edge> edges) {
        for (Edge& x : edges)
            std::swap(x.src, x.dst);
        return edges;
    };
    // Queue pairs per connection are a setting of the collective library's transport, so
    // pipeline sends open as many flows as the collectives do.
    for (const auto& edges : sendEdges)
        share.addClass(edges, c.flowsPerPair);
    for (const auto& edges : sendEdges)
        share.addClass(reversed(edges), c.flowsPerPair);
    // TP: each stage's rings, inside hosts on NVLink where the placement keeps them there.
    std::vector<std::vector<Edge>> tpEdges(size_t(c.pp));
    for (size_t i = 0; i < tpGroups.size(); ++i) // groups in (d, p, cp) order
        addRingEdges(tpGroups[i], tpEdges[size_t(int(i / size_t(c.cp)) % c.pp)]);
    for (int st = 0; st < c.pp; ++st)
        share.addClass(tpEdges[size_t(st)], c.flowsPerPair);
    // One TP ring pass alone, and what it exposes per layer: the forward's 4 passes (and full
    // recomputation's), unless TP overlap hides them under the GEMMs; the backward's 4 run
    // beside the weight-gradient GEMMs (as Megatron-LM's asynchronous TP all-reduce does),
    // exposed only where they last longer; sequence parallelism's 2 re-gathers are exposed,
    // as the published layer times show. The event engine runs them as collectives of their
    // own; these estimates only report the split.
    const double tpLatencyS =
        (c.tp - 1) * (share.crossesFabric(classes.tp(0)) ? efficiency::kFabricStepLatencyS
                                                         : efficiency::kNvlinkStepLatencyS);
    const double pass = c.tp > 1 ? tpPassBytes / share.soloRate(classes.tp(0)) : 0;
    // ZeRO 0's gradient all-reduce: a ring, or NCCL's double binary tree (half the data over
    // each tree edge, 2 log2(n) step latencies instead of 2 (n - 1)); auto takes the one a
    // layer's bucket finishes sooner with, alone on the fabric.
    std::vector<int> shareId(size_t(classes.count()));
    for (int k = 0; k < classes.count(); ++k)
        shareId[size_t(k)] = k;
    const double stepLatencyS = share.crossesFabric(classes.reduce(0))
                                    ? efficiency::kFabricStepLatencyS
                                    : efficiency::kNvlinkStepLatencyS;
    double dpLatencyS = dpCollectives * ringSteps * stepLatencyS;
    if (c.zeroStage == 0 && members > 2 && c.allReduce != AllReduceAlgorithm::Ring) {
        std::vector<std::vector<Edge>> treeEdges(size_t(c.pp));
        for (size_t i = 0; i < dpGroups.size(); ++i)
            addTreeEdges(dpGroups[i], treeEdges[size_t(stageOfDpGroup[i])]);
        std::vector<int> treeId;
        for (const auto& edges : treeEdges)
            treeId.push_back(share.addClass(edges, c.flowsPerPair));
        const double treeBytes = paramsPerRank * 2 / 2; // per edge: half the gradients
        const double treeLatencyS = 2 * std::ceil(std::log2(members)) * stepLatencyS;
        const double buckets = std::max(1, layersOfStage(m, c, 0));
        const double ringS = reduceBytes / buckets / share.soloRate(classes.reduce(0)) + dpLatencyS;
        const double treeS = treeBytes / buckets / share.soloRate(treeId.front()) + treeLatencyS;
        e.dpTree = c.allReduce == AllReduceAlgorithm::Tree || treeS < ringS;
        if (e.dpTree) {
            for (int st = 0; st < c.pp; ++st)
                shareId[size_t(classes.reduce(st))] = treeId[size_t(st)];
            reduceBytes = treeBytes;
            dpLatencyS = treeLatencyS;
        }
    }
    MappedShare scheduleShare(share, shareId);
    const double tpForwardS = c.overlap.tpComm ? std::max(0.0, 4 * pass - layer.gemmS) : 4 * pass;
    const double tpBackwardS = (fullRecompute ? tpForwardS : 0) +
                               std::max(0.0, 4 * pass - layer.gemmS) +
                               (c.sequenceParallel ? 2 * pass : 0);
    e.tpPerMicroS = busiestLayers * (tpForwardS + tpBackwardS);

    // The bytes each link direction carries over the step, per stage and per boundary.
    e.dpLinkBytes.assign(size_t(c.pp), std::vector<float>(2 * t.links.size(), 0.f));
    for (int st = 0; st < c.pp; ++st) {
        share.addLinkBytes(classes.gather(st), gatherBytes, bytes, &e.dpLinkBytes[size_t(st)]);
        share.addLinkBytes(shareId[size_t(classes.reduce(st))], reduceBytes, bytes,
                           &e.dpLinkBytes[size_t(st)]);
    }
    e.ppLinkBytes.assign(size_t(2 * classes.boundaries),
                         std::vector<float>(2 * t.links.size(), 0.f));
    for (int b = 0; b < classes.boundaries; ++b) {
        const double sends = (b < c.pp - 1 ? V : V - 1) * M; // each way
        share.addLinkBytes(classes.sendForward(b), ppBytes * sends, bytes,
                           &e.ppLinkBytes[size_t(b)]);
        share.addLinkBytes(classes.sendBackward(b), ppBytes * sends, bytes,
                           &e.ppLinkBytes[size_t(classes.boundaries + b)]);
    }
    // TP over the step: its passes for every layer and micro-batch of the stage.
    const bool tpOnFabric = share.crossesFabric(classes.tp(0));
    if (tpOnFabric) e.tpLinkBytes.assign(size_t(c.pp), std::vector<float>(2 * t.links.size(), 0.f));
    for (int st = 0; st < c.pp; ++st)
        share.addLinkBytes(classes.tp(st), tpPasses * tpPassBytes * layersOfStage(m, c, st) * M,
                           bytes, tpOnFabric ? &e.tpLinkBytes[size_t(st)] : nullptr);
    const bool ppOnFabric = classes.boundaries > 0 && share.crossesFabric(classes.sendForward(0));

    const double optimizerParams = c.zeroStage >= 1 ? paramsPerRank / members : paramsPerRank;
    e.optimizerS = optimizerParams * efficiency::kOptimizerBytesPerParam /
                   (g.hbmGBps * 1e9 * efficiency::kOptimizerHbmFraction);

    // The step as events: each stage's passes in 1F1B order, each layer of a pass as its
    // phases of compute, TP collectives and CP time (the head on the last chunk).
    ScheduleInput in;
    in.stages = c.pp;
    in.chunks = int(V);
    in.microBatches = int(std::llround(M));
    const double cpPerLayer = layerMicros > 0 ? cpStepS / layerMicros : 0;
    // A forward (or a fully recomputed one) of `computeS`: with sequence parallelism an
    // all-gather before and a reduce-scatter after attention and the MLP, else an all-reduce
    // after each; with TP overlap all of them beside the GEMMs.
    const bool tpRuns = c.tp > 1;
    auto forwardPhases = [&](double computeS, std::vector<LayerPhase>& out) {
        if (!tpRuns) {
            out.push_back({computeS});
        } else if (c.overlap.tpComm) {
            out.push_back(
                {std::min(computeS, layer.gemmS), 4 * tpPassBytes, c.sequenceParallel ? 4 : 2});
            out.push_back({computeS - std::min(computeS, layer.gemmS)});
        } else if (c.sequenceParallel) {
            for (int half = 0; half < 2; ++half) {
                out.push_back({0, tpPassBytes, 1});
                out.push_back({computeS / 2});
                out.push_back({0, tpPassBytes, 1});
            }
        } else {
            for (int half = 0; half < 2; ++half) {
                out.push_back({computeS / 2});
                out.push_back({0, 2 * tpPassBytes, 1});
            }
        }
    };
    if (c.cp > 1) in.forwardLayer.push_back({cpPerLayer / 2, 0, 0, true});
    forwardPhases(layer.forwardS, in.forwardLayer);
    if (c.cp > 1) in.backwardLayer.push_back({cpPerLayer / 2, 0, 0, true});
    if (fullRecompute)
        forwardPhases(layer.recomputeS, in.backwardLayer);
    else if (layer.recomputeS > 0)
        in.backwardLayer.push_back({layer.recomputeS});
    // Backward: its TP collectives beside the weight-gradient GEMMs, then the rest of its
    // compute, then sequence parallelism's two re-gathers.
    if (tpRuns) {
        in.backwardLayer.push_back({layer.gemmS, 4 * tpPassBytes, c.sequenceParallel ? 4 : 2});
        in.backwardLayer.push_back({layer.backwardS - layer.gemmS});
        if (c.sequenceParallel) in.backwardLayer.push_back({0, 2 * tpPassBytes, 2});
    } else {
        in.backwardLayer.push_back({layer.backwardS});
    }
    in.tpLatencyS = tpLatencyS;
    e.forwardLayer = {layer.forwardS, tpForwardS, cpPerLayer / 2};
    // What one GPU sends per layer and micro-batch: a ring pass moves (n - 1) shards.
    e.tpBytesForwardLayer = 4 * tpPassBytes;
    e.tpBytesBackwardLayer = (tpPasses - 4) * tpPassBytes;
    e.cpBytesLayer = (c.cp - 1) * cpShard;
    for (int st = 0; st < c.pp; ++st) {
        e.layersPerChunk.push_back({});
        for (int ch = 0; ch < int(V); ++ch)
            e.layersPerChunk.back().push_back(layersOfChunk(m, c, st, ch));
    }
    e.backwardLayer = {layer.backwardS + layer.recomputeS, tpBackwardS, cpPerLayer / 2};
    e.headForwardS = headS / 3;
    e.headBackwardS = headS * 2 / 3;
    for (int st = 0; st < c.pp; ++st) {
        std::vector<double> fwd(static_cast<size_t>(V)), bwd(static_cast<size_t>(V));
        for (int ch = 0; ch < int(V); ++ch) {
            const bool head = st == c.pp - 1 && ch == int(V) - 1;
            fwd[size_t(ch)] = head ? e.headForwardS : 0; // beside the layers' phases
            bwd[size_t(ch)] = head ? e.headBackwardS : 0;
        }
        in.forwardS.push_back(fwd);
        in.backwardS.push_back(bwd);
        in.layersPerChunk.push_back({});
        for (int ch = 0; ch < int(V); ++ch)
            in.layersPerChunk.back().push_back(layersOfChunk(m, c, st, ch));
    }
    in.gatherBytes.assign(size_t(c.pp), gatherBytes);
    in.reduceBytes.assign(size_t(c.pp), reduceBytes);
    in.sendBytes = classes.boundaries > 0 ? ppBytes : 0;
    // Per collective: its ring's step latencies; per send: one hop.
    in.dpLatencyS = dpLatencyS;
    in.sendLatencyS =
        ppOnFabric ? efficiency::kFabricStepLatencyS : efficiency::kNvlinkStepLatencyS;
    in.overlapGather = c.overlap.dpParamGather;
    in.overlapReduce = c.overlap.dpGradReduce;
    in.overlapSend = c.overlap.ppComm;
    in.optimizerS = e.optimizerS;
    in.share = &scheduleShare;
    auto schedule = std::make_shared<ScheduleResult>(runSchedule(in));
    e.dpAllGatherS = schedule->gatherBusyS;
    e.dpReduceScatterS = schedule->reduceBusyS;
    e.ppTransferS = schedule->meanSendS;
    e.fabricSolves = share.solves();
    e.loadsSolved = share.loadsSolved();
    e.stepS = schedule->stepS;
    e.pipelineS = schedule->computeEndS;
    // The bubble: the pipeline's time that its busiest stage spends outside its passes.
    double busiestS = 0;
    for (const auto& passes : schedule->compute) {
        double busy = 0;
        for (const Interval& x : passes)
            busy += x.toS - x.fromS;
        busiestS = std::max(busiestS, busy);
    }
    e.bubbleS = std::max(0.0, e.pipelineS - busiestS);
    e.ppExposedS = c.pp > 1 ? 2.0 * (c.pp - 1) * e.ppTransferS : 0; // filling and draining
    e.dpExposedS = std::max(0.0, e.stepS - e.optimizerS - e.pipelineS) +
                   (schedule->compute.empty() || schedule->compute.front().empty()
                        ? 0
                        : schedule->compute.front().front().fromS);
    e.schedule = std::move(schedule);
    e.computeS = M * e.computePerMicroS;
    e.tpExposedS = M * e.tpPerMicroS;
    e.cpExposedS = cpStepS;

    e.modelFlopsPerStep = modelFlopsPerStep(m, c);
    e.tflopsPerGpu = e.modelFlopsPerStep / (double(c.gpus()) * e.stepS) / 1e12;
    e.mfu = e.tflopsPerGpu / g.peakTflops(c.precision);
    e.tokensPerS = c.tokensPerStep() / e.stepS;
    e.bubbleFraction = e.bubbleS / e.pipelineS;
    return e;
}

} // namespace cs
