#include "BenchUtil.h"

#include <malloc.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>

namespace bench {

double nowSeconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

namespace {
double statusKiB(const char* key) {
    std::ifstream f("/proc/self/status");
    std::string line;
    while (std::getline(f, line))
        if (line.rfind(key, 0) == 0) return std::stod(line.substr(std::strlen(key)));
    return 0;
}
} // namespace

double rssMiB() {
    return statusKiB("VmRSS:") / 1024.0;
}
double peakMiB() {
    return statusKiB("VmHWM:") / 1024.0;
}

void releaseFreed() {
    malloc_trim(0);
}

void resetPeak() {
    if (FILE* f = std::fopen("/proc/self/clear_refs", "w")) {
        std::fputs("5", f);
        std::fclose(f);
    }
}

} // namespace bench
