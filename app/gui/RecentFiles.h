#pragma once
// The most recently opened topologies ("preset:NAME" or file paths), kept in QSettings.
#include <QStringList>

namespace cs::app {

class RecentFiles {
public:
    static constexpr int kMax = 8;
    QStringList list() const;
    void add(const QString& source); // moves it to the front
    void remove(const QString& source);
};

} // namespace cs::app
