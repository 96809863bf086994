#pragma once
// Plain 3D geometry for layouts and picking: points, axis-aligned boxes, bounds, rays.
// Units are metres; z points up.
#include <algorithm>
#include <cmath>
#include <limits>

namespace cs {

struct Vec3 {
    float x = 0, y = 0, z = 0;
    Vec3 operator+(Vec3 o) const { return {x + o.x, y + o.y, z + o.z}; }
    Vec3 operator-(Vec3 o) const { return {x - o.x, y - o.y, z - o.z}; }
    Vec3 operator*(float s) const { return {x * s, y * s, z * s}; }
    float dot(Vec3 o) const { return x * o.x + y * o.y + z * o.z; }
    float length() const { return std::sqrt(dot(*this)); }
};

struct Box {
    Vec3 center;
    Vec3 size; // full extents; a zero size means "not drawn in this layout"
    bool drawn() const { return size.x > 0 && size.y > 0 && size.z > 0; }
};

struct Bounds {
    Vec3 min{std::numeric_limits<float>::max(), std::numeric_limits<float>::max(),
             std::numeric_limits<float>::max()};
    Vec3 max{std::numeric_limits<float>::lowest(), std::numeric_limits<float>::lowest(),
             std::numeric_limits<float>::lowest()};
    bool valid() const { return min.x <= max.x; }
    void add(Vec3 p) {
        min = {std::min(min.x, p.x), std::min(min.y, p.y), std::min(min.z, p.z)};
        max = {std::max(max.x, p.x), std::max(max.y, p.y), std::max(max.z, p.z)};
    }
    void add(const Box& b) {
        if (!b.drawn()) return;
        add(b.center - b.size * 0.5f);
        add(b.center + b.size * 0.5f);
    }
    Vec3 center() const { return (min + max) * 0.5f; }
    float diagonal() const { return valid() ? (max - min).length() : 0.f; }
};

struct Ray {
    Vec3 origin;
    Vec3 direction; // need not be normalised
};

// Distance along the ray to where it enters the box; negative if it misses.
float rayHitsBox(const Ray& r, const Box& b);
// Closest distance between the ray and the segment a-b, and the ray parameter there.
float raySegmentDistance(const Ray& r, Vec3 a, Vec3 b, float* rayT);

} // namespace cs
