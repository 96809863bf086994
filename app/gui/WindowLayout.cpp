#include "WindowLayout.h"

#include <QMainWindow>
#include <QSettings>

namespace cs::app {
namespace {
constexpr int kLayoutVersion = 1; // raise when the docks change: older layouts are then ignored
} // namespace

void saveWindowLayout(const QMainWindow& window) {
    QSettings settings;
    settings.setValue("window/geometry", window.saveGeometry());
    settings.setValue("window/state", window.saveState(kLayoutVersion));
}

bool restoreWindowLayout(QMainWindow& window) {
    QSettings settings;
    const QByteArray geometry = settings.value("window/geometry").toByteArray();
    const QByteArray state = settings.value("window/state").toByteArray();
    if (geometry.isEmpty() || state.isEmpty()) return false;
    return window.restoreGeometry(geometry) && window.restoreState(state, kLayoutVersion);
}

} // namespace cs::app
