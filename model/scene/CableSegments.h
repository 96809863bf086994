#pragma once
// Cables drawn once per stretch they share. Close up, the cables of the open racks run along
// the same risers and trays (CableRoutes.h): at a rack close-up of meta-roce-24k, 1,824
// cables are 20 km of line but only 4 km of distinct segments, and a software rasteriser
// pays for every pixel of line. Each distinct segment is drawn once, for the cables along it.
#include "CableRoutes.h"
#include "SceneLayout.h"
#include "TopologyIndex.h"

#include <vector>

namespace cs {

struct CableSegments {
    std::vector<Vec3> a, b; // per segment, its ends
    ChildList links;        // per segment, the links that run along it (in the order given)
};

// The distinct segments of the links' paths; a segment two paths share end to end (in
// either direction, to the millimetre) is one. Zero-length segments are left out.
CableSegments cableSegments(const SceneLayout& L, const std::vector<int32_t>& links);

// Per segment, the largest value among its links (NaN where all are NaN): a shared tray
// shows its hottest cable, and a cable that runs alone its own value.
void hottestPerSegment(const CableSegments& s, const std::vector<float>& linkValues,
                       std::vector<float>& out);

} // namespace cs
