#include "SceneLabels.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace cs {
namespace {

// "roce.pod3" -> "pod3": the parent's name is on the screen around it already.
std::string shortName(const std::string& name) {
    const size_t dot = name.rfind('.');
    return dot == std::string::npos ? name : name.substr(dot + 1);
}

const char* tierText(SwitchRole r) {
    switch (r) {
    case SwitchRole::Rtsw:
        return "RTSW (leaf)";
    case SwitchRole::Ctsw:
        return "CTSW (spine)";
    case SwitchRole::Atsw:
        return "ATSW (core)";
    case SwitchRole::IbLeaf:
        return "leaf";
    case SwitchRole::IbSpine:
        return "spine";
    case SwitchRole::IbCore:
        return "core";
    default:
        return nullptr;
    }
}

} // namespace

std::vector<LabelCandidate> sceneLabels(const Topology& t, const SceneLayout& L) {
    std::vector<LabelCandidate> out;
    const bool floor = L.kind == LayoutKind::Floor;
    for (size_t p = 0; p < t.pods.size() && p < L.podBounds.size(); ++p) {
        const Bounds& b = L.podBounds[p];
        if (!b.valid()) continue;
        // Floor: above the pod's front edge. Fabric: under the pod, below its GPUs.
        const Vec3 at = floor ? Vec3{b.center().x, b.min.y, b.max.z + 0.5f}
                              : Vec3{b.center().x, b.min.y, b.min.z - 0.5f};
        out.push_back({shortName(t.pods[p].name), at, 3.f, LabelKind::Pod, !floor});
    }
    if (floor) {
        // A row's name at its left end, on the floor.
        std::vector<Bounds> rows(t.rows.size());
        for (size_t r = 0; r < t.racks.size(); ++r)
            if (t.racks[r].row != kNone && L.racks[r].drawn())
                rows[size_t(t.racks[r].row)].add(L.racks[r]);
        for (size_t r = 0; r < rows.size(); ++r)
            if (rows[r].valid())
                out.push_back({shortName(t.rows[r].name),
                               {rows[r].min.x - 0.6f, rows[r].center().y, 0.1f},
                               0.9f,
                               LabelKind::Row});
        return out;
    }
    // Fabric: each tier of each cluster once, at the left end of its layer.
    struct Layer {
        Bounds b;
        SwitchRole role;
    };
    std::map<std::pair<int32_t, int>, Layer> layers;
    for (size_t s = 0; s < t.switches.size(); ++s) {
        const Switch& w = t.switches[s];
        if (!tierText(w.role) || !L.switches[s].drawn()) continue;
        Layer& layer =
            layers.try_emplace({w.cluster, int(w.role)}, Layer{{}, w.role}).first->second;
        layer.b.add(L.switches[s]);
    }
    for (const auto& [key, layer] : layers)
        out.push_back({tierText(layer.role),
                       {layer.b.min.x - 2.f, layer.b.min.y, layer.b.center().z},
                       3.f,
                       LabelKind::Tier});
    return out;
}

std::vector<PlacedLabel> placeLabels(const std::vector<LabelCandidate>& labels, const SceneView& v,
                                     float widthPx, float reservedTopPx, float sizeScale) {
    const Vec3 right{v.forward.y * v.up.z - v.forward.z * v.up.y,
                     v.forward.z * v.up.x - v.forward.x * v.up.z,
                     v.forward.x * v.up.y - v.forward.y * v.up.x};
    const float tanH = std::max(1e-6f, v.tanHalfHeight);
    const float pxPerRadian = v.heightPx / (2 * tanH);
    std::vector<size_t> order(labels.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return labels[a].kind < labels[b].kind; });
    std::vector<PlacedLabel> placed;
    for (size_t i : order) {
        if (placed.size() >= kMaxLabels) break;
        const LabelCandidate& c = labels[i];
        const Vec3 rel = c.anchor - v.eye;
        const float depth = rel.dot(v.forward);
        if (depth <= 0.1f) continue;
        float px = c.worldSizeM * pxPerRadian / depth;
        if (c.kind == LabelKind::Selection)
            px = kSelectionLabelPx * sizeScale;
        else if (px < kLabelMinPx * sizeScale)
            continue; // too far to read: left out, not drawn as specks
        px = std::min(px, kLabelMaxPx * sizeScale);
        PlacedLabel p;
        p.candidate = i;
        p.fontPx = px;
        p.xPx = (rel.dot(right) / (depth * tanH * v.aspect) + 1) * 0.5f * widthPx;
        p.yPx = (rel.dot(v.up) / (depth * tanH) + 1) * 0.5f * v.heightPx;
        // About 0.58 of the font size a character, 1.25 a line, 4 px from the anchor.
        const float w = 0.58f * px * float(c.text.size()), h = 1.25f * px;
        p.left = p.xPx - w / 2;
        p.right = p.xPx + w / 2;
        p.bottom = c.below ? p.yPx - 4 - h : p.yPx + 4;
        p.top = p.bottom + h;
        if (p.left < 0 || p.right > widthPx || p.bottom < 0 || p.top > v.heightPx - reservedTopPx)
            continue;
        const bool collides = std::any_of(placed.begin(), placed.end(), [&](const PlacedLabel& o) {
            return p.left < o.right + 3 && o.left < p.right + 3 && p.bottom < o.top &&
                   o.bottom < p.top;
        });
        if (!collides) placed.push_back(p);
    }
    return placed;
}

} // namespace cs
