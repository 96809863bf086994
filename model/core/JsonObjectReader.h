#pragma once
// Typed, bounded access to the members of one JSON object, with errors that name the field
// and what was expected. Members never asked for are rejected by finish(), so misspelt keys
// do not pass silently.
#include "EnumNames.h"
#include "InputError.h"
#include "JsonPath.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace cs {

class JsonFieldError : public std::runtime_error {
public:
    JsonFieldError(JsonPath path, const std::string& message)
        : std::runtime_error(message), path_(std::move(path)) {}
    const JsonPath& path() const { return path_; }

private:
    JsonPath path_;
};

std::string describeJson(const QJsonValue& v); // "the string \"x\"", "an array", ...

// The longest string a JSON file's field may hold: ids, names, paths. Readers of other
// formats hold their ids to it too, so that what they read, export writes and reads again.
constexpr qsizetype kMaxStringChars = 4096;

// Parses `text` and hands the document to `read`; syntax errors and the JsonFieldErrors that
// `read` throws become InputExceptions naming the file, line, column and field.
template <typename Read>
auto readJsonDocument(const QByteArray& text, const std::string& fileName, Read&& read);

class JsonObjectReader {
public:
    JsonObjectReader(const QJsonValue& value, JsonPath path);

    bool has(const char* key) const;
    long long integer(const char* key, long long lo, long long hi,
                      std::optional<long long> fallback = std::nullopt);
    double number(const char* key, double lo, double hi,
                  std::optional<double> fallback = std::nullopt);
    std::string string(const char* key, std::optional<std::string> fallback = std::nullopt);
    // Null or absent give nullopt.
    std::optional<std::string> optionalString(const char* key);
    // The member as it is, for readers that check its type themselves; undefined if absent.
    QJsonValue value(const char* key);
    QJsonArray array(const char* key, qsizetype maxSize);
    JsonObjectReader object(const char* key);
    // A name of the enum's table (EnumNames.h), refused with the table's choices.
    template <typename E, size_t N>
    E choice(const char* key, const EnumNames<E, N>& names,
             std::type_identity_t<std::optional<E>> fallback = {}) {
        const std::string s =
            string(key, fallback ? std::optional<std::string>(std::string(names.name(*fallback)))
                                 : std::nullopt);
        if (const std::optional<E> v = names.parse(s)) return *v;
        fail(key, "expected " + names.choices() + ", got \"" + s + "\"");
    }
    void allow(const char* key) { used_.insert(QString::fromLatin1(key)); }
    void finish() const; // throws on members that no accessor asked for

    JsonPath pathOf(const char* key) const { return path_.child(key); }
    const JsonPath& path() const { return path_; }
    [[noreturn]] void fail(const char* key, const std::string& message) const;

private:
    QJsonValue require(const char* key);

    QJsonObject obj_;
    JsonPath path_;
    std::set<QString> used_;
};

InputException jsonSyntaxError(const QByteArray& text, const std::string& fileName,
                               const QJsonParseError& err);
InputException jsonFieldError(const QByteArray& text, const std::string& fileName,
                              const JsonFieldError& e);

template <typename Read>
auto readJsonDocument(const QByteArray& text, const std::string& fileName, Read&& read) {
    QJsonParseError err;
    const QJsonDocument doc = QJsonDocument::fromJson(text, &err);
    if (err.error != QJsonParseError::NoError) throw jsonSyntaxError(text, fileName, err);
    try {
        return read(doc);
    } catch (const JsonFieldError& e) {
        throw jsonFieldError(text, fileName, e);
    }
}

} // namespace cs
