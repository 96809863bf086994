#pragma once
// The text of each enum of a run (placement, recomputation, all-reduce algorithm, precision,
// MLP kind), written once: the options table, the run files, the summary and the trace all
// name values through these tables, so they cannot drift apart.
#include "TrainingSpecs.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cs {

template <typename Enum> struct EnumName {
    Enum value;
    const char* name;
};

// Every name of the enum, in the order the options table offers them: a value's first entry
// is the name it is written as; a later entry for the same value is an older name still read
// ("linear" for dp-innermost).
template <typename Enum> std::span<const EnumName<Enum>> enumNames();
template <> std::span<const EnumName<FfnKind>> enumNames<FfnKind>();
template <> std::span<const EnumName<Precision>> enumNames<Precision>();
template <> std::span<const EnumName<Placement>> enumNames<Placement>();
template <> std::span<const EnumName<Recompute>> enumNames<Recompute>();
template <> std::span<const EnumName<AllReduceAlgorithm>> enumNames<AllReduceAlgorithm>();

// The name `value` is written as; empty for a value the table does not hold.
template <typename Enum> std::string enumName(Enum value) {
    for (const EnumName<Enum>& e : enumNames<Enum>())
        if (e.value == value) return e.name;
    return {};
}

// The value a name (or an older alias) stands for.
template <typename Enum> std::optional<Enum> enumFromName(std::string_view name) {
    for (const EnumName<Enum>& e : enumNames<Enum>())
        if (name == e.name) return e.value;
    return std::nullopt;
}

// Every name, aliases included: the choices of an option.
template <typename Enum> std::vector<std::string> enumChoices() {
    std::vector<std::string> names;
    for (const EnumName<Enum>& e : enumNames<Enum>())
        names.emplace_back(e.name);
    return names;
}

} // namespace cs
