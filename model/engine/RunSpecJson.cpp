#include "RunSpecJson.h"

#include "JsonObjectReader.h"
#include "RunOptions.h"

#include <QFile>
#include <QJsonDocument>

namespace cs {

namespace {

// The member `name` of `r` through its option: the JSON type the option takes, then the text
// setRunOption parses, so the file takes the same values as the command line and the dialog.
void readOption(JsonObjectReader& r, const char* name, const RunOption& o, RunSpec& s) {
    const QJsonValue v = r.value(name);
    if (v.isUndefined()) return; // absent: the default
    // Errors quote the value as the file writes it (the number 2000, the string "8").
    const std::string message =
        "expected " + (o.type == RunOptionType::Bool ? "true or false" : runOptionExpected(o)) +
        ", got " + describeJson(v);
    const std::optional<QString> text = runOptionTextOfJson(o, v);
    if (!text) r.fail(name, message);
    try {
        setRunOption(s, o, *text);
    } catch (const InputException&) {
        r.fail(name, message);
    }
}

RunSpec readSpec(const QJsonDocument& doc) {
    JsonObjectReader r(doc.isObject() ? QJsonValue(doc.object()) : QJsonValue(), JsonPath());
    if (r.string("format") != "clusterscope-run") r.fail("format", "expected \"clusterscope-run\"");
    if (r.integer("version", 1, 1000) > 1) r.fail("version", "newer than this build reads (1)");
    // Setting steps clears a span and the other way round: both given is an error here.
    if (r.has("steps") && r.has("span"))
        r.fail("span", "expected either \"steps\" or \"span\", not both");
    std::optional<JsonObjectReader> parallel;
    if (!r.value("parallel").isUndefined()) parallel.emplace(r.object("parallel"));
    RunSpec s;
    for (const RunOption& o : runOptions()) {
        const size_t dot = o.key.find('.');
        if (dot == std::string::npos)
            readOption(r, o.key.c_str(), o, s);
        else if (parallel)
            readOption(*parallel, o.key.substr(dot + 1).c_str(), o, s);
    }
    if (parallel) parallel->finish();
    r.finish();
    if ((s.steps > 0) == (s.spanS > 0)) r.fail("steps", "expected either \"steps\" or \"span\"");
    return s;
}

} // namespace

RunSpec parseRunSpec(const QByteArray& text, const std::string& fileName) {
    if (text.size() > 1024 * 1024)
        throw InputException({fileName, 0, 0, {}, "a run description is at most 1 MiB"});
    return readJsonDocument(text, fileName, [](const QJsonDocument& doc) { return readSpec(doc); });
}

RunSpec loadRunSpec(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        throw InputException(
            {path.toStdString(), 0, 0, {}, "cannot open: " + f.errorString().toStdString()});
    return parseRunSpec(f.read(1024 * 1024 + 1), path.toStdString());
}

} // namespace cs
