#pragma once
// What is trained, on what, and how it is split: model shapes (any dense decoder
// transformer; presets for Llama 3 and the GPT shapes of Megatron-LM's papers), GPU data
// sheets, and the parallelism of a run as practitioners configure Megatron-LM / torchtitan.
// Data, not code: presets are tables, and any shape is described by the same numbers.
// Sources: docs/reference/models.md, docs/reference/gpus.md.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cs {

enum class FfnKind { SwiGlu, Gelu };

// Mixture of experts (absent for a dense model: experts 0). A MoE layer replaces the MLP by a
// router, `experts` routed experts of which each token reaches `activeExperts`, and
// `sharedExperts` that every token passes through; each expert is a gated MLP of width
// `expertFfnDim`. The first `firstDenseLayers` layers keep a dense MLP of ffnDim.
struct MoeSpec {
    int experts = 0;
    int activeExperts = 0;
    int sharedExperts = 0;
    int expertFfnDim = 0;
    int firstDenseLayers = 0;
    // Nodes a token's experts may span (DeepSeek-V3's node-limited routing: 4); 0: no limit.
    int nodeLimit = 0;
    // Tokens the busiest expert gets over the balanced share (1: balanced routing, as the
    // calibration runs force it). The lock-step layer waits for the busiest.
    double routingSkew = 1;
    // Group-limited routing (DeepSeek-V3's router): the experts in `groups` equal blocks (in
    // expert order, as EP ranks hold them), a token's experts in at most `groupLimit` of them;
    // 0: none.
    int groups = 0, groupLimit = 0;
    bool present() const { return experts > 0; }
};

// Attention's projections. Multi-head and grouped-query attention: Q of heads x headDim, K
// and V of kvHeads x headDim. Multi-head latent attention (DeepSeek-V2/V3, kvLoraRank > 0):
// queries through a rank-qLoraRank bottleneck, keys and values through a compressed latent of
// kvLoraRank plus a shared rotary key of ropeHeadDim; per head q.k spans headDim + ropeHeadDim,
// v spans headDim. `slidingWindow` tokens of context on `slidingLayerFraction` of the layers
// (GPT-OSS: 128 on every other layer); 0: full causal attention everywhere.
struct AttentionSpec {
    int headDim = 0; // 0: hidden / heads
    int qLoraRank = 0, kvLoraRank = 0, ropeHeadDim = 0;
    int slidingWindow = 0;
    double slidingLayerFraction = 0;
    bool latent() const { return kvLoraRank > 0; }
};

// One weight matrix: `in` x `out`, and how TP splits it: its outputs (column-parallel), its
// inputs (row-parallel, the output projection), or not at all (MLA's down-projections, which
// every TP rank holds).
struct Projection {
    enum Split { Column, Row, Replicated };
    double in, out;
    Split split = Column;
};

struct ModelSpec {
    std::string name;
    int layers = 0;
    int modelDim = 0; // hidden
    int ffnDim = 0;   // FFN width
    int heads = 0;
    int kvHeads = 0; // = heads for multi-head attention
    int vocab = 128256;
    FfnKind ffn = FfnKind::SwiGlu;
    bool tiedEmbeddings = false;
    AttentionSpec attention;
    MoeSpec moe;
    // Multi-token prediction modules (DeepSeek-V3: 1), each a layer after the last one that
    // predicts one token further through the shared output head; they sit on the last stage.
    int mtpDepth = 0;
    // The layers the pipeline splits: the model's and its prediction modules'.
    int pipelineLayers() const { return layers + mtpDepth; }

