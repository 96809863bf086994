#include "SessionFile.h"

#include "JsonObjectReader.h"
#include "ViewStateJson.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace cs::app {
namespace {

// 2: the colour by name ("kind", "run"), labels on or off, a comparison. Version 1 files still
// read.
constexpr int kSessionVersion = 2;

QString relative(const QString& path, const QDir& dir) {
    if (path.isEmpty() || path.startsWith("preset:")) return path;
    return dir.relativeFilePath(path);
}

QString absolute(const QString& path, const QDir& dir) {
    if (path.isEmpty() || path.startsWith("preset:")) return path;
    return QDir::cleanPath(dir.absoluteFilePath(path));
}

Session readDocument(const QJsonDocument& doc, const QDir& dir) {
    const JsonPath root;
    JsonObjectReader r(doc.isObject() ? QJsonValue(doc.object()) : QJsonValue(), root);
    if (r.string("format") != kSessionFormat)
        r.fail("format",
               std::string("expected \"") + kSessionFormat + "\" (a ClusterScope session)");
    const long long version = r.integer("version", 1, 1'000'000);
    if (version > kSessionVersion)
        r.fail("version", "this session has version " + std::to_string(version) +
                              ", newer than this build reads (" + std::to_string(kSessionVersion) +
                              "); update ClusterScope");
    Session s;
    auto text = [&](const char* key) {
        return QString::fromStdString(r.optionalString(key).value_or(""));
    };
    s.topology = QString::fromStdString(r.string("topology"));
    if (r.has("design")) {
        const QJsonValue d = r.value("design");
        if (!d.isObject()) r.fail("design", "expected a topology parameters object");
        s.design = d.toObject();
    } else {
        s.topology = absolute(s.topology, dir);
    }
    s.nodeNameMap = absolute(text("nodeNameMap"), dir);
    s.structure = absolute(text("structure"), dir);
    s.run = absolute(text("run"), dir);
    s.timeNs = r.integer("timeNs", 0, std::numeric_limits<int64_t>::max() / 2, 0);
    s.view = views::readViewState(r);
    s.selection = text("selection");
    const QJsonArray marks = r.has("bookmarks") ? r.array("bookmarks", 10'000) : QJsonArray();
    for (qsizetype i = 0; i < marks.size(); ++i)
        s.bookmarks.push_back(
            views::readBookmark(JsonObjectReader(marks[i], r.pathOf("bookmarks").child(int(i)))));
    if (r.has("compare")) {
        JsonObjectReader c = r.object("compare");
        s.compareRun = absolute(QString::fromStdString(c.string("run")), dir);
        s.compareTopology = absolute(QString::fromStdString(c.string("topology", "")), dir);
        const QJsonValue linked = c.value("linkedCameras");
        if (!linked.isUndefined() && !linked.isBool())
            c.fail("linkedCameras", "expected true or false");
        s.camerasLinked = linked.toBool(true);
        const QJsonValue baseline = c.value("baseline");
        if (!baseline.isUndefined() && !baseline.isBool())
            c.fail("baseline", "expected true or false");
        s.compareIsBaseline = baseline.toBool(false);
        c.finish();
    }
    const std::string docks = r.string("docks", "");
    s.docks = QByteArray::fromBase64(QByteArray::fromStdString(docks));
    r.finish();
    return s;
}

} // namespace

QByteArray sessionDocument(const Session& s, const QString& sessionPath) {
    const QDir dir = QFileInfo(sessionPath).absoluteDir();
    QJsonObject o{{"format", kSessionFormat},
                  {"version", kSessionVersion},
                  {"topology", relative(s.topology, dir)},
                  {"timeNs", qint64(s.timeNs)}};
    views::writeViewState(s.view, o);
    if (!s.design.isEmpty()) {
        o.insert("topology", s.topology); // a name, not a path
        o.insert("design", s.design);
    }
    for (const auto& [key, value] : {std::pair{"nodeNameMap", s.nodeNameMap},
                                     std::pair{"structure", s.structure}, std::pair{"run", s.run}})
        if (!value.isEmpty()) o.insert(key, relative(value, dir));
    if (!s.selection.isEmpty()) o.insert("selection", s.selection);
    if (!s.compareRun.isEmpty()) {
        QJsonObject c{{"run", relative(s.compareRun, dir)}, {"linkedCameras", s.camerasLinked}};
        if (s.compareIsBaseline) c.insert("baseline", true);
        if (!s.compareTopology.isEmpty()) c.insert("topology", relative(s.compareTopology, dir));
        o.insert("compare", c);
    }
    QJsonArray marks;
    for (const views::CameraBookmark& b : s.bookmarks)
        marks.append(views::bookmarkToJson(b));
    o.insert("bookmarks", marks);
    o.insert("docks", QString::fromLatin1(s.docks.toBase64()));
    return QJsonDocument(o).toJson(QJsonDocument::Indented);
}

Session parseSession(const QByteArray& text, const QString& sessionPath) {
    const QDir dir = QFileInfo(sessionPath).absoluteDir();
    return readJsonDocument(text, sessionPath.toStdString(),
                            [&](const QJsonDocument& doc) { return readDocument(doc, dir); });
}

bool looksLikeSession(const QByteArray& head) {
    return head.left(4096).contains(kSessionFormat);
}

} // namespace cs::app
