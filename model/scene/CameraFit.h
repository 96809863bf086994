#pragma once
// Where a perspective camera looking along a given direction must stand for a set of points to
// fill a window of the picture: the nearest distance at which every point is inside, with the
// camera shifted sideways and up so that the points sit centred in the window (what framing
// "fills the frame" means; a bounding box's corners around its centre leave the picture
// half empty when the box is seen obliquely).
#include "SceneGeometry.h"

#include <optional>
#include <span>

namespace cs {

struct Vec3d {
    double x = 0, y = 0, z = 0;
};

// The part of the picture the points must stay in, in normalised device coordinates (-1..1):
// room left for a title line above or a legend to the right.
struct PictureWindow {
    double left = -1, right = 1, bottom = -1, top = 1;
};

struct CameraFit {
    Vec3d focalPoint;
    double distance = 0; // the camera stands at focalPoint + towardCamera * distance
    Vec3d right, up;     // the camera's axes (up: world z made orthogonal to the view)
};

// towardCamera: from the scene to the camera, need not be unit, not vertical;
// tanHalfHeight: tan(vertical view angle / 2); aspect: width / height. keepCentre: the camera
// looks at the points' centroid (one entity framed: it stays in the middle of the picture)
// instead of shifting to centre their picture. None without points.
std::optional<CameraFit> fitCamera(std::span<const Vec3> points, Vec3d towardCamera,
                                   double tanHalfHeight, double aspect, PictureWindow window,
                                   bool keepCentre = false);

// Where a point lands in the picture (normalised device coordinates) seen from the fit.
struct PicturePoint {
    double x = 0, y = 0;
    bool inFront = false;
};
PicturePoint projectThrough(const CameraFit& fit, Vec3d towardCamera, double tanHalfHeight,
                            double aspect, Vec3 p);

} // namespace cs