    double headDim() const {
        return attention.headDim > 0 ? attention.headDim : double(modelDim) / heads;
    }
    double kvDim() const { return headDim() * kvHeads; }
    double qDim() const { return headDim() * heads; }
    // Per token and layer, summed over heads: the q.k width and the v width of the core.
    double qkCoreDim() const { return (headDim() + attention.ropeHeadDim) * heads; }
    double vCoreDim() const { return headDim() * heads; }
    // K and V activations a token keeps per layer (what CP exchanges): MLA's latent.
    double kvCacheDim() const {
        return attention.latent() ? attention.kvLoraRank + attention.ropeHeadDim : 2 * kvDim();
    }
    // Weight matrices of the MLP: gate, up and down for SwiGLU; up and down for GELU.
    int ffnMatrices() const { return ffn == FfnKind::SwiGlu ? 3 : 2; }
    // Attention's weight matrices in the order a forward runs them.
    std::vector<Projection> attentionProjections() const;
    double attentionParameters() const;
    bool moeLayer(int layer) const { return moe.present() && layer >= moe.firstDenseLayers; }
    // MoE layers of the pipeline (the prediction modules' included).
    int moeLayers() const { return moe.present() ? pipelineLayers() - moe.firstDenseLayers : 0; }
    // One expert's weights (gated MLP), and all routed experts of a MoE layer.
    double expertParameters() const { return 3.0 * modelDim * moe.expertFfnDim; }
    double routedExpertParameters() const { return moe.experts * expertParameters(); }
    // Parameters: attention, the MLP (MoE layers: router, routed and shared experts), norms
    // (GELU models: with biases), embedding and head (once when tied), and the prediction
    // modules (mtpParameters).
    double parameters() const;
    // The prediction modules alone: a layer, a 2 h x h projection and two norms each.
    double mtpParameters() const;
    // A layer whose weights all sit on each TP rank's share: every weight but the routed
    // experts of a MoE layer (which expert parallelism shards instead).
    double denseParametersPerLayer(bool moeLayer) const;
    // The mean layer of the pipeline (prediction modules' included), every weight counted.
    double parametersPerLayer() const;
    // What one token's forward multiplies with in a layer (MoE: the active experts only), and
    // in the main model (without the prediction modules).
    double activeParametersPerLayer(bool moeLayer) const;
    double activeParameters() const;
};

// Of the GEMMs: BF16; FP8 with one scale per tensor (Hopper and Blackwell); MXFP8, FP8 with a
// scale per 32 elements (the OCP microscaling format Blackwell's tensor cores take).
enum class Precision { Bf16, Fp8, Mxfp8 };

struct GpuSpec {
    std::string name;
    std::vector<std::string> aliases; // older names still accepted
    std::string family;               // kernel-efficiency constants are fitted per family
    double peakBf16Tflops = 0;        // dense
    double peakFp8Tflops = 0;         // dense; 0: no FP8 tensor cores
    double hbmGiB = 0;                // usable
    double hbmGBps = 0;
    double nvlinkGBpsPerDirection = 0;
    double tdpWatts = 0;
    int sms = 0;        // streaming multiprocessors: GEMM tiles fill them in waves
    bool mxfp8 = false; // block-scaled FP8 at the FP8 rate (Blackwell)

    bool hasPrecision(Precision p) const {
        return p == Precision::Bf16 || (p == Precision::Fp8 && peakFp8Tflops > 0) ||
               (p == Precision::Mxfp8 && mxfp8 && peakFp8Tflops > 0);
    }
    double peakTflops(Precision p) const {
        return p != Precision::Bf16 && hasPrecision(p) ? peakFp8Tflops : peakBf16Tflops;
    }
};

