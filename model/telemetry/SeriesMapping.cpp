#include "SeriesMapping.h"

#include "BoundedFileRead.h"
#include "JsonObjectReader.h"

#include <algorithm>
#include <cmath>

namespace cs {
namespace {

// Every field is checked before any is read, so a misspelt one is named first.
void rejectUnknownFields(const JsonObjectReader& r, const QJsonObject& root) {
    static const std::vector<std::string> kFields{"names",   "ports", "hostLabel",
                                                  "devices", "uuids", "patterns"};
    for (auto it = root.begin(); it != root.end(); ++it) {
        const std::string key = it.key().toStdString();
        if (std::find(kFields.begin(), kFields.end(), key) == kFields.end())
            throw JsonFieldError(r.path().child(key),
                                 "unknown field: a mapping file has names, "
                                 "ports, hostLabel, devices, uuids and patterns");
    }
}

// The members of an optional object field, each handed to `read` with its place, for errors.
template <typename Read> void readMembers(JsonObjectReader& r, const char* field, Read&& read) {
    const QJsonValue v = r.value(field);
    if (v.isUndefined()) return;
    if (!v.isObject()) r.fail(field, "expected an object");
    const QJsonObject o = v.toObject();
    for (auto it = o.begin(); it != o.end(); ++it) {
        const std::string key = it.key().toStdString();
        read(r.pathOf(field).child(key), key, it.value());
    }
}

void readStrings(JsonObjectReader& r, const char* field,
                 std::unordered_map<std::string, std::string>& out, const char* what) {
    readMembers(r, field, [&](const JsonPath& at, const std::string& key, const QJsonValue& v) {
        if (!v.isString()) throw JsonFieldError(at, what);
        out[key] = v.toString().toStdString();
    });
}

void readIntegers(JsonObjectReader& r, const char* field, std::unordered_map<std::string, int>& out,
                  int lo, int hi, const char* what) {
    readMembers(r, field, [&](const JsonPath& at, const std::string& key, const QJsonValue& v) {
        const double n = v.toDouble(-1);
        if (!v.isDouble() || n < lo || n > hi || n != std::floor(n)) throw JsonFieldError(at, what);
        out[key] = int(n);
    });
}

// patterns: [["regex", "replacement with \\1"], ...]; the regex must match the whole name.
// At most kMaxPatterns; more is refused, not cut silently.
constexpr qsizetype kMaxPatterns = 1000;

// A group repeated without bound whose body ends in an unbounded repetition, like (a+)+ or
// (x|y*)*: the backtracking matcher tries exponentially many splits of a long name that
// almost matches, so such a pattern could take minutes over a scrape. Refused, saying so.
bool nestsUnboundedRepetition(const QString& regex) {
    static const QRegularExpression nested(R"(\((?:[^()\\]|\\.)*[+*]\)(?:[+*]|\{\d*,\}))");
    return nested.match(regex).hasMatch();
}

void readPatterns(JsonObjectReader& r, SeriesMapping& out) {
    const QJsonValue patterns = r.value("patterns");
    if (!patterns.isUndefined() && !patterns.isArray())
        r.fail("patterns", "expected a list of [regex, replacement]");
    const QJsonArray list = patterns.toArray();
    if (list.size() > kMaxPatterns)
        r.fail("patterns", "expected at most " + std::to_string(kMaxPatterns) + " patterns, got " +
                               std::to_string(list.size()));
    for (qsizetype i = 0; i < list.size(); ++i) {
        const QJsonArray pair = list[i].toArray();
        const JsonPath at = r.pathOf("patterns").child(int(i));
        if (pair.size() != 2 || !pair[0].isString() || !pair[1].isString())
            throw JsonFieldError(at, "expected [\"regex\", \"replacement\"]");
        if (nestsUnboundedRepetition(pair[0].toString()))
            throw JsonFieldError(at, "a repeated group that itself ends in + or * (like (a+)+) "
                                     "can take exponential time; write it without the nesting "
                                     "(a+ for (a+)+)");
        QRegularExpression re("^(?:" + pair[0].toString() + ")$");
        if (!re.isValid())
            throw JsonFieldError(at, "not a valid regular expression: " +
                                         re.errorString().toStdString());
        out.patterns.emplace_back(std::move(re), pair[1].toString());
    }
}

SeriesMapping readMapping(const QJsonDocument& doc, const std::string& fileName) {
    // A document that is no object reads as an empty one: refused below, saying what a mapping
    // file holds.
    const QJsonObject root = doc.object();
    JsonObjectReader r(root, JsonPath());
    rejectUnknownFields(r, root);
    if (root.isEmpty())
        throw InputException({fileName, 1, 1, "names",
                              "expected {\"names\": {\"telemetry name\": \"topology id\"}} "
                              "or another mapping field"});
    SeriesMapping m;
    readStrings(r, "names", m.names, "expected a topology id (a string)");
    readIntegers(r, "ports", m.ports, 1, 65535, "expected a port number from 1 to 65535");
    readIntegers(r, "devices", m.devices, 0, 1023,
                 "expected a rail (the backend NIC's index, 0 to 1023)");
    readStrings(r, "uuids", m.uuids, "expected a GPU id (a string)");
    const QJsonValue label = r.value("hostLabel");
    if (!label.isUndefined()) {
        if (!label.isString() || label.toString().isEmpty())
            r.fail("hostLabel", "expected a label name");
        m.hostLabel = label.toString().toStdString();
    }
    readPatterns(r, m);
    return m;
}

} // namespace

SeriesMapping parseSeriesMapping(const QByteArray& text, const std::string& fileName) {
    return readJsonDocument(text, fileName,
                            [&](const QJsonDocument& doc) { return readMapping(doc, fileName); });
}

SeriesMapping loadSeriesMapping(const QString& path) {
    return parseSeriesMapping(readFileBounded(path, 16 * 1024 * 1024), path.toStdString());
}

} // namespace cs
