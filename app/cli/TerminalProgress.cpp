#include "TerminalProgress.h"

#include <cstdio>
#include <string>
#include <unistd.h>

namespace cs::app {

namespace {
void drawBar(double f) {
    const int width = 40, done = int(f * width + 0.5);
    std::fprintf(stderr, "\r[%s%s] %3d%%", std::string(size_t(done), '#').c_str(),
                 std::string(size_t(width - done), ' ').c_str(), int(f * 100 + 0.5));
    if (f >= 1.0) std::fputc('\n', stderr);
    std::fflush(stderr);
}
} // namespace

std::function<void(double)> terminalProgress(bool jsonOutput) {
    if (jsonOutput || !isatty(2)) return {};
    return drawBar;
}

} // namespace cs::app
