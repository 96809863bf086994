#pragma once
// A progress bar on stderr for long commands (simulate, import --prometheus), drawn only when
// stderr is a terminal and the output is not --json: scripts and logs get no carriage returns.
#include <functional>

namespace cs::app {

// The bar's drawing function, or an empty function when no bar should be drawn.
std::function<void(double)> terminalProgress(bool jsonOutput);

} // namespace cs::app
