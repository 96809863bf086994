#include "SceneDetail.h"

#include <algorithm>

namespace cs {

bool SceneDetail::isOpen(int32_t rack) const {
    return std::binary_search(openRacks.begin(), openRacks.end(), rack);
}

SceneDetail detailFor(const SceneLayout& L, Vec3 focus, float cameraDistance) {
    SceneDetail d;
    d.near = cameraDistance < L.nearDistance;
    if (!d.near) return d;
    std::vector<std::pair<float, int32_t>> close;
    for (size_t r = 0; r < L.racks.size(); ++r) {
        if (!L.racks[r].drawn()) continue;
        const Vec3 c = L.racks[r].center;
        const float dx = c.x - focus.x, dy = c.y - focus.y;
        const float dist = std::sqrt(dx * dx + dy * dy);
        if (dist < L.detailRadius) close.emplace_back(dist, int32_t(r));
    }
    std::sort(close.begin(), close.end());
    if (close.size() > kMaxOpenRacks) close.resize(kMaxOpenRacks);
    for (const auto& [dist, r] : close)
        d.openRacks.push_back(r);
    std::sort(d.openRacks.begin(), d.openRacks.end());
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
        best.offer({EntityKind::Host, h}, rayHitsBox(ray, L.hosts[size_t(h)]));
    }
    for (int32_t s : ix.switchesOfRack(r))
        best.offer({EntityKind::Switch, s}, rayHitsBox(ray, L.switches[size_t(s)]));
    for (int32_t s : ix.storageOfRack(r))
        best.offer({EntityKind::Storage, s}, rayHitsBox(ray, L.storage[size_t(s)]));
}

// Ray against a link's drawn path (two points, or four through the cable tray).
float linkHit(const SceneLayout& L, Vec3 a, Vec3 b, const Ray& ray, float tolerance) {
    Vec3 pts[4] = {a, b, b, b};
    int n = 2;
    if (L.trayHeight > 0) {
        pts[0] = a;
        pts[1] = {a.x, a.y, std::max(L.trayHeight, a.z)};
        pts[2] = {b.x, b.y, std::max(L.trayHeight, b.z)};
        pts[3] = b;
        n = 4;
    }
    float bestT = -1;
    for (int i = 0; i + 1 < n; ++i) {
        float t = 0;
        const float dist = raySegmentDistance(ray, pts[i], pts[i + 1], &t);
        const float scale = ray.direction.length();
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
    if (d.near)
        for (int32_t l : openLinks(t, ix, L, d))
            lines.offer({EntityKind::Link, l},
                        linkHit(L, L.linkA[size_t(l)], L.linkB[size_t(l)], ray, linkTolerance));
    for (size_t k = 0; k < L.bundles.a.size(); ++k) {
        const float hit = linkHit(L, L.bundles.a[k], L.bundles.b[k], ray, linkTolerance);
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

} // namespace cs
