#pragma once
// Named camera positions per topology (views::CameraBookmark), kept in QSettings.
#include "ViewState.h"

#include <QList>
#include <QString>

#include <vector>

namespace cs::app {

class CameraBookmarks {
public:
    explicit CameraBookmarks(QString topologyName) : topology_(std::move(topologyName)) {}
    QList<views::CameraBookmark> list() const;
    void save(const views::CameraBookmark& b); // replaces one of the same name
    // Many at once (a session's): one read and one write of the settings, not one per mark.
    void saveAll(const std::vector<views::CameraBookmark>& marks);
    void remove(const QString& name);

private:
    QString topology_;
};

} // namespace cs::app
