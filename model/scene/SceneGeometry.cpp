#include "SceneGeometry.h"

namespace cs {

float rayHitsBox(const Ray& r, const Box& b) {
    if (!b.drawn()) return -1;
    float tMin = 0, tMax = std::numeric_limits<float>::max();
    const float o[3] = {r.origin.x, r.origin.y, r.origin.z};
    const float d[3] = {r.direction.x, r.direction.y, r.direction.z};
    const float lo[3] = {b.center.x - b.size.x / 2, b.center.y - b.size.y / 2,
                         b.center.z - b.size.z / 2};
    const float hi[3] = {b.center.x + b.size.x / 2, b.center.y + b.size.y / 2,
                         b.center.z + b.size.z / 2};
    for (int i = 0; i < 3; ++i) {
        if (std::fabs(d[i]) < 1e-12f) {
            if (o[i] < lo[i] || o[i] > hi[i]) return -1;
            continue;
        }
        float t0 = (lo[i] - o[i]) / d[i], t1 = (hi[i] - o[i]) / d[i];
        if (t0 > t1) std::swap(t0, t1);
        tMin = std::max(tMin, t0);
        tMax = std::min(tMax, t1);
        if (tMin > tMax) return -1;
    }
    return tMin;
}

float raySegmentDistance(const Ray& r, Vec3 a, Vec3 b, float* rayT) {
    // Closest points of two lines, the segment parameter clamped to [0, 1].
    const Vec3 u = r.direction, v = b - a, w = r.origin - a;
    const float A = u.dot(u), B = u.dot(v), C = v.dot(v), D = u.dot(w), E = v.dot(w);
    const float den = A * C - B * B;
    float s = den > 1e-12f ? (A * E - B * D) / den : 0.f; // on the segment
    s = std::clamp(s, 0.f, 1.f);
    float t = (B * s - D) / A; // on the ray
    if (t < 0) t = 0;
    // Re-project the segment parameter for the clamped ray point.
    s = C > 1e-12f ? std::clamp((r.origin + u * t - a).dot(v) / C, 0.f, 1.f) : 0.f;
    const Vec3 p = r.origin + u * t, q = a + v * s;
    if (rayT) *rayT = t;
    return (p - q).length();
}

} // namespace cs
