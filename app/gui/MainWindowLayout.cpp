// The window's layout kept between starts: size, docks, toolbars (QSettings).
#include "MainWindow.h"
#include "ReplayController.h"

#include <QCloseEvent>
#include <QDockWidget>
#include <QSettings>

namespace cs::app {

namespace {
constexpr int kLayoutVersion = 1; // raise when the docks change: older layouts are then ignored
} // namespace

void MainWindow::saveLayout() const {
    if (presenting_) return; // everything hidden: not a layout to come back to
    QSettings settings;
    settings.setValue("window/geometry", saveGeometry());
    settings.setValue("window/state", saveState(kLayoutVersion));
}

bool MainWindow::restoreLayout() {
    QSettings settings;
    const QByteArray geometry = settings.value("window/geometry").toByteArray();
    const QByteArray state = settings.value("window/state").toByteArray();
    if (geometry.isEmpty() || state.isEmpty()) return false;
    const bool ok = restoreGeometry(geometry) && restoreState(state, kLayoutVersion);
    // The replay's docks show with a run, whatever the layout said.
    if (!replay_->isOpen())
        for (const char* name : {"timelineDock", "chartsDock", "eventsDock"})
            if (auto* dock = findChild<QDockWidget*>(name)) dock->hide();
    return ok;
}

void MainWindow::closeEvent(QCloseEvent* e) {
    saveLayout();
    QMainWindow::closeEvent(e);
}

} // namespace cs::app
