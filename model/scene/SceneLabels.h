#pragma once
// Labels in the 3D view: pods, rows (floor), switch tiers (fabric) and the selection. Each
// has a place in the world and a size there; placeLabels projects them for one camera,
// sizes them with distance (too small: hidden), and keeps them from colliding, the selection
// first, then tiers, pods and rows. Display-free: the view draws what this places.
#include "SceneDetail.h"

#include <string>
#include <vector>

namespace cs {

enum class LabelKind : uint8_t { Selection, Tier, Pod, Row }; // in order of precedence

struct LabelCandidate {
    std::string text;
    Vec3 anchor;
    float worldSizeM = 1; // the text's height were it painted in the world
    LabelKind kind = LabelKind::Row;
    bool below = false; // the text hangs below the anchor (else it stands above it)
};

struct PlacedLabel {
    size_t candidate = 0;
    float xPx = 0, yPx = 0; // the anchor on screen: pixels from the bottom-left
    float fontPx = 0;
    float left = 0, bottom = 0, right = 0, top = 0; // the text's box on screen
};

constexpr float kLabelMinPx = 9, kLabelMaxPx = 22, kSelectionLabelPx = 15;
constexpr size_t kMaxLabels = 64;

std::vector<LabelCandidate> sceneLabels(const Topology& t, const SceneLayout& L);

// The labels that fit: on screen, large enough, overlapping none placed before them and
// clear of the top `reservedTopPx` (the title line). The pixel limits above are multiplied
// by sizeScale (a small view's, or a high-DPI screen's).
std::vector<PlacedLabel> placeLabels(const std::vector<LabelCandidate>& labels, const SceneView& v,
                                     float widthPx, float reservedTopPx, float sizeScale = 1);

} // namespace cs
