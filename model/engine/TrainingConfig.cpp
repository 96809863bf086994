// TrainingConfig.h: defaults that follow the rest of the run,
// what cannot run (refused naming the field), memory per GPU and model FLOPs.
#include "TrainingConfig.h"

#include "InputError.h"
#include "KernelModel.h"
#include "PipelineLayers.h"
#include "PipelineLayout.h"
#include "RunFieldKeys.h"
#include "TrainingEfficiency.h"
#include "TrainingEnumNames.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace cs {
namespace {

constexpr double kGiB = 1024.0 * 1024 * 1024;

[[noreturn]] void reject(const char* field, const std::string& message) {
    throw InputException({{}, 0, 0, field, message});
}

// Schedules that run one chunk per stage (DualPipe's second chunk is the reverse direction's
// stage, not a virtual stage).
bool oneChunkPerStage(PipelineSchedule s) {
    return s == PipelineSchedule::OneFOneB || s == PipelineSchedule::ZbH1 ||
           s == PipelineSchedule::DualPipe;
}

std::string fmt(double v, int decimals = 1) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

// Forward FLOPs per token of one layer: the GEMMs (2 per weight a token meets: MoE layers
// only their active experts) and causal attention scores (QK^T and AV over S/2 positions on
// average; a sliding window's layers over the window).
double linearFlopsPerTokenLayer(const ModelSpec& m, int layer) {
    return 2.0 * m.activeParametersPerLayer(m.moeLayer(layer));
}
double attentionFlopsPerTokenLayer(const ModelSpec& m, int seqLen) {
    double context = seqLen / 2.0;
    if (m.attention.slidingWindow > 0 && m.attention.slidingWindow < seqLen)
        context += m.attention.slidingLayerFraction * (m.attention.slidingWindow - context);
    return 2.0 * context * (m.qkCoreDim() + m.vCoreDim());
}

} // namespace

double modelFlopsPerStep(const ModelSpec& m, const ParallelConfig& c) {
    // Multi-token prediction: each module a layer of its own (MoE where the model's are), a
    // projection of 2 h to h, and one more pass through the shared output head.
    double forwardPerToken = (1 + m.mtpDepth) * 2.0 * m.modelDim * m.vocab +
                             m.mtpDepth * 2.0 * 2 * m.modelDim * m.modelDim;
    for (int l = 0; l < m.pipelineLayers(); ++l)
        forwardPerToken +=
            linearFlopsPerTokenLayer(m, l) + attentionFlopsPerTokenLayer(m, c.seqLen);
    return 3.0 * forwardPerToken * c.tokensPerStep(); // backward = 2 x forward
}

