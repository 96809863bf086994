#include "RecentFiles.h"

#include <QSettings>

namespace cs::app {

namespace {
constexpr const char* kKey = "recentTopologies";
}

QStringList RecentFiles::list() const {
    return QSettings().value(kKey).toStringList();
}

void RecentFiles::add(const QString& source) {
    QStringList l = list();
    l.removeAll(source);
    l.prepend(source);
    while (l.size() > kMax)
        l.removeLast();
    QSettings().setValue(kKey, l);
}

void RecentFiles::remove(const QString& source) {
    QStringList l = list();
    l.removeAll(source);
    QSettings().setValue(kKey, l);
}

} // namespace cs::app
