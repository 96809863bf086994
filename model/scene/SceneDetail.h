#pragma once
// Level of detail and picking on a SceneLayout. Far: racks, lone switches and link bundles.
// Near: the racks large on screen open up into hosts, GPUs, switches, storage
// servers and their individual links. Picking walks the model's boxes, never the GPU.
#include "SceneLayout.h"

#include <optional>
#include <vector>

namespace cs {

struct SceneDetail {
    bool near = false;
    // Closed racks' tops show a cell per GPU; off where even the largest rack on screen is too
    // small for a cell to cover a pixel's fraction (a million GPUs at the overview): the tops
    // then show the rack's aggregate, as its sides do, instead of an arbitrary GPU per pixel.
    bool cells = true;
    std::vector<int32_t> openRacks; // sorted
    bool operator==(const SceneDetail&) const = default;
    bool isOpen(int32_t rack) const;
};

constexpr size_t kMaxOpenRacks = 48;  // bounds the near glyph count (48 x 16 GPUs)
constexpr float kOpenRackPixels = 90; // a rack this large on screen shows its members
// ... or this large, in a fabric of at most kSmallFabricRacks racks (16 GPU hosts' worth).
constexpr float kOpenSmallRackPixels = 8;
constexpr size_t kSmallFabricRacks = 16;
// GPU cells on closed racks' tops while the largest rack on screen is at least this large (a
// cell of a 16-GPU rack is then about a quarter of a pixel).
constexpr float kCellRackPixels = 4;

// Where the camera stands and what it sees (a perspective view).
struct SceneView {
    Vec3 eye;
    Vec3 forward{0, 1, 0}, up{0, 0, 1}; // unit vectors, orthogonal
    float tanHalfHeight = 0.2679f;      // tan(vertical view angle / 2): 30 degrees
    float aspect = 16.f / 9;            // width / height
    float heightPx = 720;
};
SceneView lookAt(Vec3 eye, Vec3 target, float viewAngleDeg, float aspect, float heightPx);

// The racks on screen that are at least kOpenRackPixels large open (kOpenSmallRackPixels in a
// small fabric), nearest the camera first, at most kMaxOpenRacks: what the user looks at up
// close, wherever the camera's focal point happens to be. Near when any rack is open. Cells
// while a rack on screen is at least kCellRackPixels large.
SceneDetail detailFor(const SceneLayout& L, const SceneView& v);

struct PickHit {
    Endpoint entity;        // kind Link for a link, Rack for a closed rack
    int32_t bundle = kNone; // set when a far bundle was hit (entity is its first link)
    float distance = 0;     // along the ray
};

// The first box the ray meets among what the detail level shows; where it meets no box, the
// nearest link or bundle it passes within `linkTolerance` metres per metre of distance.
std::optional<PickHit> pickRay(const Topology& t, const TopologyIndex& ix, const SceneLayout& L,
                               const SceneDetail& d, const Ray& ray, float linkTolerance);

// Links drawn individually at this detail: those touching an open rack's members.
std::vector<int32_t> openLinks(const Topology& t, const TopologyIndex& ix, const SceneLayout& L,
                               const SceneDetail& d);

// Per bundle, 1 when every link of it is in `open` (sorted): drawn link by link, so the bundle
// is neither drawn nor picked (a small fabric with all its racks open).
std::vector<uint8_t> bundlesDrawnAsLinks(const SceneLayout& L, const std::vector<int32_t>& open);

} // namespace cs