MemoryEstimate estimateMemory(const ModelSpec& m, const ParallelConfig& c) {
    MemoryEstimate e;
    // The routed experts are split EP ways and sharded over expert-DP; every other weight TP
    // ways and over DP x CP (CP ranks hold the same weights).
    // DualPipe: every stage holds two model stages' weights.
    const double copies = c.schedule == PipelineSchedule::DualPipe ? 2 : 1;
    const double expertParamsPerRank =
        copies * m.moeLayers() * m.routedExpertParameters() / (double(c.ep) * c.etp * c.pp);
    const double paramsPerRank = copies *
                                 (m.parameters() - m.moeLayers() * m.routedExpertParameters()) /
                                 (double(c.tp) * c.pp);
    const double shards = double(c.dp) * c.cp;
    const double expertShards = double(c.tp) * c.cp * c.dp / (double(c.ep) * c.etp);
    // Mixed precision with Adam: bf16 weights (2 bytes), fp32 gradients (4), fp32 master and
    // two moments (12). ZeRO 1 shards the optimizer, 2 also the gradients, 3 also the weights
    // (plus the layer being gathered).
    // ZeRO 3's gathered layer: its dense weights over TP, its experts over EP.
    const double layerParams = m.moe.present()
                                   ? m.denseParametersPerLayer(true) / c.tp +
                                         m.routedExpertParameters() / (double(c.ep) * c.etp)
                                   : m.parametersPerLayer() / c.tp;
    auto sharded = [&](int fromStage) {
        return c.zeroStage >= fromStage
                   ? paramsPerRank / shards + expertParamsPerRank / expertShards
                   : paramsPerRank + expertParamsPerRank;
    };
    e.weightsGiB = (sharded(3) + (c.zeroStage >= 3 ? 2 * layerParams : 0)) * 2 / kGiB;
    e.gradientsGiB = sharded(2) * 4 / kGiB;
    e.optimizerGiB = sharded(1) * 12 / kGiB;
    // Activations per layer and micro-batch (Korthikanti et al.): s b h (34 + 5 a s / h) bytes
    // unsharded; tensor + sequence parallelism divide all of it by t, tensor parallelism alone
    // leaves 10 s b h replicated; fused attention never stores the s x s scores (the 5 a s / h
    // term), nor does selective recomputation; full recomputation keeps the layer input only.
    const double sbh = double(c.seqLen) * c.microBatchSeqs / c.cp * m.modelDim;
    // FP8 and MXFP8 keep the GEMMs' inputs at half their bf16 bytes, but where fused attention
    // keeps its output (the projection's input) whole, the projection's cast copy is extra.
    const double castHalf = c.precision == Precision::Bf16 ? 0 : 0.5;
    const bool attentionKeepsItsOutput = c.fusedAttention && c.recompute != Recompute::Selective;
    const double layerBytes =
        efficiency::kActivationBytesPerTokenDim -
        castHalf * efficiency::kActivationGemmInputBytesPerTokenDim +
        (attentionKeepsItsOutput
             ? 2 * castHalf * efficiency::kActivationProjectionInputBytesPerTokenDim
             : 0);
    const double unsplitBytes =
        10 - castHalf * efficiency::kActivationUnsplitGemmInputBytesPerTokenDim;
    // The layers full recomputation does not rerun (all without it, the block method's rest)
    // keep what their forward leaves, unless selective recomputation drops the attention.
    const double rerun = fullyRecomputedShare(m, c);
    const double scores = (c.fusedAttention || c.recompute == Recompute::Selective)
                              ? 0
                              : 5.0 * m.heads * double(c.seqLen) / m.modelDim / c.tp;
    // A MoE layer also keeps, per token copy its experts process, the permuted input and the
    // gated MLP's intermediates (bf16: 2 h + 3 x 2 f bytes; FP8 keeps the two GEMM inputs, h
    // and f wide, cast).
    const double tokensPerMicro = double(c.seqLen) * c.microBatchSeqs / c.cp;
    const double expertBytes =
        m.moe.present()
            ? expertTokensPerRank(m, c, tokensPerMicro) *
                  ((2 - 2 * castHalf) * m.modelDim + (6 - 2 * castHalf) * m.moe.expertFfnDim)
            : 0;
    const double keptBytes =
        expertBytes +
        sbh * ((c.sequenceParallel ? layerBytes / c.tp
                                   : unsplitBytes + (layerBytes - unsplitBytes) / c.tp) +
               scores);
    const double rerunBytes = 2 * sbh / (c.sequenceParallel ? c.tp : 1); // the layer's input
    const double perLayerMicro = rerun * rerunBytes + (1 - rerun) * keptBytes;
    // Full recomputation rebuilds one layer's activations at a time during backward.
    const double working = rerun > 0 ? sbh * layerBytes / c.tp : 0;
    double worst = 0;
    // 1F1B: stage s holds up to pp - s micro-batches in flight (no more than the step has);
    // ZB-H1 keeps s more for their deferred weight gradients (counted whole); DualPipe pp + 1
    // (its paper's Table 2).
    const bool zb = c.schedule == PipelineSchedule::ZbH1,
               dual = c.schedule == PipelineSchedule::DualPipe;
    const double micro = std::max(1.0, c.microBatches());
    for (int s = 0; s < c.pp; ++s)
        worst = std::max(worst, double(dual ? c.pp + 1
                                       : zb ? c.pp
                                            : std::min(double(c.pp - s), micro)) *
                                    layersOfStage(m, c, s) * perLayerMicro);
    e.activationsGiB = (worst + working) / kGiB;
    return e;
}

