#include "SessionFile.h"

#include "FrameValues.h"
#include "JsonObjectReader.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace cs::app {
namespace {

constexpr int kSessionVersion = 1;

QJsonArray vec(const double v[3]) {
    return {v[0], v[1], v[2]};
}

QJsonObject poseJson(const views::CameraPose& p) {
    return {{"position", vec(p.position)},
            {"focalPoint", vec(p.focalPoint)},
            {"viewUp", vec(p.viewUp)}};
}

void readVec(JsonObjectReader& r, const char* key, double out[3]) {
    const QJsonArray a = r.array(key, 3);
    if (a.size() != 3) r.fail(key, "expected three numbers [x, y, z]");
    for (int i = 0; i < 3; ++i) {
        if (!a[i].isDouble() || !std::isfinite(a[i].toDouble()) || std::abs(a[i].toDouble()) > 1e12)
            throw JsonFieldError(r.pathOf(key).child(i), "expected a finite number");
        out[i] = a[i].toDouble();
    }
}

views::CameraPose readPose(JsonObjectReader r) {
    views::CameraPose p;
    readVec(r, "position", p.position);
    readVec(r, "focalPoint", p.focalPoint);
    readVec(r, "viewUp", p.viewUp);
    r.finish();
    return p;
}

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
    s.topology = absolute(QString::fromStdString(r.string("topology")), dir);
    s.nodeNameMap = absolute(text("nodeNameMap"), dir);
    s.structure = absolute(text("structure"), dir);
    s.run = absolute(text("run"), dir);
    s.timeNs = r.integer("timeNs", 0, std::numeric_limits<int64_t>::max() / 2, 0);
    s.layout = QString::fromStdString(r.string("layout", "floor"));
    if (s.layout != "floor" && s.layout != "fabric") r.fail("layout", "expected floor or fabric");
    s.colour = text("colour");
    s.aggregate = QString::fromStdString(r.string("aggregate", "mean"));
    if (!parseAggregate(s.aggregate.toStdString()))
        r.fail("aggregate", std::string("expected ") + kAggregateChoices);
    if (r.has("camera")) s.camera = readPose(r.object("camera"));
    s.selection = text("selection");
    const QJsonArray marks = r.array("bookmarks", 10'000);
    for (qsizetype i = 0; i < marks.size(); ++i) {
        JsonObjectReader b(marks[i], r.pathOf("bookmarks").child(int(i)));
        SessionBookmark m;
        m.name = QString::fromStdString(b.string("name"));
        m.layout = QString::fromStdString(b.string("layout", "floor"));
        m.pose = readPose(b.object("camera"));
        b.finish();
        s.bookmarks.push_back(m);
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
                  {"timeNs", qint64(s.timeNs)},
                  {"layout", s.layout},
                  {"aggregate", s.aggregate}};
    for (const auto& [key, value] : {std::pair{"nodeNameMap", s.nodeNameMap},
                                     std::pair{"structure", s.structure}, std::pair{"run", s.run}})
        if (!value.isEmpty()) o.insert(key, relative(value, dir));
    if (!s.colour.isEmpty()) o.insert("colour", s.colour);
    if (s.camera) o.insert("camera", poseJson(*s.camera));
    if (!s.selection.isEmpty()) o.insert("selection", s.selection);
    QJsonArray marks;
    for (const SessionBookmark& b : s.bookmarks)
        marks.append(
            QJsonObject{{"name", b.name}, {"layout", b.layout}, {"camera", poseJson(b.pose)}});
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
