#pragma once
// One table per enumeration: each value with its name (as files, the command line and messages
// spell it) and its label (as menus and dialogs show it). Printing, parsing, the list of
// choices and the "expected ..." of an error all read the table, so a name is written once.
#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cs {

template <typename E> struct EnumName {
    E value;
    std::string_view name;  // "floor": files, flags, messages
    std::string_view label; // "Floor": menus and dialogs
};

template <typename E, size_t N> class EnumNames {
public:
    constexpr explicit EnumNames(std::array<EnumName<E>, N> entries) : entries_(entries) {}

    // A value missing from the table reads as the first entry's name: tables list every value.
    constexpr std::string_view name(E v) const { return find(v).name; }
    constexpr std::string_view label(E v) const { return find(v).label; }
    constexpr std::optional<E> parse(std::string_view name) const {
        for (const EnumName<E>& e : entries_)
            if (e.name == name) return e.value;
        return std::nullopt;
    }
    std::optional<E> parseLabel(std::string_view label) const {
        for (const EnumName<E>& e : entries_)
            if (e.label == label) return e.value;
        return std::nullopt;
    }
    std::vector<std::string> names() const {
        std::vector<std::string> out;
        for (const EnumName<E>& e : entries_)
            out.emplace_back(e.name);
        return out;
    }
    // "floor or fabric", "mean, max or min": what an error says was expected.
    std::string choices() const {
        std::string s;
        for (size_t i = 0; i < N; ++i)
            s += std::string(i == 0       ? ""
                             : i + 1 == N ? " or "
                                          : ", ") +
                 std::string(entries_[i].name);
        return s;
    }
    // "floor|fabric": the value of a synopsis.
    std::string alternatives() const {
        std::string s;
        for (size_t i = 0; i < N; ++i)
            s += std::string(i == 0 ? "" : "|") + std::string(entries_[i].name);
        return s;
    }
    constexpr size_t size() const { return N; }
    constexpr const EnumName<E>& operator[](size_t i) const { return entries_[i]; }
    constexpr auto begin() const { return entries_.begin(); }
    constexpr auto end() const { return entries_.end(); }
    // The position of a value in the table, as a list or a combo box shows them.
    constexpr size_t indexOf(E v) const {
        for (size_t i = 0; i < N; ++i)
            if (entries_[i].value == v) return i;
        return 0;
    }

private:
    constexpr const EnumName<E>& find(E v) const { return entries_[indexOf(v)]; }
    std::array<EnumName<E>, N> entries_;
};

template <typename E, size_t N> EnumNames(std::array<EnumName<E>, N>) -> EnumNames<E, N>;

} // namespace cs
