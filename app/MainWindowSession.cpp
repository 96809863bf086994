// MainWindow's sessions: collecting what the window shows and restoring it.
#include "CameraBookmarks.h"
#include "MainWindow.h"
#include "ReplayController.h"
#include "TopologyFile.h"
#include "ViewControls.h"
#include "VtkViewWidget.h"

#include "BoundedFileRead.h"
#include "PlaybackClock.h"

#include <QComboBox>
#include <QMessageBox>
#include <QStatusBar>
#include <QTreeView>

namespace cs::app {

Session MainWindow::currentSession() const {
    Session s;
    if (!doc_) return s;
    s.topology = QString::fromStdString(doc_->source());
    s.nodeNameMap = QString::fromStdString(read_.nodeNameMap);
    s.structure = QString::fromStdString(read_.structureFile);
    s.run = runPath_;
    if (!runPath_.isEmpty()) s.timeNs = replay_->clock()->nowNs();
    s.layout = view_->scene().layoutKind() == LayoutKind::Fabric ? "fabric" : "floor";
    s.colour = controls_->colourBox()->currentText();
    s.aggregate = aggregateName(view_->scene().aggregate());
    s.camera = view_->cameraPose();
    if (const auto& sel = view_->scene().selection())
        s.selection = QString::fromStdString(doc_->topology().nameOf(sel->entity));
    for (const CameraBookmark& b :
         CameraBookmarks(QString::fromStdString(doc_->topology().name)).list())
        s.bookmarks.push_back({b.name, b.layout, b.pose});
    s.docks = saveState();
    return s;
}

bool MainWindow::saveSession(const QString& path, bool showErrors) {
    try {
        writeFileAtomically(path, sessionDocument(currentSession(), path));
    } catch (const std::exception& e) {
        reportFailure(tr("Cannot save the session"), e.what(), showErrors);
        return false;
    }
    statusBar()->showMessage(tr("Saved the session %1").arg(path), 8000);
    return true;
}

bool MainWindow::openSession(const QString& path, bool showErrors) {
    Session s;
    try {
        s = parseSession(readFileBounded(path, 16 << 20), path);
    } catch (const std::exception& e) {
        reportFailure(tr("Cannot open the session"), e.what(), showErrors);
        return false;
    }
    TopologyReadOptions read;
    read.nodeNameMap = s.nodeNameMap.toStdString();
    read.structureFile = s.structure.toStdString();
    if (!openSource(s.topology, showErrors, read)) return false;
    if (!s.run.isEmpty() && !openRun(s.run, showErrors)) return false;
    controls_->layoutBox()->setCurrentIndex(s.layout == "fabric" ? 1 : 0);
    if (const int i = controls_->colourBox()->findText(s.colour); i >= 0)
        controls_->colourBox()->setCurrentIndex(i);
    controls_->aggregateBox()->setCurrentIndex(
        int(parseAggregate(s.aggregate.toStdString()).value_or(Aggregate::Mean)));
    if (!s.selection.isEmpty() && !selectById(s.selection))
        qWarning("%s: the selection %s is not in the topology", qPrintable(path),
                 qPrintable(s.selection));
    if (s.camera) view_->setCameraPose(*s.camera); // after the selection, which flies to it
    if (!s.run.isEmpty()) replay_->clock()->seek(s.timeNs);
    CameraBookmarks marks(QString::fromStdString(doc_->topology().name));
    for (const SessionBookmark& b : s.bookmarks)
        marks.save({b.name, b.layout, b.pose});
    if (!s.docks.isEmpty()) restoreState(s.docks);
    statusBar()->showMessage(tr("Opened the session %1").arg(path), 8000);
    return true;
}

} // namespace cs::app
