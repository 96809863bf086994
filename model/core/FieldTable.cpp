#include "FieldTable.h"

#include "Duration.h"
#include "InputError.h"
#include "ValueText.h"

#include <algorithm>
#include <cmath>

namespace cs {
namespace {

using T = FieldType;

std::string durationText(double s) {
    return formatDuration(std::llround(s * 1e9));
}

bool inRange(const FieldInfo& f, double v) {
    return std::isfinite(v) && (f.aboveMin ? v > f.min : v >= f.min) && v <= f.max;
}

std::optional<std::string> textProblem(const FieldInfo& f, const std::string& s) {
    const qsizetype length = QString::fromStdString(s).size();
    if (double(length) > f.max) return "longer than " + numberText(f.max) + " characters";
    if (double(length) < f.min) return std::string();
    if (f.identifier && s.find_first_of(" \t\n.") != std::string::npos) return std::string();
    if (f.textProblem && !s.empty())
        if (std::string p = f.textProblem(s); !p.empty()) return p;
    return std::nullopt;
}

} // namespace

std::string fieldExpected(const FieldInfo& f) {
    switch (f.type) {
    case T::Integer:
        return "an integer from " + numberText(f.min) + " to " + numberText(f.max);
    case T::Number:
        return f.aboveMin
                   ? "a number above " + numberText(f.min) + " and at most " + numberText(f.max)
                   : "a number from " + numberText(f.min) + " to " + numberText(f.max);
    case T::Choice:
        return choicesText(f.choices);
    case T::Bool:
        return "on or off";
    case T::Duration:
        return "a duration from " + durationText(f.min) + " to " + durationText(f.max) +
               " (such as 54d, 12h, 1h30m or 2.5s)";
    case T::Text:
        if (!f.textForm.empty()) return f.textForm;
        return "a name of " + numberText(f.min) + " to " + numberText(f.max) + " characters" +
               (f.identifier ? " without spaces or dots" : "");
    }
    return {};
}

std::optional<FieldValue> parseFieldText(const FieldInfo& f, const QString& text) {
    switch (f.type) {
    case T::Integer:
        if (const auto n = parseStrictInteger(text)) return *n;
        return std::nullopt;
    case T::Number:
        if (const auto d = parseStrictNumber(text)) return *d;
        return std::nullopt;
    case T::Bool:
        if (text != "on" && text != "off") return std::nullopt;
        return text == "on";
    case T::Duration:
        if (const auto s = parseDurationS(text.toStdString())) return *s;
        return std::nullopt;
    case T::Choice:
    case T::Text:
        return text.toStdString();
    }
    return std::nullopt;
}

std::optional<std::string> fieldValueProblem(const FieldInfo& f, const FieldValue& v) {
    const std::optional<std::string> miss = std::string();
    switch (f.type) {
    case T::Integer: {
        const long long* n = std::get_if<long long>(&v);
        return n && double(*n) >= f.min && double(*n) <= f.max ? std::nullopt : miss;
    }
    case T::Number: {
        const double* d = std::get_if<double>(&v);
        return d && inRange(f, *d) ? std::nullopt : miss;
    }
    case T::Duration: {
        // Counted to the nanosecond, as run files and the command line carry a duration.
        const double* d = std::get_if<double>(&v);
        return d && inRange(f, std::round(*d * 1e9) / 1e9) ? std::nullopt : miss;
    }
    case T::Choice: {
        const std::string* s = std::get_if<std::string>(&v);
        return s && std::find(f.choices.begin(), f.choices.end(), *s) != f.choices.end()
                   ? std::nullopt
                   : miss;
    }
    case T::Bool:
        return std::holds_alternative<bool>(v) ? std::nullopt : miss;
    case T::Text: {
        const std::string* s = std::get_if<std::string>(&v);
        return s ? textProblem(f, *s) : miss;
    }
    }
    return miss;
}

void refuseFieldText(const FieldInfo& f, const std::string& key, const QString& text,
                     const std::string& reason) {
    const QString shown = text.size() > 60 ? text.left(60) + "..." : text;
    throw InputException({{},
                          0,
                          0,
                          key,
                          "expected " + fieldExpected(f) + ", got \"" + shown.toStdString() + "\"" +
                              (reason.empty() ? "" : ": " + reason)});
}

FieldValue fieldValueOrThrow(const FieldInfo& f, const std::string& key, const QString& text) {
    const std::optional<FieldValue> v = parseFieldText(f, text);
    if (!v) refuseFieldText(f, key, text);
    if (const auto problem = fieldValueProblem(f, *v)) refuseFieldText(f, key, text, *problem);
    return *v;
}

QString fieldValueText(const FieldInfo& f, const FieldValue& v) {
    if (const long long* n = std::get_if<long long>(&v)) return QString::number(*n);
    if (const bool* b = std::get_if<bool>(&v)) return *b ? "on" : "off";
    if (const double* d = std::get_if<double>(&v))
        return QString::fromStdString(f.type == T::Duration ? durationText(*d) : numberText(*d));
    return QString::fromStdString(std::get<std::string>(v));
}

std::optional<QString> fieldTextOfJson(const FieldInfo& f, const QJsonValue& v) {
    switch (f.type) {
    case T::Integer:
    case T::Number:
        if (!v.isDouble()) return std::nullopt;
        return QString::fromStdString(numberText(v.toDouble()));
    case T::Bool:
        if (!v.isBool()) return std::nullopt;
        return v.toBool() ? "on" : "off";
    case T::Choice:
    case T::Duration:
    case T::Text:
        if (!v.isString()) return std::nullopt;
        return v.toString();
    }
    return std::nullopt;
}

std::optional<FieldValue> fieldValueOfJson(const FieldInfo& f, const QJsonValue& v) {
    switch (f.type) {
    case T::Integer: {
        // A whole number in range of a long long; 8.0 and 8 are the same JSON number.
        const double d = v.toDouble(std::nan(""));
        if (!v.isDouble() || std::floor(d) != d || std::fabs(d) > 9e18) return std::nullopt;
        return (long long)d;
    }
    case T::Number:
        if (!v.isDouble()) return std::nullopt;
        return v.toDouble();
    case T::Bool:
        if (!v.isBool()) return std::nullopt;
        return v.toBool();
    case T::Duration:
        if (!v.isString()) return std::nullopt;
        return parseFieldText(f, v.toString());
    case T::Choice:
    case T::Text:
        if (!v.isString()) return std::nullopt;
        return v.toString().toStdString();
    }
    return std::nullopt;
}

QJsonValue fieldValueToJson(const FieldInfo& f, const FieldValue& v) {
    if (const long long* n = std::get_if<long long>(&v)) return QJsonValue(qint64(*n));
    if (const bool* b = std::get_if<bool>(&v)) return *b;
    if (const double* d = std::get_if<double>(&v))
        return f.type == T::Duration ? QJsonValue(fieldValueText(f, v)) : QJsonValue(*d);
    return QString::fromStdString(std::get<std::string>(v));
}

} // namespace cs
