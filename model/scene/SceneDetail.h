#pragma once
// Level of detail and picking on a SceneLayout. Far: racks, lone switches and link bundles.
// Near: the racks around the camera's focus open up into hosts, GPUs, switches, storage
// servers and their individual links. Picking walks the model's boxes, never the GPU.
#include "SceneLayout.h"

#include <optional>
#include <vector>

namespace cs {

struct SceneDetail {
    bool near = false;
    std::vector<int32_t> openRacks; // sorted
    bool operator==(const SceneDetail&) const = default;
    bool isOpen(int32_t rack) const;
};

constexpr size_t kMaxOpenRacks = 48; // bounds the near glyph count (48 x 16 GPUs)

// Near when the camera is within layout.nearDistance of its focus; then the racks within
// detailRadius of the focus (nearest first, at most kMaxOpenRacks) open.
SceneDetail detailFor(const SceneLayout& L, Vec3 focus, float cameraDistance);

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

} // namespace cs
