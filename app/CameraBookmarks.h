#pragma once
// Named camera positions per topology, kept in QSettings.
#include "VtkViewWidget.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace cs::app {

struct CameraBookmark {
    QString name;
    QString layout; // "floor" or "fabric"
    views::CameraPose pose;
};

class CameraBookmarks {
public:
    explicit CameraBookmarks(QString topologyName) : topology_(std::move(topologyName)) {}
    QList<CameraBookmark> list() const;
    void save(const CameraBookmark& b); // replaces one of the same name
    void remove(const QString& name);

private:
    QString topology_;
};

} // namespace cs::app