enum class Placement { TopologyAware, Linear, Fragmented };
enum class Recompute { None, Selective, Full };
// NCCL's all-reduce algorithms (NCCL_ALGO): a ring, or a double binary tree (two trees over
// the members, each carrying half the data, each member a leaf in one of them); auto picks
// the faster for the bucket, as NCCL's tuner does by its cost model.
enum class AllReduceAlgorithm { Auto, Ring, Tree };
// The algorithm of DP's all-gathers and reduce-scatters: NCCL's ring, or PAT (parallel
// aggregated trees: logarithmic steps, one rank per host); auto as NCCL's tuner picks.
enum class ShardedCollective { Auto, Ring, Pat };
// The pipeline schedule. Auto: Megatron-LM's 1F1B, interleaved when a stage holds several
// chunks (V > 1). 1F1B: one chunk. Interleaved: V > 1 chunks. ZB-H1 (zero bubble, Qi et al.
// 2024): 1F1B with each backward split into the input gradient (B), which the previous stage
// waits for, and the weight gradient (W), deferred to fill the bubble of the cool-down.
// DualPipe (DeepSeek-V3 technical report, 2024): micro-batches fed from both ends of the
// pipeline, each stage holding two model stages; a forward and a backward of the two
// directions run as a pair, each one's all-to-all hidden behind the other's compute.
enum class PipelineSchedule { Auto, OneFOneB, Interleaved, ZbH1, DualPipe };
// The dtype DP reduces gradients in; auto follows the framework the ZeRO stage stands for.
enum class GradReduceDtype { Auto, Bf16, Fp32 };
// Which library moves a MoE layer's tokens to their experts: NCCL's all-to-all (Megatron-Core's
// "alltoall" dispatcher) sends every copy of a token; DeepEP sends a token once to each host it
// reaches and forwards it over NVLink there. Auto: DeepEP for node-limited routing (which is
// made for it, as DeepSeek-V3 trains), NCCL's otherwise.
enum class EpDispatcher { Auto, AllToAll, DeepEp, HybridEp };
// DeepEP's and HybridEP's kernels send a token once per host and once per GPU it reaches;
// they differ in the SMs they hold (epCommSms in TrainingEfficiency.h).
inline bool sendsOncePerGpu(EpDispatcher d) {
    return d == EpDispatcher::DeepEp || d == EpDispatcher::HybridEp;
}
// How the host issues a step's kernels. None: eagerly, op by op from Python (Megatron-Core's
// default): a MoE layer's dispatcher waits for the GPU's token counts, so the host cannot run
// ahead and a layer lasts at least the host's time to issue it. Scoped: CUDA graphs around
// each layer's attention, router and dispatch preprocessing (Transformer Engine's scoped
// graphs), the rest eager. Full: the whole iteration replayed as one graph.
enum class CudaGraphs { None, Scoped, Full };

// Which communication overlaps compute (Megatron-LM's --overlap-grad-reduce,
// --overlap-param-gather, --tp-comm-overlap; PP sends run beside compute; MoE all-to-all
// beside another micro-batch's compute, as DeepEP and Megatron-Core's overlap do).
struct OverlapConfig {
    bool dpGradReduce = true;
    bool dpParamGather = true;
    bool tpComm = false;
    bool ppComm = true;
    bool epComm = false; // MoE all-to-all beside compute
};

