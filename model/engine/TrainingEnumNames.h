#pragma once
// The text of each enum of a run (placement, recomputation, all-reduce algorithm, precision,
// MLP kind), written once as EnumNames tables: the options table, the run files, the summary
// and the trace all name values through them, so they cannot drift apart. A later entry for a
// value is an older name still read ("linear" for dp-innermost).
#include "EnumNames.h"
#include "TrainingSpecs.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cs {

inline constexpr EnumNames kFfnKindNames{std::to_array<EnumName<FfnKind>>({
    {FfnKind::SwiGlu, "swiglu", "SwiGLU"},
    {FfnKind::Gelu, "gelu", "GELU"},
})};
inline constexpr EnumNames kPrecisionNames{std::to_array<EnumName<Precision>>({
    {Precision::Bf16, "bf16", "BF16"},
    {Precision::Fp8, "fp8", "FP8"},
    {Precision::Mxfp8, "mxfp8", "MXFP8"},
})};
inline constexpr EnumNames kPlacementNames{std::to_array<EnumName<Placement>>({
    {Placement::TopologyAware, "topology", "Topology-aware"},
    {Placement::Linear, "dp-innermost", "DP innermost"},
    {Placement::Fragmented, "fragmented", "Fragmented"},
    {Placement::Linear, "linear", "Linear (DP innermost)"},
})};
inline constexpr EnumNames kRecomputeNames{std::to_array<EnumName<Recompute>>({
    {Recompute::None, "none", "None"},
    {Recompute::Selective, "selective", "Selective"},
    {Recompute::Full, "full", "Full"},
})};
inline constexpr EnumNames kPipelineScheduleNames{std::to_array<EnumName<PipelineSchedule>>({
    {PipelineSchedule::Auto, "auto", "Auto (1F1B, interleaved with V > 1)"},
    {PipelineSchedule::OneFOneB, "1f1b", "1F1B"},
    {PipelineSchedule::Interleaved, "interleaved", "Interleaved 1F1B"},
    {PipelineSchedule::ZbH1, "zb-h1", "Zero bubble (ZB-H1)"},
    {PipelineSchedule::DualPipe, "dualpipe", "DualPipe (both directions)"},
})};
inline constexpr EnumNames kAllReduceNames{std::to_array<EnumName<AllReduceAlgorithm>>({
    {AllReduceAlgorithm::Auto, "auto", "Auto"},
    {AllReduceAlgorithm::Ring, "ring", "Ring"},
    {AllReduceAlgorithm::Tree, "tree", "Double binary tree"},
})};
inline constexpr EnumNames kShardedCollectiveNames{std::to_array<EnumName<ShardedCollective>>({
    {ShardedCollective::Auto, "auto", "Auto"},
    {ShardedCollective::Ring, "ring", "Ring"},
    {ShardedCollective::Pat, "pat", "PAT (logarithmic)"},
})};
inline constexpr EnumNames kEpDispatcherNames{std::to_array<EnumName<EpDispatcher>>({
    {EpDispatcher::Auto, "auto", "Auto (DeepEP with node-limited routing)"},
    {EpDispatcher::AllToAll, "alltoall", "NCCL all-to-all"},
    {EpDispatcher::DeepEp, "deepep", "DeepEP (once per host)"},
    {EpDispatcher::HybridEp, "hybridep", "HybridEP (once per host, fewer SMs)"},
})};
inline constexpr EnumNames kCudaGraphsNames{std::to_array<EnumName<CudaGraphs>>({
    {CudaGraphs::None, "none", "None (eager)"},
    {CudaGraphs::Scoped, "scoped", "Per layer (attention, router, preprocess)"},
    {CudaGraphs::Full, "full", "Full iteration"},
})};
inline constexpr EnumNames kGradReduceDtypeNames{std::to_array<EnumName<GradReduceDtype>>({
    {GradReduceDtype::Auto, "auto", "Auto (per framework)"},
    {GradReduceDtype::Bf16, "bf16", "BF16"},
    {GradReduceDtype::Fp32, "fp32", "FP32"},
})};

// The table of each enum, for code generic over them (the options table's accessors).
constexpr const auto& namesOf(FfnKind) {
    return kFfnKindNames;
}
constexpr const auto& namesOf(Precision) {
    return kPrecisionNames;
}
constexpr const auto& namesOf(Placement) {
    return kPlacementNames;
}
constexpr const auto& namesOf(Recompute) {
    return kRecomputeNames;
}
constexpr const auto& namesOf(EpDispatcher) {
    return kEpDispatcherNames;
}
constexpr const auto& namesOf(CudaGraphs) {
    return kCudaGraphsNames;
}
constexpr const auto& namesOf(PipelineSchedule) {
    return kPipelineScheduleNames;
}
constexpr const auto& namesOf(AllReduceAlgorithm) {
    return kAllReduceNames;
}
constexpr const auto& namesOf(ShardedCollective) {
    return kShardedCollectiveNames;
}
constexpr const auto& namesOf(GradReduceDtype) {
    return kGradReduceDtypeNames;
}

// The name `value` is written as.
template <typename Enum> std::string enumName(Enum value) {
    return std::string(namesOf(value).name(value));
}
// The value a name (or an older alias) stands for.
template <typename Enum> std::optional<Enum> enumFromName(std::string_view name) {
    return namesOf(Enum{}).parse(name);
}
// Every name, aliases included: the choices of an option.
template <typename Enum> std::vector<std::string> enumChoices() {
    return namesOf(Enum{}).names();
}

} // namespace cs
