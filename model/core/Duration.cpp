#include "Duration.h"

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <limits>

namespace cs {
namespace {

struct Unit {
    const char* name;
    double ns;
};
// Largest first; "ms", "us" and "ns" are tried before "m" and "s".
constexpr Unit kUnits[] = {{"d", 86400e9}, {"h", 3600e9}, {"ms", 1e6}, {"us", 1e3},
                           {"ns", 1},      {"m", 60e9},   {"s", 1e9}};

int rankOf(const std::string& unit) {
    static const char* order[] = {"d", "h", "m", "s", "ms", "us", "ns"};
    for (int i = 0; i < 7; ++i)
        if (unit == order[i]) return i;
    return -1;
}

} // namespace

std::optional<int64_t> parseDurationNs(const std::string& text) {
    if (text.empty() || text.size() > 64) return std::nullopt;
    double totalNs = 0;
    size_t i = 0;
    int lastRank = -1;
    while (i < text.size()) {
        // A number: digits with at most one decimal point, at least one digit.
        const size_t start = i;
        int digits = 0, points = 0;
        while (i < text.size() &&
               (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.')) {
            if (text[i] == '.')
                ++points;
            else
                ++digits;
            ++i;
        }
        if (digits == 0 || points > 1) return std::nullopt;
        const double value = std::strtod(text.substr(start, i - start).c_str(), nullptr);
        if (i == text.size()) { // plain seconds, only as the whole text
            if (start != 0) return std::nullopt;
            totalNs = value * 1e9;
            break;
        }
        const Unit* unit = nullptr;
        for (const Unit& u : kUnits)
            if (text.compare(i, std::char_traits<char>::length(u.name), u.name) == 0) {
                unit = &u;
                break;
            }
        if (!unit) return std::nullopt;
        const int rank = rankOf(unit->name);
        if (rank <= lastRank) return std::nullopt; // "1s1h", "1m1m"
        lastRank = rank;
        i += std::char_traits<char>::length(unit->name);
        totalNs += value * unit->ns;
    }
    if (!std::isfinite(totalNs) || totalNs < 0 || totalNs > 9.2e18) return std::nullopt;
    return int64_t(std::llround(totalNs));
}

std::optional<double> parseDurationS(const std::string& text) {
    const auto ns = parseDurationNs(text);
    if (!ns) return std::nullopt;
    return double(*ns) / 1e9;
}

std::string formatDuration(int64_t ns) {
    if (ns == 0) return "0s";
    std::string out = ns < 0 ? "-" : "";
    uint64_t rest = ns < 0 ? uint64_t(-(ns + 1)) + 1 : uint64_t(ns);
    const uint64_t day = 86400'000'000'000ULL, hour = 3600'000'000'000ULL,
                   minute = 60'000'000'000ULL, second = 1'000'000'000ULL;
    auto part = [&](uint64_t unit, const char* name) {
        if (rest >= unit) {
            out += std::to_string(rest / unit) + name;
            rest %= unit;
        }
    };
    part(day, "d");
    part(hour, "h");
    part(minute, "m");
    if (rest == 0) return out;
    if (rest < second && rest % 1'000'000 == 0)
        return out + std::to_string(rest / 1'000'000) + "ms";
    // Seconds with up to nine decimals, trailing zeros dropped: "2.5s", "0.000001s".
    std::string frac = std::to_string(rest % second);
    frac = std::string(9 - frac.size(), '0') + frac;
    while (!frac.empty() && frac.back() == '0')
        frac.pop_back();
    out += std::to_string(rest / second);
    if (!frac.empty()) out += "." + frac;
    return out + "s";
}

std::string formatElapsed(int64_t ns) {
    if (ns < 0) return "-" + formatElapsed(ns == INT64_MIN ? INT64_MAX : -ns);
    const int64_t ms = ns / 1'000'000 + (ns % 1'000'000 >= 500'000 ? 1 : 0);
    const int64_t totalS = ms / 1000, msPart = ms % 1000;
    const int64_t d = totalS / 86400, h = totalS / 3600 % 24, m = totalS / 60 % 60, s = totalS % 60;
    char buf[64];
    if (totalS < 60)
        std::snprintf(buf, sizeof buf, "%lld.%03lld s", (long long)s, (long long)msPart);
    else if (totalS < 3600)
        std::snprintf(buf, sizeof buf, "%lldm %02lld.%03llds", (long long)m, (long long)s,
                      (long long)msPart);
    else if (d == 0)
        std::snprintf(buf, sizeof buf, "%lldh %02lldm %02llds", (long long)h, (long long)m,
                      (long long)s);
    else
        std::snprintf(buf, sizeof buf, "%lldd %02lldh %02lldm", (long long)d, (long long)h,
                      (long long)m);
    return buf;
}

} // namespace cs
