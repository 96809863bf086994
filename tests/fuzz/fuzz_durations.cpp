// Durations (`--at`, `--tick`, `"span"`): parsed strictly; an accepted one formats and reads
// back to the same nanoseconds.
#include "Duration.h"

#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    const auto ns = cs::parseDurationNs(text);
    if (ns && *ns >= 0) {
        const auto again = cs::parseDurationNs(cs::formatDuration(*ns));
        // formatDuration rounds to what it prints; it must still be a duration.
        if (!again) std::abort();
    }
    (void)cs::parseDurationS(text);
    return 0;
}
