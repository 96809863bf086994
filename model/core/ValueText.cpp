#include "ValueText.h"

#include <QLocale>

#include <cmath>

namespace cs {

std::optional<long long> parseStrictInteger(const QString& text) {
    const qsizetype digits = text.size() - (text.startsWith('-') ? 1 : 0);
    if (digits < 1 || digits > 18) return std::nullopt;
    for (qsizetype i = text.size() - digits; i < text.size(); ++i)
        if (text[i] < '0' || text[i] > '9') return std::nullopt;
    return text.toLongLong();
}

std::optional<double> parseStrictNumber(const QString& text) {
    // Only what a decimal number is made of: QString::toDouble would also take spaces.
    if (text.isEmpty() || text.size() > 64) return std::nullopt;
    for (const QChar c : text)
        if (!((c >= '0' && c <= '9') || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E'))
            return std::nullopt;
    bool ok = false;
    const double v = text.toDouble(&ok);
    if (!ok || !std::isfinite(v)) return std::nullopt;
    return v;
}

std::string numberText(double v) {
    if (std::floor(v) == v && std::fabs(v) < 9e18) return std::to_string((long long)v);
    return QString::number(v, 'g', QLocale::FloatingPointShortest).toStdString();
}

std::string choicesText(const std::vector<std::string>& names) {
    std::string s;
    for (size_t i = 0; i < names.size(); ++i)
        s += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
    return s;
}

} // namespace cs
