#include "CableRoutes.h"

namespace cs {
namespace {

// The y of a rack's rear face, where its cables run (the front, at lower y, holds the GPUs).
float rearY(const SceneLayout& L, int32_t rack) {
    const Box& b = L.racks[size_t(rack)];
    return b.center.y + b.size.y / 2;
}

} // namespace

CablePath linkPath(const SceneLayout& L, int32_t link) {
    CablePath p;
    const Vec3 a = L.linkA[size_t(link)], b = L.linkB[size_t(link)];
    const int32_t ra = L.linkRackA.empty() ? kNone : L.linkRackA[size_t(link)];
    const int32_t rb = L.linkRackB.empty() ? kNone : L.linkRackB[size_t(link)];
    p.add(a);
    if (L.trayHeight <= 0) {
        p.add(b);
        return p;
    }
    const float tray = std::max({L.trayHeight, a.z, b.z});
    const float ya = ra != kNone ? rearY(L, ra) : a.y, yb = rb != kNone ? rearY(L, rb) : b.y;
    if (ra != kNone && ra == rb) {
        // Up or down the rack's back.
        p.add({a.x, ya, a.z});
        p.add({a.x, ya, b.z});
        p.add({b.x, ya, b.z});
        p.add(b);
        return p;
    }
    const float ta = ra != kNone ? ya + kTrayBehindRackM : ya;
    const float tb = rb != kNone ? yb + kTrayBehindRackM : yb;
    p.add({a.x, ya, a.z});
    p.add({a.x, ta, tray});
    p.add({b.x, ta, tray}); // along a's row
    p.add({b.x, tb, tray}); // across the rows, at b
    p.add({b.x, yb, b.z});
    p.add(b);
    return p;
}

CablePath bundlePath(const SceneLayout& L, int32_t bundle) {
    CablePath p;
    const Vec3 a = L.bundles.a[size_t(bundle)], b = L.bundles.b[size_t(bundle)];
    p.add(a);
    if (L.trayHeight > 0) {
        p.add({a.x, a.y, std::max(L.trayHeight, a.z)});
        p.add({b.x, b.y, std::max(L.trayHeight, b.z)});
    }
    p.add(b);
    return p;
}

} // namespace cs
