#pragma once
// Where a camera is: plain numbers, copied between the window's view, bookmarks and the
// off-screen renderer of screenshots and movies.
namespace cs::views {

struct CameraPose {
    double position[3], focalPoint[3], viewUp[3];
    bool operator==(const CameraPose&) const = default;
};

} // namespace cs::views
