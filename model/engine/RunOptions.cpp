#include "RunOptions.h"

#include "InputError.h"
#include "PipelineLayout.h"
#include "RunFieldKeys.h"
#include "TrainingEnumNames.h"

#include <algorithm>
#include <cmath>

namespace cs {
namespace {

using T = FieldType;

// Accessors of one RunSpec field, as the table's get / set.
template <int ParallelConfig::*M> struct ParallelInt {
    static FieldValue get(const RunSpec& s) { return (long long)(s.parallel.*M); }
    static void set(RunSpec& s, const FieldValue& v) {
        s.parallel.*M = int(std::get<long long>(v));
    }
};
struct BatchTokens {
    static FieldValue get(const RunSpec& s) { return s.parallel.batchTokens; }
    static void set(RunSpec& s, const FieldValue& v) {
        s.parallel.batchTokens = std::get<double>(v);
    }
};
// A choice held as an enum of the parallel config, named through the enum's table.
template <typename Enum, Enum ParallelConfig::*M> struct ParallelEnum {
    static FieldValue get(const RunSpec& s) { return enumName(s.parallel.*M); }
    static void set(RunSpec& s, const FieldValue& v) {
        if (const auto e = enumFromName<Enum>(std::get<std::string>(v))) s.parallel.*M = *e;
    }
};
template <std::string ParallelConfig::*M> struct ParallelString {
    static FieldValue get(const RunSpec& s) { return s.parallel.*M; }
    static void set(RunSpec& s, const FieldValue& v) { s.parallel.*M = std::get<std::string>(v); }
};
// A layout's syntax; whether it fits the model is checked with the run's other fields.
std::string layoutSyntaxProblem(const std::string& text) {
    try {
        parsePipelineLayout(text);
        return {};
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
}
template <double ParallelConfig::*M> struct ParallelDouble {
    static FieldValue get(const RunSpec& s) { return s.parallel.*M; }
    static void set(RunSpec& s, const FieldValue& v) { s.parallel.*M = std::get<double>(v); }
};
template <bool ParallelConfig::*M> struct ParallelBool {
    static FieldValue get(const RunSpec& s) { return s.parallel.*M; }
    static void set(RunSpec& s, const FieldValue& v) { s.parallel.*M = std::get<bool>(v); }
};
template <bool OverlapConfig::*M> struct OverlapBool {
    static FieldValue get(const RunSpec& s) { return s.parallel.overlap.*M; }
    static void set(RunSpec& s, const FieldValue& v) { s.parallel.overlap.*M = std::get<bool>(v); }
};
template <std::string RunSpec::*M> struct StringField {
    static FieldValue get(const RunSpec& s) { return s.*M; }
    static void set(RunSpec& s, const FieldValue& v) { s.*M = std::get<std::string>(v); }
};
struct Steps { // a number of steps replaces a span
    static FieldValue get(const RunSpec& s) { return (long long)s.steps; }
    static void set(RunSpec& s, const FieldValue& v) {
        s.steps = int(std::get<long long>(v));
        s.spanS = 0;
    }
};
struct Span { // and a span replaces the steps
    static FieldValue get(const RunSpec& s) { return s.spanS; }
    static void set(RunSpec& s, const FieldValue& v) {
        s.spanS = std::get<double>(v);
        s.steps = 0;
    }
};
struct CheckpointInterval {
    static FieldValue get(const RunSpec& s) { return s.checkpointIntervalS; }
    static void set(RunSpec& s, const FieldValue& v) {
        s.checkpointIntervalS = std::get<double>(v);
    }
};
struct Resolution {
    static FieldValue get(const RunSpec& s) { return s.resolutionS; }
    static void set(RunSpec& s, const FieldValue& v) { s.resolutionS = std::get<double>(v); }
};
struct MemoryBudget {
    static FieldValue get(const RunSpec& s) { return s.memoryBudgetGiB; }
    static void set(RunSpec& s, const FieldValue& v) { s.memoryBudgetGiB = std::get<double>(v); }
};
struct Failures {
    static FieldValue get(const RunSpec& s) { return s.failures; }
    static void set(RunSpec& s, const FieldValue& v) { s.failures = std::get<bool>(v); }
};
struct Seed {
    static FieldValue get(const RunSpec& s) { return (long long)s.seed; }
    static void set(RunSpec& s, const FieldValue& v) { s.seed = uint64_t(std::get<long long>(v)); }
};

template <typename Field> RunOption bind(FieldInfo info) {
    RunOption o{std::move(info)};
    o.get = Field::get;
    o.set = Field::set;
    return o;
}

template <typename List> std::vector<std::string> namesOf(const List& list) {
    std::vector<std::string> names;
    for (const auto& x : list)
        names.push_back(x.name);
    return names;
}

std::vector<std::string> gpuNames() { // current names, then the older ones still accepted
    std::vector<std::string> names = namesOf(gpuPresets());
    for (const GpuSpec& g : gpuPresets())
        names.insert(names.end(), g.aliases.begin(), g.aliases.end());
    return names;
}

constexpr double kDay = 86400;
constexpr double kYear = 366 * kDay; // longest span; the interval of checkpoints too

std::vector<RunOption> buildTable() {
    using P = ParallelConfig;
    std::vector<RunOption> t{
        bind<StringField<&RunSpec::model>>(
            {.key = "model",
             .flag = "--model",
             .label = "Model",
             .type = T::Choice,
             .choices = namesOf(modelPresets()),
             .help = "the model trained: a Llama 3 or GPT shape, or a mixture of experts "
                     "(published configurations)",
             .source = "[paper] Llama 3: the flagship 405B model"}),
        bind<StringField<&RunSpec::gpu>>(
            {.key = "gpu",
             .flag = "--gpu",
             .label = "GPU",
             .type = T::Choice,
             .choices = gpuNames(),
             .help = "the GPU: dense peak, HBM and NVLink from NVIDIA's data sheets",
             .source = "[paper] Llama 3 3.3.1: H100 80 GB"}),
        bind<ParallelEnum<Precision, &P::precision>>(
            {.key = "precision",
             .flag = "--precision",
             .label = "Precision",
             .type = T::Choice,
             .choices = enumChoices<Precision>(),
             .help = "of the matrix multiplications: bf16; fp8, one scale per tensor (Hopper "
                     "and Blackwell); mxfp8, a scale per 32 elements (Blackwell)",
             .source = "[paper] Llama 3 pre-training: BF16"}),
        bind<ParallelDouble<&P::gpuSpeedSpreadPct>>(
            {.key = "gpuSpeedSpreadPct",
             .flag = "--gpu-spread",
             .label = "GPU speed spread",
             .type = T::Number,
             .min = 0,
             .max = 50,
             .unit = "%",
             .help = "kernel speed spread between the GPUs of a host, (fastest - slowest) / mean; "
                     "a lock-step job waits for its slowest GPU",
             .source = "[paper] ml-engineering (compute/accelerator): a 5 % or wider spread of "
                       "the best GEMM rate between the GPUs of one node"}),
        bind<ParallelDouble<&P::gpuPowerLimitW>>(
            {.key = "gpuPowerLimitW",
             .flag = "--gpu-power-limit",
             .label = "GPU power limit",
             .type = T::Number,
             .min = 0,
             .max = 2000,
             .unit = "W",
             .help = "the GPUs' power limit (nvidia-smi -pl), from their idle power to their TDP; "
                     "0: the TDP. Below it the tensor cores clock down, and the site draws less",
             .source = "[paper] torchtitan's Llama 3 H100 benchmarks ran Grand Teton's H100 at "
                       "a 500 W limit; power above idle growing with the cube of the clock "
                       "[assumption]"}),
        bind<ParallelInt<&P::tp>>(
            {.key = runkey::tp,
             .flag = "--tp",
             .label = "Tensor parallel (TP)",
             .min = 1,
             .max = 1024,
             .unit = "GPUs",
             .help = "GPUs splitting each layer's matrices, within a host over NVLink",
             .source = "[paper] Llama 3 Table 4"}),
        bind<ParallelInt<&P::cp>>({.key = runkey::cp,
                                   .flag = "--cp",
                                   .label = "Context parallel (CP)",
                                   .min = 1,
                                   .max = 4096,
                                   .unit = "GPUs",
                                   .help = "GPUs splitting each sequence (for long contexts)",
                                   .source = "[paper] Llama 3 Table 4 (8K sequences)"}),
        bind<ParallelInt<&P::pp>>({.key = runkey::pp,
                                   .flag = "--pp",
                                   .label = "Pipeline parallel (PP)",
                                   .min = 1,
                                   .max = 4096,
                                   .unit = "stages",
                                   .help = "pipeline stages the layers are split into",
                                   .source = "[paper] Llama 3 Table 4"}),
        bind<ParallelInt<&P::dp>>(
            {.key = runkey::dp,
             .flag = "--dp",
             .label = "Data parallel (DP)",
             .min = 1,
             .max = 1'000'000,
             .unit = "replicas",
             .help = "data-parallel replicas; FSDP shards weights and optimizer over them",
             .source = "[paper] Llama 3 Table 4 (8,192 GPUs)"}),
        bind<ParallelInt<&P::ep>>(
            {.key = runkey::ep,
             .flag = "--ep",
             .label = "Expert parallel (EP)",
             .min = 1,
             .max = 1'000'000,
             .unit = "GPUs",
             .help = "MoE: GPUs a layer's experts are split over, regrouped from the stage's "
                     "TP x CP x DP ranks; 1 for dense models",
             .source = "[assumption] 1: no expert parallelism"}),
        bind<ParallelInt<&P::etp>>(
            {.key = runkey::etp,
             .flag = "--etp",
             .label = "Expert tensor parallel (ETP)",
             .min = 1,
             .max = 1024,
             .unit = "GPUs",
             .help = "MoE: GPUs each expert's matrices are split over (column then row "
                     "parallel), inside its EP rank's group; ETP x EP regroup from the stage's "
                     "TP x CP x DP ranks",
             .source = "[paper] Megatron-Bridge's MoE rows and DeepSeek-V3: 1"}),
        bind<ParallelEnum<EpDispatcher, &P::epDispatcher>>(
            {.key = "parallel.epDispatcher",
             .flag = "--ep-dispatcher",
             .label = "MoE token dispatcher",
             .type = T::Choice,
             .choices = enumChoices<EpDispatcher>(),
             .help = "MoE: alltoall, NCCL's all-to-all, sends every copy of a token (a GPU's "
                     "NIC at most 0.74 of its rate in groups across 3 or more hosts); deepep "
                     "sends a token once to each host it reaches, forwarded over NVLink there; "
                     "hybridep moves tokens as deepep does and holds 16 SMs, not 20, when "
                     "overlapped; auto: deepep for node-limited routing, else alltoall",
             .source = "[paper] Megatron-Bridge's MoE recipes set alltoall; DeepSeek-V3 trains "
                       "with DeepEP; Megatron-Bridge's SMs for DeepEP and HybridEP"}),
        bind<ParallelEnum<CudaGraphs, &P::cudaGraphs>>(
            {.key = runkey::cudaGraphs,
             .flag = "--cuda-graphs",
             .label = "CUDA graphs",
             .type = T::Choice,
             .choices = enumChoices<CudaGraphs>(),
             .help = "how the host issues the kernels: none, eagerly (a MoE layer's forward "
                     "and backward last at least 14.8 ms of host time a micro-batch); scoped, "
                     "graphs around attention, router and preprocessing (12.3 ms; not with "
                     "full recomputation); full, one graph a step, as static shapes allow (no "
                     "host time; Megatron-Core's dropless MoE graphs only the scoped parts)",
             .source = "[paper] Megatron-Bridge measured GPT-OSS-20B eager and with scoped "
                       "graphs; its H100 MoE recipes run eager"}),
        bind<ParallelDouble<&P::moeLayerHostMs>>(
            {.key = runkey::moeLayerHostMs,
             .flag = "--moe-host-ms",
             .label = "MoE layer host time",
             .type = T::Number,
             .min = 0,
             .max = 1000,
             .unit = "ms",
             .help = "MoE: the host's time to issue a MoE layer's forward and backward for a "
                     "micro-batch, as a profile of your own software shows it (it depends on the "
                     "release, dispatcher and model); 0 takes the CUDA graphs option's figure",
             .source = "[paper] 0: the graphs option's figures, from Megatron-Bridge's "
                       "GPT-OSS-20B measurement; published H100 runs imply from under 6.6 to "
                       "about 18 ms"}),
        bind<ParallelInt<&P::virtualStages>>(
            {.key = runkey::virtualStages,
             .flag = "--virtual-stages",
             .label = "Virtual stages (V)",
             .min = 0,
             .max = 256,
             .unit = "per stage",
             .help = "model chunks per stage in the interleaved schedule; 0 follows PP: 1 without "
                     "PP, the layout's chunks / PP with a pipeline layout, else the most up to 8 "
                     "that split the layers and micro-batches",
             .source = "[assumption] not published"}),
        bind<ParallelString<&P::pipelineLayout>>(
            {.key = runkey::pipelineLayout,
             .flag = "--pipeline-layout",
             .label = "Pipeline layout",
             .type = T::Text,
             .max = 4096,
             .help = "which chunk holds the embedding (E), decoder layers (t), prediction layers "
                     "(m) and loss (L), in Megatron-LM's syntax: '|' between chunks, X*N and "
                     "(...)*N repeats; chunk k runs on stage k % PP; empty: an even split",
             .source = "[code] Megatron-LM --pipeline-model-parallel-layout; Megatron-Bridge's "
                       "DeepSeek-V3 on GB200: Et*4|(t*4|)*14tmL",
             .textForm = "a pipeline layout such as Et*4|(t*4|)*14tmL, or nothing for an even "
                         "split",
             .textProblem = layoutSyntaxProblem,
             .textPlaceholder = "even split; e.g. Et*4|(t*4|)*14tmL"}),
        bind<ParallelInt<&P::seqLen>>({.key = runkey::seq,
                                       .flag = "--seq",
                                       .label = "Sequence length",
                                       .min = 1,
                                       .max = 10'000'000,
                                       .unit = "tokens",
                                       .help = "tokens per sequence",
                                       .source = "[paper] Llama 3 Table 4 (pre-training)"}),
        bind<BatchTokens>({.key = runkey::batchTokens,
                           .flag = "--batch-tokens",
                           .label = "Batch size",
                           .type = T::Number,
                           .min = 1,
                           .max = 1e12,
                           .unit = "tokens",
                           .help = "tokens per step (the global batch)",
                           .source = "[paper] Llama 3 Table 4 (16M tokens)"}),
        bind<ParallelInt<&P::batchSeqs>>(
            {.key = "parallel.batchSeqs",
             .flag = "--batch-seqs",
             .label = "Batch size (sequences)",
             .min = 0,
             .max = 1e9,
             .unit = "sequences",
             .help = "the global batch in sequences; when set (not 0) it replaces batch tokens",
             .source = "[assumption] unset: the batch is given in tokens"}),
        bind<ParallelInt<&P::microBatchSeqs>>({.key = "parallel.microBatchSeqs",
                                               .flag = "--micro-batch-seqs",
                                               .label = "Micro-batch size",
                                               .min = 1,
                                               .max = 4096,
                                               .unit = "sequences",
                                               .help = "sequences per micro-batch",
                                               .source = "[assumption] not published"}),
        bind<ParallelInt<&P::flowsPerPair>>(
            {.key = "parallel.flowsPerPair",
             .flag = "--flows-per-pair",
             .label = "Flows per GPU pair",
             .min = 0,
             .max = 256,
             .unit = "flows",
             .help = "network flows a collective opens per GPU pair (spread over ECMP paths); "
                     "0: the fabric's (NCCL's 2 channels x its qpsPerConnection)",
             .source = "[paper] Llama 3 3.3.1: 16 on Meta's RoCE fabric"}),
        bind<ParallelEnum<Placement, &P::placement>>(
            {.key = "parallel.placement",
             .flag = "--placement",
             .label = "Placement",
             .type = T::Choice,
             .choices = enumChoices<Placement>(),
             .help = "ranks to GPUs: topology keeps replicas within pods; dp-innermost (or "
                     "linear) puts DP first; fragmented scatters the job's racks over all pods",
             .source = "[paper] Llama 3 3.3.2: placed to match the network"}),
        bind<ParallelBool<&P::sequenceParallel>>(
            {.key = "parallel.sequenceParallel",
             .flag = "--sequence-parallel",
             .label = "Sequence parallelism",
             .type = T::Bool,
             .help = "split norms and dropout over TP; all-gather + reduce-scatter for all-reduce",
             .source = "[paper] Llama 3 3.3.2 trains with it"}),
        bind<ParallelBool<&P::fusedAttention>>(
            {.key = "parallel.fusedAttention",
             .flag = "--fused-attention",
             .label = "Fused attention",
             .type = T::Bool,
             .help = "FlashAttention-class kernels (no s x s scores in memory); off: unfused",
             .source = "[paper] Llama 3 era training uses fused attention"}),
        bind<ParallelEnum<Recompute, &P::recompute>>(
            {.key = "parallel.recompute",
             .flag = "--recompute",
             .label = "Activation recomputation",
             .type = T::Choice,
             .choices = enumChoices<Recompute>(),
             .help = "recompute in backward: nothing, attention, or every layer",
             .source = "[assumption] none"}),
        bind<ParallelInt<&P::recomputeLayers>>(
            {.key = runkey::recomputeLayers,
             .flag = "--recompute-layers",
             .label = "Layers recomputed",
             .min = 0,
             .max = 10000,
             .unit = "per chunk",
             .help = "with full recomputation, the first N layers of each pipeline chunk are "
                     "recomputed and the rest keep their activations (Megatron's block method, "
                     "recompute_num_layers); 0: every layer",
             .source =
                 "[assumption] 0: every layer, as full recomputation alone (Megatron-Bridge's "
                 "Llama 3 8B FP8 recipe on H100 recomputes 5)"}),
        bind<ParallelEnum<PipelineSchedule, &P::schedule>>(
            {.key = "parallel.schedule",
             .flag = "--schedule",
             .label = "Pipeline schedule",
             .type = T::Choice,
             .choices = enumChoices<PipelineSchedule>(),
             .help = "1F1B, interleaved (V > 1), zero bubble ZB-H1 (weight gradients "
                     "deferred into the bubble), or DualPipe (fed from both ends, a forward and "
                     "a backward paired to hide each other's all-to-all); auto: interleaved "
                     "when V > 1",
             .source = "[paper] Llama 3 trains with interleaved 1F1B"}),
        bind<ParallelInt<&P::zeroStage>>(
            {.key = runkey::zeroStage,
             .flag = "--zero-stage",
             .label = "ZeRO stage",
             .min = 0,
             .max = 3,
             .help = "0 gradient all-reduce; 1 optimizer, 2 and gradients, 3 and weights sharded",
             .source = "[paper] Llama 3 3.3.2: FSDP keeping weights after forward (stage 2)"}),
        bind<ParallelEnum<AllReduceAlgorithm, &P::allReduce>>(
            {.key = runkey::allReduce,
             .flag = "--all-reduce",
             .label = "DP all-reduce algorithm",
             .type = T::Choice,
             .choices = enumChoices<AllReduceAlgorithm>(),
             .help = "NCCL's algorithm for the gradient all-reduce of ZeRO stage 0: a ring, a "
                     "double binary tree, or auto (the faster for the bucket)",
             .source = "[assumption] auto, as NCCL's tuner"}),
        bind<ParallelEnum<ShardedCollective, &P::shardedCollective>>(
            {.key = "parallel.shardedCollective",
             .flag = "--sharded-collective",
             .label = "DP all-gather algorithm",
             .type = T::Choice,
             .choices = enumChoices<ShardedCollective>(),
             .help = "NCCL's algorithm for DP all-gathers and reduce-scatters: a ring (n - 1 "
                     "steps), PAT (log2 n steps at 3/4 of the bandwidth, one rank per host), "
                     "or auto (the faster for the bucket, as NCCL's tuner)",
             .source = "[code] NCCL tuning.cc: PAT for all-gather and reduce-scatter"}),
        bind<ParallelEnum<GradReduceDtype, &P::gradReduceDtype>>(
            {.key = "parallel.gradReduceDtype",
             .flag = "--grad-reduce-dtype",
             .label = "Gradient reduction dtype",
             .type = T::Choice,
             .choices = enumChoices<GradReduceDtype>(),
             .help = "dtype of the DP gradient reduction; auto: bf16 at ZeRO 0 and 3, fp32 at "
                     "1 and 2 (Megatron-LM's distributed optimizer)",
             .source = "[code] Megatron-LM, DeepSpeed and PyTorch DDP defaults"}),
        bind<ParallelInt<&P::dpBucketMParams>>(
            {.key = "parallel.dpBucketMParams",
             .flag = "--dp-bucket",
             .label = "DP bucket",
             .min = 0,
             .max = 100'000,
             .unit = "M params",
             .help = "parameters per DP collective at ZeRO 0-2, in whole layers; 0 follows DP: "
                     "max(40, DP ranks) million",
             .source = "[code] Megatron-LM's distributed data parallel bucket size"}),
        bind<OverlapBool<&OverlapConfig::dpGradReduce>>(
            {.key = "parallel.overlap.dpGradReduce",
             .flag = "--overlap-grad-reduce",
             .label = "Overlap gradient reduction",
             .type = T::Bool,
             .help = "DP gradient collectives run during the backward pass",
             .source = "[paper] Llama 3 3.3.2"}),
        bind<OverlapBool<&OverlapConfig::dpParamGather>>(
            {.key = "parallel.overlap.dpParamGather",
             .flag = "--overlap-param-gather",
             .label = "Overlap parameter gather",
             .type = T::Bool,
             .help = "DP parameter all-gathers run during the forward pass",
             .source = "[paper] Llama 3 3.3.2"}),
        bind<OverlapBool<&OverlapConfig::tpComm>>(
            {.key = "parallel.overlap.tpComm",
             .flag = "--overlap-tp-comm",
             .label = "Overlap TP communication",
             .type = T::Bool,
             .help = "TP collectives run beside the GEMMs (userbuffers / async TP)",
             .source = "[assumption] off"}),
        bind<OverlapBool<&OverlapConfig::epComm>>(
            {.key = "parallel.overlap.epComm",
             .flag = "--overlap-ep-comm",
             .label = "Overlap EP all-to-all",
             .type = T::Bool,
             .help = "MoE: the expert all-to-all runs beside another micro-batch's compute "
                     "(DeepEP-style), on SMs taken from it",
             .source = "[assumption] off"}),
        bind<OverlapBool<&OverlapConfig::ppComm>>(
            {.key = "parallel.overlap.ppComm",
             .flag = "--overlap-pp-comm",
             .label = "Overlap PP sends",
             .type = T::Bool,
             .help = "pipeline sends run beside the next micro-batch's compute",
             .source = "[assumption] on"}),
        bind<Steps>({.key = "steps",
                     .flag = "--steps",
                     .label = "Steps",
                     .min = 1,
                     .max = 1'000'000,
                     .unit = "steps",
                     .help = "training steps to simulate (or a span instead)",
                     .source = "[assumption] one step unless a span is given"}),
        bind<Span>({.key = "span",
                    .flag = "--span",
                    .label = "Span",
                    .type = T::Duration,
                    .min = 1,
                    .max = kYear,
                    .help = "wall-clock time to simulate, with checkpoints and failures",
                    .source = "[paper] Llama 3 3.3.4 has a 54-day one; none: steps"}),
        bind<CheckpointInterval>(
            {.key = "checkpointInterval",
             .flag = "--checkpoint-interval",
             .label = "Checkpoint interval",
             .type = T::Duration,
             .min = 0,
             .max = kYear,
             .help = "time between checkpoints; 0s for none",
             .source = "[assumption] not published; keeps 54 days at 16K GPUs over 90% effective"}),
        bind<Resolution>({.key = "resolution",
                          .flag = "--resolution",
                          .label = "Frame interval",
                          .type = T::Duration,
                          .min = 0.001,
                          .max = 10,
                          .help = "time between the replay's frames inside a step",
                          .source = "[assumption] 10 ms: a few hundred frames per 405B step"}),
        bind<MemoryBudget>(
            {.key = "memoryBudgetGiB",
             .flag = "--memory-budget",
             .label = "Memory budget",
             .type = T::Number,
             .min = 0,
             .max = 1e6,
             .unit = "GiB",
             .help = "refuse runs estimated to need more memory; 0: the machine's memory",
             .source = "[assumption] the machine's physical memory"}),
        bind<Failures>({.key = "failures",
                        .flag = "--failures",
                        .label = "Failures from Llama 3 Table 5",
                        .type = T::Bool,
                        .help = "draw interruptions over a span at the rates of Llama 3 Table 5",
                        .source = "[assumption] off"}),
        bind<Seed>({.key = "seed",
                    .flag = "--seed",
                    .label = "Seed",
                    .min = 0,
                    .max = 9007199254740991.0, // 2^53 - 1: JSON numbers hold it exactly
                    .help = "seed of the failure draws",
                    .source = "[assumption]"}),
    };
    const RunSpec defaults = defaultRunSpec();
    for (RunOption& o : t)
        o.defaultText = runOptionText(defaults, o).toStdString();
    return t;
}

// Steps or span, whichever is not in use: it holds 0 and has no text.
bool isUnset(const RunOption& o, const FieldValue& v) {
    if (!isStepsOrSpan(o)) return false;
    return o.type == T::Integer ? std::get<long long>(v) == 0 : std::get<double>(v) == 0;
}

} // namespace

bool isStepsOrSpan(const RunOption& o) {
    return o.key == "steps" || o.key == "span";
}

std::string stepsOrSpanProblem(bool steps, bool span, const std::string& stepsName,
                               const std::string& spanName) {
    if (steps != span) return {};
    return "expected either " + stepsName + " or " + spanName +
           (steps ? ", not both" : ", got neither");
}

const std::vector<RunOption>& runOptions() {
    static const std::vector<RunOption> table = buildTable();
    return table;
}

const RunOption* findRunOption(const std::string& key) {
    for (const RunOption& o : runOptions())
        if (o.key == key) return &o;
    return nullptr;
}

RunSpec defaultRunSpec() {
    RunSpec s;
    s.steps = 1;
    return s;
}

void setRunOption(RunSpec& spec, const RunOption& o, const QString& text) {
    o.set(spec, fieldValueOrThrow(o, o.key, text));
}

QString runOptionText(const RunSpec& spec, const RunOption& o) {
    const FieldValue v = o.get(spec);
    return isUnset(o, v) ? QString() : fieldValueText(o, v);
}

void validateRunSpec(const RunSpec& spec) {
    auto reject = [](const char* field, const std::string& message) {
        throw InputException({{}, 0, 0, field, message});
    };
    if (!spec.customModel && !findModel(spec.model))
        reject("model", "unknown model \"" + spec.model + "\"; expected " +
                            fieldExpected(*findRunOption("model")));
    if (!findGpu(spec.gpu))
        reject("gpu", "unknown GPU \"" + spec.gpu + "\"; expected " +
                          fieldExpected(*findRunOption("gpu")));
    if (const std::string p = stepsOrSpanProblem(spec.steps > 0, spec.spanS > 0); !p.empty())
        reject("steps", p);
    // Each value checked against its option: the ranges of the table, for specs built in
    // code too (steps at most 1,000,000, a span at most a year, ...).
    for (const RunOption& o : runOptions()) {
        if (o.key == "model" && spec.customModel) continue; // a shape of its own
        const FieldValue v = o.get(spec);
        if (isUnset(o, v)) continue;
        if (const auto problem = fieldValueProblem(o, v))
            refuseFieldText(o, o.key, runOptionText(spec, o), *problem);
    }
}

} // namespace cs
