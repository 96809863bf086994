#include "ByteSize.h"

#include <cctype>
#include <cmath>

namespace cs {

std::optional<double> parseByteSize(const std::string& text) {
    size_t i = 0;
    double value = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
        value = value * 10 + (text[i] - '0');
        if (value > kMaxByteSize) return std::nullopt;
        ++i;
    }
    if (i == 0) return std::nullopt;
    std::string unit = text.substr(i);
    double scale = 1;
    if (!unit.empty()) {
        const char u = char(std::toupper(static_cast<unsigned char>(unit[0])));
        const std::string units = "KMGT";
        const size_t k = units.find(u);
        if (k != std::string::npos) {
            scale = std::pow(1024.0, double(k + 1));
            unit.erase(0, 1);
        }
        if (!(unit.empty() || unit == "B" || (scale > 1 && unit == "iB"))) return std::nullopt;
    }
    value *= scale;
    if (value > kMaxByteSize) return std::nullopt;
    return value;
}

std::string formatByteSize(double bytes) {
    const char* units[] = {"", "K", "M", "G", "T"};
    int k = 0;
    while (k < 4 && bytes >= 1024 && std::fmod(bytes, 1024) == 0) {
        bytes /= 1024;
        ++k;
    }
    return std::to_string((long long)bytes) + units[k];
}

} // namespace cs
