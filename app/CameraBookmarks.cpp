#include "CameraBookmarks.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSettings>

namespace cs::app {
namespace {

QJsonArray vec(const double v[3]) {
    return {v[0], v[1], v[2]};
}
bool readVec(const QJsonValue& j, double out[3]) {
    const QJsonArray a = j.toArray();
    if (a.size() != 3) return false;
    for (int i = 0; i < 3; ++i) {
        if (!a[i].isDouble()) return false;
        out[i] = a[i].toDouble();
    }
    return true;
}
QString key(const QString& topology) {
    return "cameraBookmarks/" + topology;
}

void write(const QString& topology, const QList<CameraBookmark>& list) {
    QJsonArray a;
    for (const CameraBookmark& b : list)
        a.append(QJsonObject{{"name", b.name},
                             {"layout", b.layout},
                             {"position", vec(b.pose.position)},
                             {"focalPoint", vec(b.pose.focalPoint)},
                             {"viewUp", vec(b.pose.viewUp)}});
    QSettings().setValue(key(topology),
                         QString::fromUtf8(QJsonDocument(a).toJson(QJsonDocument::Compact)));
}

} // namespace

QList<CameraBookmark> CameraBookmarks::list() const {
    QList<CameraBookmark> out;
    const QJsonArray a =
        QJsonDocument::fromJson(QSettings().value(key(topology_)).toString().toUtf8()).array();
    for (const QJsonValue& v : a) {
        const QJsonObject o = v.toObject();
        CameraBookmark b;
        b.name = o["name"].toString();
        b.layout = o["layout"].toString();
        // Settings written by hand or by another version: skip what does not read.
        if (b.name.isEmpty() || !readVec(o["position"], b.pose.position) ||
            !readVec(o["focalPoint"], b.pose.focalPoint) || !readVec(o["viewUp"], b.pose.viewUp))
            continue;
        out.append(b);
    }
    return out;
}

void CameraBookmarks::save(const CameraBookmark& b) {
    QList<CameraBookmark> l = list();
    l.removeIf([&](const CameraBookmark& x) { return x.name == b.name; });
    l.append(b);
    write(topology_, l);
}

void CameraBookmarks::remove(const QString& name) {
    QList<CameraBookmark> l = list();
    l.removeIf([&](const CameraBookmark& x) { return x.name == name; });
    write(topology_, l);
}

} // namespace cs::app
