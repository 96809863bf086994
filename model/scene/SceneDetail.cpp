#include "SceneDetail.h"

#include "CableRoutes.h"

#include <algorithm>
#include <cmath>

namespace cs {

bool SceneDetail::isOpen(int32_t rack) const {
    return std::binary_search(openRacks.begin(), openRacks.end(), rack);
}

SceneView lookAt(Vec3 eye, Vec3 target, float viewAngleDeg, float aspect, float heightPx) {
    SceneView v;
    v.eye = eye;
    const Vec3 d = target - eye;
    v.forward = d * (1.f / std::max(1e-6f, d.length()));
    // Up: world z made orthogonal to the view direction (or y when looking straight down).
    Vec3 up{0, 0, 1};
    if (std::fabs(v.forward.z) > 0.999f) up = {0, 1, 0};
    const Vec3 u = up - v.forward * up.dot(v.forward);
    v.up = u * (1.f / std::max(1e-6f, u.length()));
    v.tanHalfHeight = std::tan(viewAngleDeg * float(M_PI) / 360.f);
    v.aspect = aspect;
    v.heightPx = heightPx;
    return v;
}

SceneDetail detailFor(const SceneLayout& L, const SceneView& v) {
    SceneDetail d;
    const Vec3 right{v.forward.y * v.up.z - v.forward.z * v.up.y,
                     v.forward.z * v.up.x - v.forward.x * v.up.z,
                     v.forward.x * v.up.y - v.forward.y * v.up.x};
    const float pxPerRadian = v.heightPx / (2 * std::max(1e-6f, v.tanHalfHeight));
    std::vector<std::pair<float, int32_t>> open;
    // A fabric of a few racks opens them all wherever they are on screen: the user sees every
    // switch and link at the overview instead of one bundle.
    const size_t drawnRacks = size_t(
        std::count_if(L.racks.begin(), L.racks.end(), [](const Box& b) { return b.drawn(); }));
    const float openPx = drawnRacks <= kSmallFabricRacks ? kOpenSmallRackPixels : kOpenRackPixels;
    float largestPx = 0;
    for (size_t r = 0; r < L.racks.size(); ++r) {
        const Box& b = L.racks[r];
        if (!b.drawn()) continue;
        const Vec3 rel = b.center - v.eye;
        const float depth = rel.dot(v.forward);
        const float radius = b.size.length() * 0.5f;
        if (depth <= 0.05f) continue; // behind the camera or at it
        const float sizePx = std::max({b.size.x, b.size.y, b.size.z}) / depth * pxPerRadian;
        if (sizePx < openPx && sizePx <= largestPx) continue;
        // On screen: the box's bounding sphere overlaps the view's rectangle.
        const float halfH = depth * v.tanHalfHeight, halfW = halfH * v.aspect;
        if (std::fabs(rel.dot(v.up)) > halfH + radius || std::fabs(rel.dot(right)) > halfW + radius)
            continue;
        largestPx = std::max(largestPx, sizePx);
        if (sizePx >= openPx) open.emplace_back(std::max(0.f, rel.length() - radius), int32_t(r));
    }
    d.cells = largestPx >= kCellRackPixels || drawnRacks == 0;
    std::sort(open.begin(), open.end());
    if (open.size() > kMaxOpenRacks) open.resize(kMaxOpenRacks);
    for (const auto& entry : open)
        d.openRacks.push_back(entry.second);
    std::sort(d.openRacks.begin(), d.openRacks.end());
    d.near = !d.openRacks.empty();
    return d;
}

namespace {

struct Best {
    std::optional<PickHit> hit;
    void offer(Endpoint e, float t, int32_t bundle = kNone) {
        if (t >= 0 && (!hit || t < hit->distance)) hit = PickHit{e, bundle, t};
    }
};

void pickRackMembers(const Topology& t, const TopologyIndex& ix, const SceneLayout& L, int32_t r,
                     const Ray& ray, Best& best) {
    for (int32_t h : ix.hostsOfRack(r)) {
        const Host& host = t.hosts[size_t(h)];
        for (int g = 0; g < host.gpuCount; ++g)
            best.offer({EntityKind::Gpu, host.firstGpu + g},
                       rayHitsBox(ray, L.gpus[size_t(host.firstGpu + g)]));
        for (int32_t n : ix.nicsOfHost(h))
            best.offer({EntityKind::Nic, n}, rayHitsBox(ray, L.nics[size_t(n)]));
        best.offer({EntityKind::Host, h}, rayHitsBox(ray, L.hosts[size_t(h)]));
    }
    for (int32_t s : ix.switchesOfRack(r))
        best.offer({EntityKind::Switch, s}, rayHitsBox(ray, L.switches[size_t(s)]));
    for (int32_t s : ix.storageOfRack(r))
        best.offer({EntityKind::Storage, s}, rayHitsBox(ray, L.storage[size_t(s)]));
}

// Ray against a cable's drawn path.
float pathHit(const CablePath& path, const Ray& ray, float tolerance) {
    float bestT = -1;
    const float scale = ray.direction.length();
    for (int i = 0; i + 1 < path.count; ++i) {
        float t = 0;
        const float dist =
            raySegmentDistance(ray, path.points[size_t(i)], path.points[size_t(i + 1)], &t);
        if (dist <= tolerance * std::max(1.f, t * scale) && (bestT < 0 || t < bestT)) bestT = t;
    }
    return bestT;
}

} // namespace

std::optional<PickHit> pickRay(const Topology& t, const TopologyIndex& ix, const SceneLayout& L,
                               const SceneDetail& d, const Ray& ray, float linkTolerance) {
    Best best;
    for (size_t r = 0; r < L.racks.size(); ++r) {
        if (!L.racks[r].drawn() || !L.rackFar[r]) continue;
        if (d.near && d.isOpen(int32_t(r))) {
            pickRackMembers(t, ix, L, int32_t(r), ray, best);
            continue;
        }
        best.offer({EntityKind::Rack, int32_t(r)}, rayHitsBox(ray, L.racks[r]));
    }
    for (size_t s = 0; s < L.switches.size(); ++s) {
        const int32_t rack = L.rackOfSwitch[s];
        const bool shown = L.switchFar[s] ||
                           (d.near && rack != kNone && d.isOpen(rack) && !L.rackFar[size_t(rack)]);
        if (shown) best.offer({EntityKind::Switch, int32_t(s)}, rayHitsBox(ray, L.switches[s]));
    }
    // Boxes win: a click on a rack selects the rack even where cables run over it; lines
    // are picked where the pointer is on no box.
    if (best.hit) return best.hit;
    Best lines;
    const std::vector<int32_t> open = openLinks(t, ix, L, d);
    for (int32_t l : open)
        lines.offer({EntityKind::Link, l}, pathHit(linkPath(L, l), ray, linkTolerance));
    const std::vector<uint8_t> asLinks = bundlesDrawnAsLinks(L, open);
    for (size_t k = 0; k < L.bundles.a.size(); ++k) {
        if (asLinks[k]) continue;
        const float hit = pathHit(bundlePath(L, int32_t(k)), ray, linkTolerance);
        if (hit >= 0)
            lines.offer({EntityKind::Link, L.bundles.members.of(int32_t(k))[0]}, hit, int32_t(k));
    }
    return lines.hit;
}

std::vector<int32_t> openLinks(const Topology& t, const TopologyIndex& ix, const SceneLayout& L,
                               const SceneDetail& d) {
    std::vector<int32_t> out;
    if (!d.near) return out;
    auto addLinksOf = [&](Endpoint e) {
        for (int32_t l : ix.linksOf(e))
            if (L.linkDrawn[size_t(l)]) out.push_back(l);
    };
    for (int32_t r : d.openRacks) {
        for (int32_t h : ix.hostsOfRack(r)) {
            const Host& host = t.hosts[size_t(h)];
            for (int g = 0; g < host.gpuCount; ++g)
                addLinksOf({EntityKind::Gpu, host.firstGpu + g});
        }
        for (int32_t s : ix.switchesOfRack(r))
            addLinksOf({EntityKind::Switch, s});
        for (int32_t s : ix.storageOfRack(r))
            addLinksOf({EntityKind::Storage, s});
    }
    // NIC links (NIC -> rack switch) are reached through the rack switch above.
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

std::vector<uint8_t> bundlesDrawnAsLinks(const SceneLayout& L, const std::vector<int32_t>& open) {
    std::vector<uint8_t> out(L.bundles.a.size(), 0);
    if (open.empty()) return out;
    for (size_t k = 0; k < out.size(); ++k) {
        const auto members = L.bundles.members.of(int32_t(k));
        out[k] = !members.empty() && std::all_of(members.begin(), members.end(), [&](int32_t l) {
            return std::binary_search(open.begin(), open.end(), l);
        });
    }
    return out;
}

} // namespace cs
