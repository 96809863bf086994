#pragma once
// Durations as people write them: "0s", "100ms", "90s", "2.5s", "1h30m", "54d", "15m", or
// plain seconds ("90", "2.5"). Parsed strictly: every character must belong to a number
// followed by a unit (d, h, m, s, ms, us, ns), each unit at most once and largest first.
#include <cstdint>
#include <optional>
#include <string>

namespace cs {

// Nanoseconds, or nothing when the text is not a duration (negative, empty, garbage,
// beyond about 292 years).
std::optional<int64_t> parseDurationNs(const std::string& text);
// The same in seconds, for options held as doubles.
std::optional<double> parseDurationS(const std::string& text);
// "1h30m", "2.5s", "100ms", "0s": a short text that parseDurationNs reads back exactly
// to the millisecond (finer parts are shown in µs or ns).
std::string formatDuration(int64_t ns);
// For reading, not for parsing back: "18.667 s" (to the millisecond under a minute),
// "2m 05.250s", "1h 02m 05s", "2d 03h 04m".
std::string formatElapsed(int64_t ns);

} // namespace cs
