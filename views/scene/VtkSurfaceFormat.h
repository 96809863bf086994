#pragma once
// The default OpenGL surface VTK needs inside Qt widgets: a 3.2 core profile, 24-bit depth,
// no multisampling (identical pictures everywhere; fast on llvmpipe). Call it before the
// QApplication is made.
namespace cs::views {

void useVtkSurfaceFormat();

} // namespace cs::views
