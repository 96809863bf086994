#include "JsonObjectReader.h"

#include <cmath>

namespace cs {

std::string describeJson(const QJsonValue& v) {
    switch (v.type()) {
    case QJsonValue::Null:
        return "null";
    case QJsonValue::Bool:
        return v.toBool() ? "true" : "false";
    case QJsonValue::Double:
        return "the number " + QString::number(v.toDouble(), 'g', 17).toStdString();
    case QJsonValue::String: {
        std::string s = v.toString().left(60).toStdString();
        return "the string \"" + s + (v.toString().size() > 60 ? "...\"" : "\"");
    }
    case QJsonValue::Array:
        return "an array";
    case QJsonValue::Object:
        return "an object";
    default:
        return "nothing";
    }
}

JsonObjectReader::JsonObjectReader(const QJsonValue& value, JsonPath path)
    : path_(std::move(path)) {
    if (!value.isObject())
        throw JsonFieldError(path_, "expected an object, got " + describeJson(value));
    obj_ = value.toObject();
}

bool JsonObjectReader::has(const char* key) const {
    return obj_.contains(QLatin1String(key)) && !obj_.value(QLatin1String(key)).isNull();
}

void JsonObjectReader::fail(const char* key, const std::string& message) const {
    throw JsonFieldError(key ? path_.child(key) : path_, message);
}

QJsonValue JsonObjectReader::require(const char* key) {
    used_.insert(QString::fromLatin1(key));
    const QJsonValue v = obj_.value(QLatin1String(key));
    if (v.isUndefined()) fail(key, "missing; this field is required");
    return v;
}

long long JsonObjectReader::integer(const char* key, long long lo, long long hi,
                                    std::optional<long long> fallback) {
    used_.insert(QString::fromLatin1(key));
    if (fallback && !obj_.contains(QLatin1String(key))) return *fallback;
    const QJsonValue v = require(key);
    const double d = v.toDouble(std::nan(""));
    const std::string range = " from " + std::to_string(lo) + " to " + std::to_string(hi);
    if (!v.isDouble() || std::floor(d) != d)
        fail(key, "expected an integer" + range + ", got " + describeJson(v));
    if (d < double(lo) || d > double(hi))
        fail(key, "expected an integer" + range + ", got " + describeJson(v));
    return (long long)d;
}

double JsonObjectReader::number(const char* key, double lo, double hi,
                                std::optional<double> fallback) {
    used_.insert(QString::fromLatin1(key));
    if (fallback && !obj_.contains(QLatin1String(key))) return *fallback;
    const QJsonValue v = require(key);
    const double d = v.toDouble(std::nan(""));
    if (!v.isDouble() || !(d >= lo && d <= hi))
        fail(key, "expected a number from " + QString::number(lo).toStdString() + " to " +
                      QString::number(hi).toStdString() + ", got " + describeJson(v));
    return d;
}

std::string JsonObjectReader::string(const char* key, std::optional<std::string> fallback) {
    used_.insert(QString::fromLatin1(key));
    if (fallback && !obj_.contains(QLatin1String(key))) return *fallback;
    const QJsonValue v = require(key);
    if (!v.isString()) fail(key, "expected a string, got " + describeJson(v));
    const QString s = v.toString();
    if (s.size() > kMaxStringChars)
        fail(key,
             "expected a string of at most " + std::to_string(kMaxStringChars) + " characters");
    return s.toStdString();
}

std::optional<std::string> JsonObjectReader::optionalString(const char* key) {
    used_.insert(QString::fromLatin1(key));
    const QJsonValue v = obj_.value(QLatin1String(key));
    if (v.isUndefined() || v.isNull()) return std::nullopt;
    return string(key);
}

QJsonValue JsonObjectReader::value(const char* key) {
    used_.insert(QString::fromLatin1(key));
    return obj_.value(QLatin1String(key));
}

QJsonArray JsonObjectReader::array(const char* key, qsizetype maxSize) {
    const QJsonValue v = require(key);
    if (!v.isArray()) fail(key, "expected an array, got " + describeJson(v));
    const QJsonArray a = v.toArray();
    if (a.size() > maxSize)
        fail(key, "expected at most " + std::to_string(maxSize) + " entries, got " +
                      std::to_string(a.size()));
    return a;
}

JsonObjectReader JsonObjectReader::object(const char* key) {
    return JsonObjectReader(require(key), path_.child(key));
}

void JsonObjectReader::finish() const {
    for (auto it = obj_.begin(); it != obj_.end(); ++it) {
        if (used_.count(it.key())) continue;
        std::string known;
        for (const QString& k : used_)
            known += (known.empty() ? "" : ", ") + k.toStdString();
        throw JsonFieldError(path_.child(it.key().toStdString()),
                             "unknown field; expected one of: " + known);
    }
}

InputException jsonSyntaxError(const QByteArray& text, const std::string& fileName,
                               const QJsonParseError& err) {
    const TextPosition pos = positionOfOffset(text, err.offset);
    return InputException(
        {fileName, pos.line, pos.column, {}, "not valid JSON: " + err.errorString().toStdString()});
}

InputException jsonFieldError(const QByteArray& text, const std::string& fileName,
                              const JsonFieldError& e) {
    const TextPosition pos = locateJsonPath(text, e.path());
    return InputException({fileName, pos.line, pos.column, e.path().toString(), e.what()});
}

} // namespace cs
