#pragma once
// What one 3D view shows, as one plain value: the layout, how it is coloured and by what, how
// racks and bundles summarise their members, the camera, the selection, the entities marked
// failed and whether labels are drawn. The window's view, screenshots, movies, `render`,
// sessions and camera bookmarks all read and write this value (ClusterScene::state / apply),
// so two views side by side are two values.
#include "CameraPose.h"
#include "EnumNames.h"
#include "FrameValues.h"
#include "SceneDetail.h"
#include "SceneLayout.h"

#include <optional>
#include <string_view>
#include <vector>

namespace cs::views {

enum class ColorMode : uint8_t { Kind, Value };
inline constexpr EnumNames kColorModeNames{std::to_array<EnumName<ColorMode>>({
    {ColorMode::Kind, "kind", "By kind"},
    {ColorMode::Value, "value", "By value"},
})};

// What colours the view when it colours by value: the topology's own test pattern or link
// speeds (before any run exists), the frame of the open run, or its difference from the run
// compared with it (from -1 to 1).
enum class ValueMetric : uint8_t { None, TestPattern, LinkSpeed, Run, Difference };
inline constexpr EnumNames kValueMetricNames{std::to_array<EnumName<ValueMetric>>({
    {ValueMetric::None, "none", "No values"},
    {ValueMetric::TestPattern, "test", "Test pattern (animated)"},
    {ValueMetric::LinkSpeed, "speed", "Link speed"},
    {ValueMetric::Run, "run", "Run"},
    {ValueMetric::Difference, "difference", "Difference A - B"},
})};
// With a simulated run: GPUs coloured by their role in the job instead of a metric.
enum class GpuRole : uint8_t { None, Stage, DpReplica, TpRank, Job };
inline constexpr EnumNames kGpuRoleNames{std::to_array<EnumName<GpuRole>>({
    {GpuRole::None, "none", "None"},
    {GpuRole::Stage, "stage", "Pipeline stage"},
    {GpuRole::DpReplica, "dp", "DP replica"},
    {GpuRole::TpRank, "tp", "TP rank"},
    {GpuRole::Job, "job", "Job"},
})};
// The colour bar's title for a metric: "Busy / load, %".
std::string_view valueTitle(ValueMetric m);

struct ViewState {
    LayoutKind layout = LayoutKind::Floor;
    ColorMode colorMode = ColorMode::Kind;
    ValueMetric metric = ValueMetric::None;
    Aggregate aggregate = Aggregate::Max; // as weathermaps: a bundle shows its hottest link
    // With a run: what colours the GPUs (busy, power, temperature, memory, clock); any but
    // busy leaves links and storage without values (gpuMetricScale).
    Metric gpuMetric = Metric::GpuBusy;
    GpuRole role = GpuRole::None; // set: GPUs by their role (stage, DP replica, TP rank)
    // Where the camera is; none: as the layout frames it (the overview after a layout change).
    std::optional<CameraPose> camera;
    std::optional<PickHit> selection;
    std::vector<Endpoint> marked; // shown failed (red outlines), e.g. during a replay
    bool labels = true;           // pods, rows, tiers and the selection named in the view
};

// Colouring by value with a metric; by kind with none.
inline ViewState coloredBy(ViewState s, ValueMetric m) {
    s.metric = m;
    s.colorMode = m == ValueMetric::None ? ColorMode::Kind : ColorMode::Value;
    return s;
}

// A named camera: where it looks from, in which layout.
struct CameraBookmark {
    std::string name;
    LayoutKind layout = LayoutKind::Floor;
    CameraPose pose;
};

} // namespace cs::views
