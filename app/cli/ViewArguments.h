#pragma once
// The 3D view's options that `render` and `movie` share (--layout, --camera, --aggregate),
// described once and read into the view's state.
#include "CommandSpec.h"
#include "ViewState.h"

namespace cs::app {

std::vector<CommandOption> viewOptions();
// A second run beside the first, a title and a caption (render and movie, SlideFrame.h).
std::vector<CommandOption> slideOptions();
// The layout and aggregate given (the defaults otherwise); throws UsageError naming the flag.
views::ViewState viewStateOfArgs(const CommandArgs& a);

} // namespace cs::app