ParallelConfig withResolvedDefaults(const ModelSpec& m, ParallelConfig c) {
    if (c.epDispatcher == EpDispatcher::Auto)
        c.epDispatcher = m.moe.nodeLimit > 0 ? EpDispatcher::DeepEp : EpDispatcher::AllToAll;
    if (c.virtualStages == 0 && oneChunkPerStage(c.schedule))
        c.virtualStages = 1; // schedules of one chunk per stage
    if (c.virtualStages == 0 && !c.pipelineLayout.empty()) {
        // A layout says its chunks: V is their number over PP (checkTrainingConfig says what
        // is wrong with one that does not parse or divide).
        c.virtualStages = 1;
        try {
            const auto chunks = int(cachedPipelineLayout(c.pipelineLayout).chunks.size());
            if (c.pp > 0 && chunks % c.pp == 0) c.virtualStages = std::max(1, chunks / c.pp);
        } catch (const std::invalid_argument&) {
        }
    }
    if (c.virtualStages != 0) return c;
    c.virtualStages = 1;
    if (c.pp <= 1) return c;
    const double micro = c.microBatches();
    const bool microFit =
        std::fabs(micro - std::round(micro)) < 1e-9 && std::llround(micro) % c.pp == 0;
    for (int v = kMaxAutoVirtualStages; v > 1 && microFit; --v) {
        const int chunks = c.pp * v;
        if (m.pipelineLayers() % chunks == 0 || (m.pipelineLayers() + 2) % chunks == 0) {
            c.virtualStages = v;
            break;
        }
    }
    return c;
}

