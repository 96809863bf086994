#pragma once
// How cables run through the floor layout, one path for drawing, picking and outlining.
// Inside a rack a cable drops to the rack's rear and runs up or down its back (the GPUs at the
// front stay clear). Between racks it leaves by the rear, rises to the cable tray over the hot
// aisle behind the row, runs along the row, crosses to the other rack's aisle at that rack and
// drops down its rear: cables to one rack share their runs, as bundled trays do. Far-detail
// bundles rise to the tray over their ends. The fabric layout draws straight lines.
#include "SceneLayout.h"

#include <array>

namespace cs {

struct CablePath {
    std::array<Vec3, 8> points{};
    int count = 0;
    void add(Vec3 p) { points[size_t(count++)] = p; }
};

constexpr float kTrayBehindRackM = 0.45f; // the tray's line behind a row's rear faces

CablePath linkPath(const SceneLayout& L, int32_t link);
CablePath bundlePath(const SceneLayout& L, int32_t bundle);

} // namespace cs
