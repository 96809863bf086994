#pragma once
// How option values are written and read as text, the same for every table of options (run
// options, design fields): strict integers and numbers (no spaces, no hex), numbers written
// shortest so that they read back exactly, and a list of choices as a sentence ends.
#include <QString>

#include <optional>
#include <string>
#include <vector>

namespace cs {

// Digits with an optional leading '-', at most 18 of them (so the value fits a long long).
std::optional<long long> parseStrictInteger(const QString& text);
// A finite decimal number ("0.5", "-3", "1e6"); nothing for spaces, words or inf.
std::optional<double> parseStrictNumber(const QString& text);
// Whole numbers without a fraction ("400"), others as few digits as read back exactly.
std::string numberText(double v);
// "swiglu or gelu", "auto, ring or tree".
std::string choicesText(const std::vector<std::string>& names);

} // namespace cs