void checkTrainingConfig(const ModelSpec& m, const GpuSpec& g, const ParallelConfig& given) {
    const ParallelConfig c = withResolvedDefaults(m, given);
    for (auto [field, v] :
         {std::pair{runkey::tp, c.tp}, {runkey::cp, c.cp}, {runkey::pp, c.pp}, {runkey::dp, c.dp}})
        if (v < 1 || v > 1'000'000)
            reject(field, "expected a positive integer, got " + std::to_string(v));
    if (!g.hasPrecision(c.precision))
        reject("precision",
               std::string(enumName(c.precision)) + " needs " +
                   (c.precision == Precision::Fp8
                        ? "FP8 tensor cores (Hopper or Blackwell); "
                        : "Blackwell's block-scaled FP8 tensor cores (b200, gb200, gb300); ") +
                   g.name + " has none (use " + (g.peakFp8Tflops > 0 ? "fp8 or bf16)" : "bf16)"));
    // A limit the board cannot be set to: under its idle power nothing runs, over its TDP
    // nvidia-smi refuses it.
    if (c.gpuPowerLimitW != 0 &&
        (c.gpuPowerLimitW <= kGpuIdleFractionOfTdp * g.tdpWatts || c.gpuPowerLimitW > g.tdpWatts))
        reject("gpuPowerLimitW", "expected 0 (the TDP) or a limit above " + g.name + "'s idle " +
                                     fmt(kGpuIdleFractionOfTdp * g.tdpWatts, 0) +
                                     " W up to its TDP " + fmt(g.tdpWatts, 0) + " W, got " +
                                     fmt(c.gpuPowerLimitW, 0) + " W");
    if (c.recomputeLayers < 0 || c.recomputeLayers > 10000)
        reject(runkey::recomputeLayers,
               "expected an integer from 0 to 10000, got " + std::to_string(c.recomputeLayers));
    if (c.recomputeLayers > 0 && c.recompute != Recompute::Full)
        reject(runkey::recomputeLayers, "recomputes layers in full: set recomputation to "
                                        "full, or 0 layers");
    // Transformer Engine's per-layer graphs capture a module once: full recomputation, which
    // reruns the layer inside the backward, needs a whole-step graph (Megatron-Bridge's check).
    if (c.cudaGraphs == CudaGraphs::Scoped && c.recompute == Recompute::Full)
        reject(runkey::cudaGraphs, "scoped graphs cannot run with full recomputation; use "
                                   "selective or no recomputation, or graphs none or full");
    // A host time of one's own replaces the graphs' figure: it needs MoE layers and a host that
    // issues them.
    if (c.moeLayerHostMs > 0 && !m.moe.present())
        reject(runkey::moeLayerHostMs,
               "a MoE layer's host time needs a mixture-of-experts model; " + m.name +
                   " is dense (use 0)");
    if (c.moeLayerHostMs > 0 && c.cudaGraphs == CudaGraphs::Full)
        reject(runkey::moeLayerHostMs, "full CUDA graphs leave the host nothing to issue; use "
                                       "0, or graphs none or scoped");
    if (c.ep < 1 || c.ep > 1'000'000)
        reject(runkey::ep, "expected a positive integer, got " + std::to_string(c.ep));
    if (c.ep > 1 && !m.moe.present())
        reject(runkey::ep, "expert parallelism needs a mixture-of-experts model; " + m.name +
                               " is dense (use 1)");
    if (m.moe.present() && m.moe.experts % c.ep != 0)
        reject(runkey::ep, "EP must divide the " + std::to_string(m.moe.experts) + " experts of " +
                               m.name + ", got " + std::to_string(c.ep));
    if ((1LL * c.tp * c.cp * c.dp) % c.ep != 0)
        reject(runkey::ep,
               "EP regroups a stage's TP x CP x DP = " + std::to_string(1LL * c.tp * c.cp * c.dp) +
                   " ranks; it must divide them, got " + std::to_string(c.ep));
    if (c.etp < 1 || c.etp > 1024)
        reject(runkey::etp, "expected an integer from 1 to 1024, got " + std::to_string(c.etp));
    if (c.etp > 1 && !m.moe.present())
        reject(runkey::etp, "expert tensor parallelism needs a mixture-of-experts model; " +
                                m.name + " is dense (use 1)");
    if ((1LL * c.tp * c.cp * c.dp) % (1LL * c.ep * c.etp) != 0)
        reject(runkey::etp, "ETP x EP regroups a stage's TP x CP x DP = " +
                                std::to_string(1LL * c.tp * c.cp * c.dp) +
                                " ranks; it must divide them, got " +
                                std::to_string(1LL * c.ep * c.etp));
    if (m.moe.present() && m.moe.expertFfnDim % c.etp != 0)
        reject(runkey::etp, "ETP must divide the experts' FFN width " +
                                std::to_string(m.moe.expertFfnDim) + ", got " +
                                std::to_string(c.etp));
    if (m.heads % c.tp != 0 || m.kvHeads % c.tp != 0)
        reject(runkey::tp, "TP must divide the attention heads (" + std::to_string(m.heads) +
                               ") and KV heads (" + std::to_string(m.kvHeads) + ") of " + m.name);
    if (c.seqLen < 2 * c.cp || c.seqLen % (2 * c.cp) != 0)
        reject(runkey::seq,
               "CP splits the sequence into 2 x CP chunks: " + std::to_string(c.seqLen) +
                   " is not divisible by " + std::to_string(2 * c.cp));
    if (c.virtualStages > 1 && oneChunkPerStage(c.schedule))
        reject(runkey::virtualStages,
               std::string("the ") + enumName(c.schedule) +
                   (c.schedule == PipelineSchedule::DualPipe
                        ? " schedule gives each stage two model stages, not virtual stages: "
                          "expected 1, got "
                        : " schedule runs one chunk per stage: expected 1, got ") +
                   std::to_string(c.virtualStages));
    if (c.schedule == PipelineSchedule::Interleaved && c.virtualStages < 2)
        reject(runkey::virtualStages,
               "the interleaved schedule needs at least 2 chunks per stage (and PP > 1), got " +
                   std::to_string(c.virtualStages));
    if (c.allReduce == AllReduceAlgorithm::Tree && m.moe.present())
        reject(runkey::allReduce, "a mixture of experts reduces its gradients in rings (the "
                                  "experts' over expert-DP); use ring or auto");
    const bool splitsBackward =
        c.schedule == PipelineSchedule::ZbH1 || c.schedule == PipelineSchedule::DualPipe;
    if (splitsBackward && c.zeroStage >= 3)
        reject(runkey::zeroStage, std::string("the ") + enumName(c.schedule) +
                                      " schedule runs with replicated weights (ZeRO 0 to 2); "
                                      "ZeRO 3 gathers weights again for every pass");
    if (c.schedule == PipelineSchedule::DualPipe && (c.pp < 2 || c.pp % 2 != 0))
        reject(runkey::pp, "DualPipe feeds the pipeline from both ends and needs an even "
                           "number of stages, got " +
                               std::to_string(c.pp));
    if (c.virtualStages < 1 || (c.pp == 1 && c.virtualStages != 1))
        reject(runkey::virtualStages,
               "expected 1 without pipeline parallelism, at least 1 with it");
    if (!c.pipelineLayout.empty()) {
        std::string problem;
        try {
            problem = pipelineLayoutProblem(cachedPipelineLayout(c.pipelineLayout),
                                            c.pp * c.virtualStages, m.layers, m.mtpDepth);
        } catch (const std::invalid_argument& e) {
            problem = e.what();
        }
        if (!problem.empty())
            reject(runkey::pipelineLayout, "\"" + c.pipelineLayout.substr(0, 60) + "\" " + problem +
                                               " (" + m.name + ": " + std::to_string(m.layers) +
                                               " layers t, " + std::to_string(m.mtpDepth) +
                                               " m; PP " + std::to_string(c.pp) + " x V " +
                                               std::to_string(c.virtualStages) + ")");
    } else if (!unevenStages(m, c) && m.pipelineLayers() % (c.pp * c.virtualStages) != 0)
        reject(runkey::pp,
               std::to_string(m.pipelineLayers()) + " layers do not split into " +
                   std::to_string(c.pp) + " stages x " + std::to_string(c.virtualStages) +
                   " virtual stages; choose PP x V dividing " + std::to_string(m.pipelineLayers()) +
                   " (or " + std::to_string(m.pipelineLayers() + 2) +
                   ", with one layer fewer on the first and last stage)");
    const double micro = c.microBatches();
    if (micro < 1 || std::fabs(micro - std::round(micro)) > 1e-9)
        reject(runkey::batchTokens,
               "batch tokens / (seq x DP x micro-batch) must be a whole number "
               "of micro-batches, got " +
                   fmt(micro, 3));
    if (c.virtualStages > 1 && std::llround(micro) % c.pp != 0)
        reject(runkey::virtualStages,
               "the interleaved schedule needs micro-batches in multiples of PP (" +
                   std::to_string(c.pp) + "), got " + fmt(micro, 0) +
                   "; change the batch or use one virtual stage");
    // Plain 1F1B runs fewer micro-batches than stages (Megatron-LM clamps its warm-up): mostly
    // bubble, as small test runs are; zero bubble splits passes that need a full pipeline.
    if (c.pp > 1 && micro < c.pp && c.schedule == PipelineSchedule::ZbH1)
        reject(runkey::batchTokens, "zero bubble needs at least PP = " + std::to_string(c.pp) +
                                        " micro-batches per step, got " + fmt(micro, 0));
    if (c.schedule == PipelineSchedule::DualPipe &&
        (micro < 2 * c.pp || std::llround(micro) % 2 != 0))
        reject(runkey::batchTokens,
               "DualPipe feeds half the micro-batches from each end: it needs an even number, at "
               "least 2 x PP = " +
                   std::to_string(2 * c.pp) + ", got " + fmt(micro, 0));
    const MemoryEstimate mem = estimateMemory(m, c);
    if (mem.totalGiB() > g.hbmGiB)
        reject(runkey::pp, "does not fit in " + fmt(g.hbmGiB) + " GiB of HBM: needs about " +
                               fmt(mem.totalGiB()) + " GiB per GPU (weights " +
                               fmt(mem.weightsGiB) + ", gradients " + fmt(mem.gradientsGiB) +
                               ", optimizer " + fmt(mem.optimizerGiB) + ", activations " +
                               fmt(mem.activationsGiB) +
                               "); raise TP, PP or CP, or shorten the sequence");
}

} // namespace cs
