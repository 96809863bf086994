#pragma once
// --at, as frame, render and the GUI take it: an offset from the run's start (0s, 100ms,
// 90s, 1h30m, 2d) or, for recorded runs, an RFC 3339 time (2024-06-01T12:00:15Z).
#include "RunReader.h"

#include <QString>

#include <optional>

namespace cs::app {

struct RunTimeArgument {
    std::optional<int64_t> offsetNs; // an offset, or
    std::optional<int64_t> wallNs;   // a date and time, ns since the epoch
};

// Throws UsageError when the text is neither.
RunTimeArgument parseRunTimeArgument(const QString& text, const char* flag = "--at");
// The offset into the run: a date outside it, or a date for a run without one (simulated),
// is an InputException naming the store.
int64_t resolveRunTime(const RunTimeArgument& at, const RunInfo& run, const std::string& store,
                       const char* flag = "--at");

} // namespace cs::app