struct ParallelConfig {
    int tp = 8, cp = 1, pp = 16, dp = 64;
    // Expert parallelism: a stage's TP x CP x DP ranks regroup for the experts into ETP x EP x
    // expert-DP (Megatron-Core's parallel folding, ETP fastest); each EP rank holds experts /
    // EP, each expert's GEMMs split over its ETP ranks (column then row parallel), the tokens
    // dispatched to them gathered over ETP before and reduce-scattered after.
    int ep = 1;
    int etp = 1;
    EpDispatcher epDispatcher = EpDispatcher::Auto;
    CudaGraphs cudaGraphs = CudaGraphs::None;
    // The host's time to issue a MoE layer's forward and backward for a micro-batch, as the
    // user's own profile shows it; 0 takes cudaGraphs' figure (TrainingEfficiency.h).
    double moeLayerHostMs = 0;
    // V of the interleaved schedule [assumption: not published]. 0: follows PP
    // (withResolvedDefaults): 1 without PP, else the most chunks up to 8 that split the layers
    // and the micro-batches; for 405B on 16 stages that is 8, every chunk one layer (126 layers
    // + 2 slots freed on the first and last stage = 16 stages x 8), the V that makes the three
    // rows of Llama 3 Table 4 agree with one kernel model.
    int virtualStages = 0;
    // Which chunk holds which layers, in Megatron-LM's syntax (PipelineLayout.h); empty: the
    // layers split evenly, or one fewer on the first and last stage where that splits them.
    std::string pipelineLayout;
    int seqLen = 8192;
    double batchTokens = 16.0 * 1024 * 1024;
    int batchSeqs = 0;      // when set, the batch in sequences (batchTokens = batchSeqs x seq)
    int microBatchSeqs = 1; // sequences per micro-batch
    // Flows (queue pairs) between two GPUs; 0: the fabric's, NCCL's 2 channels x its
    // qpsPerConnection (16 on Meta's RoCE [paper], 2 on InfiniBand); a value overrides it.
    int flowsPerPair = 0;
    Placement placement = Placement::TopologyAware;
    uint64_t placementSeed = 1; // which racks a fragmented placement gets
    // The GPUs a cluster's scheduler gave the job (ClusterScheduler.h), ascending; the
    // placement puts its ranks on these alone. Null: the whole topology is the job's.
    std::shared_ptr<const std::vector<int32_t>> gpuPool;
    bool sequenceParallel = true; // [paper] Llama 3 trains with sequence parallelism
    Recompute recompute = Recompute::None;
    // With full recomputation, the layers of each chunk recomputed (its first ones, Megatron's
    // block method); the rest keep their activations. 0: every layer.
    int recomputeLayers = 0;
    PipelineSchedule schedule = PipelineSchedule::Auto;
    // 0: plain data parallel (gradient all-reduce); 1: optimizer state sharded; 2: and
    // gradients; 3: and weights (FSDP, gathered per layer before forward and backward).
    int zeroStage = 2;
    // FlashAttention-class kernels: causal half skipped, no s x s scores in memory. Off: the
    // scores go through HBM (Megatron-LM before 2022) and are kept for backward.
    bool fusedAttention = true;
    AllReduceAlgorithm allReduce = AllReduceAlgorithm::Auto;       // DP gradients at ZeRO stage 0
    ShardedCollective shardedCollective = ShardedCollective::Auto; // DP all-gather, reduce-scatter
    // auto: bf16 at ZeRO 0 (PyTorch DDP) and 3 (DeepSpeed ZeRO-3's communication dtype), fp32 at
    // 1 and 2 (Megatron-LM's distributed optimizer accumulates and reduces in fp32 with bf16).
    GradReduceDtype gradReduceDtype = GradReduceDtype::Auto;
    // Parameters per DP bucket (ZeRO 0-2), millions; 0 follows DP as Megatron-LM does:
    // max(40M, 1M x DP ranks).
    int dpBucketMParams = 0;
    OverlapConfig overlap;
    Precision precision = Precision::Bf16;
    // Spread of kernel speed between the GPUs of one 8-GPU host, (fastest - slowest) / mean,
    // in percent: a lock-step job waits for its slowest GPU (Stragglers.h). ml-engineering
    // measured 5 % or more between the GPUs of one node.
    double gpuSpeedSpreadPct = 5;
    // The GPUs' power limit (nvidia-smi -pl), watts; 0: the part's TDP. Under a lower one the
    // tensor cores clock down (gpuClockUnderPowerLimit, KernelModel.h).
    double gpuPowerLimitW = 0;

    long long gpus() const { return 1LL * tp * cp * pp * dp; }
    double tokensPerStep() const {
        return batchSeqs > 0 ? double(batchSeqs) * seqLen : batchTokens;
    }
    // Micro-batches per DP replica and step.
    double microBatches() const { return tokensPerStep() / seqLen / dp / microBatchSeqs; }
};

const std::vector<ModelSpec>& modelPresets();
const std::vector<GpuSpec>& gpuPresets();
std::optional<ModelSpec> findModel(const std::string& name);
std::optional<GpuSpec> findGpu(const std::string& name); // by name or alias
// The GPU a topology's model names ("H100-SXM-80GB" is h100-sxm): by name, or the longest
// name that starts it, case aside.
std::optional<GpuSpec> findGpuOfTopology(const std::string& gpuModel);

} // namespace cs
