#include "CameraFit.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace cs {

namespace {

double dot(Vec3d a, Vec3d b) {
    return a.x * b.x + a.y * b.y + a.z * b.z;
}
Vec3d scaled(Vec3d a, double s) {
    return {a.x * s, a.y * s, a.z * s};
}
Vec3d unit(Vec3d a) {
    return scaled(a, 1 / std::max(1e-12, std::sqrt(dot(a, a))));
}
Vec3d cross(Vec3d a, Vec3d b) {
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

struct Axes {
    Vec3d back, forward, right, up;
};

Axes axesOf(Vec3d towardCamera) {
    Axes a;
    a.back = unit(towardCamera);
    a.forward = scaled(a.back, -1);
    a.right = unit(cross(a.forward, {0, 0, 1}));
    a.up = cross(a.right, a.forward);
    return a;
}

// A point in camera axes around a centre: sideways, up, and how far beyond the centre.
struct Local {
    double r, u, f;
};

// The interval of camera shifts along one axis that keeps every point inside [lo, hi] of the
// picture at `distance`; empty when lo > hi.
std::pair<double, double> shifts(const std::vector<Local>& pts, double distance, double tanHalf,
                                 double lo, double hi, bool vertical) {
    double from = -std::numeric_limits<double>::infinity(),
           to = std::numeric_limits<double>::infinity();
    for (const Local& p : pts) {
        const double s = vertical ? p.u : p.r, depth = distance + p.f;
        // lo <= (s - shift) / (depth * tanHalf) <= hi
        from = std::max(from, s - hi * depth * tanHalf);
        to = std::min(to, s - lo * depth * tanHalf);
    }
    return {from, to};
}

// Within the shifts that keep every point inside, the one that leaves as much room on both
// sides of the picture (by bisection: shifting the camera moves every point the other way).
double centredShift(const std::vector<Local>& pts, double distance, double tanHalf, double lo,
                    double hi, bool vertical, std::pair<double, double> allowed) {
    auto slack = [&](double shift) { // room below lo's side minus room beyond hi's
        double a = std::numeric_limits<double>::infinity(), b = -a;
        for (const Local& p : pts) {
            const double x = ((vertical ? p.u : p.r) - shift) / ((distance + p.f) * tanHalf);
            a = std::min(a, x), b = std::max(b, x);
        }
        return (a - lo) - (hi - b);
    };
    double from = allowed.first, to = allowed.second;
    for (int i = 0; i < 50 && to - from > 1e-9 * std::max(1.0, std::fabs(to)); ++i) {
        const double mid = 0.5 * (from + to);
        (slack(mid) > 0 ? from : to) = mid;
    }
    return 0.5 * (from + to);
}

} // namespace

std::optional<CameraFit> fitCamera(std::span<const Vec3> points, Vec3d towardCamera,
                                   double tanHalfHeight, double aspect, PictureWindow w,
                                   bool keepCentre) {
    if (points.empty() || !(tanHalfHeight > 0) || !(aspect > 0)) return std::nullopt;
    const Axes a = axesOf(towardCamera);
    Vec3d c;
    for (const Vec3& p : points)
        c = {c.x + p.x, c.y + p.y, c.z + p.z};
    c = scaled(c, 1.0 / double(points.size()));
    std::vector<Local> pts;
    pts.reserve(points.size());
    double nearest = -std::numeric_limits<double>::infinity(), extent = 0;
    for (const Vec3& p : points) {
        const Vec3d d{p.x - c.x, p.y - c.y, p.z - c.z};
        pts.push_back({dot(d, a.right), dot(d, a.up), dot(d, a.forward)});
        nearest = std::max(nearest, -pts.back().f);
        extent = std::max(extent, std::sqrt(dot(d, d)));
    }
    const double tanH = tanHalfHeight * aspect, tanV = tanHalfHeight;
    auto fits = [&](double distance) {
        const auto [r0, r1] = shifts(pts, distance, tanH, w.left, w.right, false);
        const auto [u0, u1] = shifts(pts, distance, tanV, w.bottom, w.top, true);
        if (keepCentre) return r0 <= 0 && 0 <= r1 && u0 <= 0 && 0 <= u1;
        return r0 <= r1 && u0 <= u1;
    };
    // Every point in front of the camera, then the nearest distance that fits: fitting is
    // monotone in the distance (farther, every point's room grows).
    double lo = nearest + 1e-3 * std::max(1.0, extent), hi = std::max(lo, 1.0);
    while (!fits(hi) && hi < 1e9)
        hi *= 2;
    for (int i = 0; i < 60 && hi - lo > 1e-6 * hi; ++i) {
        const double mid = 0.5 * (lo + hi);
        (fits(mid) ? hi : lo) = mid;
    }
    const double dr = keepCentre ? 0
                                 : centredShift(pts, hi, tanH, w.left, w.right, false,
                                                shifts(pts, hi, tanH, w.left, w.right, false));
    const double du = keepCentre ? 0
                                 : centredShift(pts, hi, tanV, w.bottom, w.top, true,
                                                shifts(pts, hi, tanV, w.bottom, w.top, true));
    CameraFit fit;
    fit.focalPoint = {c.x + a.right.x * dr + a.up.x * du, c.y + a.right.y * dr + a.up.y * du,
                      c.z + a.right.z * dr + a.up.z * du};
    fit.distance = hi;
    fit.right = a.right;
    fit.up = a.up;
    return fit;
}

PicturePoint projectThrough(const CameraFit& fit, Vec3d towardCamera, double tanHalfHeight,
                            double aspect, Vec3 p) {
    const Axes a = axesOf(towardCamera);
    const Vec3d eye{fit.focalPoint.x + a.back.x * fit.distance,
                    fit.focalPoint.y + a.back.y * fit.distance,
                    fit.focalPoint.z + a.back.z * fit.distance};
    const Vec3d d{p.x - eye.x, p.y - eye.y, p.z - eye.z};
    const double depth = dot(d, a.forward);
    PicturePoint out;
    out.inFront = depth > 0;
    if (!out.inFront) return out;
    out.x = dot(d, a.right) / (depth * tanHalfHeight * aspect);
    out.y = dot(d, a.up) / (depth * tanHalfHeight);
    return out;
}

} // namespace cs
