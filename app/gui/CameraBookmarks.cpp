#include "CameraBookmarks.h"

#include "ViewStateJson.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSettings>

namespace cs::app {
namespace {

QString key(const QString& topology) {
    return "cameraBookmarks/" + topology;
}

void write(const QString& topology, const QList<views::CameraBookmark>& list) {
    QJsonArray a;
    for (const views::CameraBookmark& b : list)
        a.append(views::bookmarkToJson(b));
    QSettings().setValue(key(topology),
                         QString::fromUtf8(QJsonDocument(a).toJson(QJsonDocument::Compact)));
}

} // namespace

QList<views::CameraBookmark> CameraBookmarks::list() const {
    QList<views::CameraBookmark> out;
    const QJsonArray a =
        QJsonDocument::fromJson(QSettings().value(key(topology_)).toString().toUtf8()).array();
    for (const QJsonValue& v : a) {
        QJsonObject o = v.toObject();
        // Before sessions and bookmarks shared one form, the pose stood beside the name.
        if (!o.contains("camera") && o.contains("position")) {
            QJsonObject pose;
            for (const char* k : {"position", "focalPoint", "viewUp"})
                pose.insert(k, o.take(k));
            o.insert("camera", pose);
        }
        try {
            out.append(views::readBookmark(JsonObjectReader(o, JsonPath())));
        } catch (const JsonFieldError&) {
            // Settings written by hand or by another version: skip what does not read.
        }
    }
    return out;
}

void CameraBookmarks::save(const views::CameraBookmark& b) {
    QList<views::CameraBookmark> l = list();
    l.removeIf([&](const views::CameraBookmark& x) { return x.name == b.name; });
    l.append(b);
    write(topology_, l);
}

void CameraBookmarks::saveAll(const std::vector<views::CameraBookmark>& marks) {
    QList<views::CameraBookmark> l = list();
    QHash<QString, qsizetype> at; // name -> place in l
    for (qsizetype i = 0; i < l.size(); ++i)
        at.insert(QString::fromStdString(l[i].name), i);
    for (const views::CameraBookmark& b : marks) {
        const QString name = QString::fromStdString(b.name);
        if (const auto it = at.constFind(name); it != at.constEnd()) {
            l[*it] = b;
        } else {
            at.insert(name, l.size());
            l.append(b);
        }
    }
    write(topology_, l);
}

void CameraBookmarks::remove(const QString& name) {
    QList<views::CameraBookmark> l = list();
    l.removeIf([&](const views::CameraBookmark& x) { return x.name == name.toStdString(); });
    write(topology_, l);
}

} // namespace cs::app
