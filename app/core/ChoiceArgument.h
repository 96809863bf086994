#pragma once
// A command-line value that names one entry of an enum's table (EnumNames.h): `--layout
// floor`, `--aggregate max`. Refused with the table's choices, naming the flag.
#include "CommandArgs.h"
#include "EnumNames.h"

namespace cs::app {

template <typename E, size_t N>
E choiceArgument(const CommandArgs& a, const char* flag, const EnumNames<E, N>& names, E fallback) {
    if (!a.has(flag)) return fallback;
    const std::string text = a.value(flag).toStdString();
    if (const std::optional<E> v = names.parse(text)) return *v;
    throw UsageError(std::string(flag) + ": expected " + names.choices() + ", got \"" + text +
                     "\"");
}

} // namespace cs::app
