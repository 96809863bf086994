// MainWindow's sessions: collecting what the window shows and restoring it.
#include "CameraBookmarks.h"
#include "ComparisonController.h"
#include "DesignDock.h"
#include "EntitySearch.h"
#include "MainWindow.h"
#include "ReplayController.h"
#include "TopologyFile.h"
#include "ViewControls.h"
#include "VtkViewWidget.h"

#include "BoundedFileRead.h"
#include "PlaybackClock.h"

#include <QFileInfo>
#include <QJsonDocument>
#include <QMessageBox>
#include <QStatusBar>
#include <QTreeView>

namespace cs::app {

Session MainWindow::currentSession() const {
    Session s;
    if (!doc_) return s;
    s.topology = QString::fromStdString(doc_->source());
    if (s.topology.startsWith(QString::fromStdString(kDesignSource)) && doc_->params())
        s.design =
            QJsonDocument::fromJson(paramsTopologyDocument(doc_->topology().name, *doc_->params(),
                                                           doc_->topology().description))
                .object();
    s.nodeNameMap = QString::fromStdString(read_.nodeNameMap);
    s.structure = QString::fromStdString(read_.structureFile);
    s.run = runPath_;
    if (!runPath_.isEmpty()) s.timeNs = replay_->clock()->nowNs();
    s.view = view_->state();
    if (const auto& sel = s.view.selection)
        s.selection = QString::fromStdString(doc_->topology().nameOf(sel->entity));
    for (const views::CameraBookmark& b :
         CameraBookmarks(QString::fromStdString(doc_->topology().name)).list())
        s.bookmarks.push_back(b);
    if (compare_->isOpen()) {
        s.compareRun = compare_->runPathB();
        // A topology the store cannot give back (a file, a preset under another name).
        const QString source = QString::fromStdString(compare_->documentB()->source());
        if (source.startsWith("preset:") || QFileInfo::exists(source)) s.compareTopology = source;
        s.camerasLinked = compare_->camerasLinked();
        s.compareIsBaseline = compare_->secondIsBaseline();
    }
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

bool MainWindow::openDesign(const QJsonObject& design, const QString& origin, bool showErrors) {
    std::unique_ptr<TopologyDocument> next;
    try {
        LoadedTopology loaded =
            parseTopologyText(QJsonDocument(design).toJson(), origin.toStdString() + ": design");
        const std::string name = loaded.topology.name;
        next = std::make_unique<TopologyDocument>(std::move(loaded), kDesignSource + name);
    } catch (const std::exception& e) {
        reportFailure(tr("Cannot open the design"), e.what(), showErrors);
        return false;
    }
    adoptDocument(std::move(next), {});
    designRun_.clear();
    designDock_->setDesign(doc_->params(), doc_->topology().name);
    designDock_->showFigures(doc_->stats());
    return true;
}

bool MainWindow::openSession(const QString& path, bool showErrors) {
    // A session names files: a pipe or a device in their place would block the window on
    // open (a pipe waits for a writer), so only regular files are read.
    auto notAFile = [](const QString& file) {
        const QFileInfo info(file);
        return info.exists() && !info.isFile() && !info.isDir();
    };
    Session s;
    try {
        if (notAFile(path))
            throw std::runtime_error(path.toStdString() +
                                     ": not a regular file (a pipe or a device)");
        s = parseSession(readFileBounded(path, 16 << 20), path);
        for (const QString& file :
             {s.topology, s.nodeNameMap, s.structure, s.run, s.compareRun, s.compareTopology})
            if (!file.isEmpty() && notAFile(file))
                throw std::runtime_error(path.toStdString() + ": names " + file.toStdString() +
                                         ", which is not a regular file (a pipe or a device)");
    } catch (const std::exception& e) {
        reportFailure(tr("Cannot open the session"), e.what(), showErrors);
        return false;
    }
    TopologyReadOptions read;
    read.nodeNameMap = s.nodeNameMap.toStdString();
    read.structureFile = s.structure.toStdString();
    if (!(s.design.isEmpty() ? openSource(s.topology, showErrors, read)
                             : openDesign(s.design, path, showErrors)))
        return false;
    if (!s.run.isEmpty() && !openRun(s.run, showErrors)) return false;
    if (!s.compareRun.isEmpty()) {
        if (auto* link = findChild<QAction*>("linkCamerasAction"))
            link->setChecked(s.camerasLinked);
        if (!compareWith(s.compareRun, showErrors, s.compareTopology, s.compareIsBaseline))
            return false;
    }
    views::ViewState view = s.view;
    if (view.metric == views::ValueMetric::Run && s.run.isEmpty())
        view = views::coloredBy(view, views::ValueMetric::None); // no run to colour by
    if (view.role == views::GpuRole::Job && !replay_->hasJobs())
        view.role = views::GpuRole::None; // the run lists no jobs to colour by
    if (view.metric == views::ValueMetric::Difference && !compare_->isOpen())
        view = views::coloredBy(view, views::ValueMetric::Run);
    if (!s.selection.isEmpty()) {
        if (const std::optional<Endpoint> e = findEntity(*doc_, s.selection.toStdString())) {
            view.selection = PickHit{*e, kNone, 0};
            showSelected(*e, false); // the tree and the inspector too
        } else {
            qWarning("%s: the selection %s is not in the topology", qPrintable(path),
                     qPrintable(s.selection));
        }
    }
    view_->applyState(view);
    if (!s.run.isEmpty()) replay_->clock()->seek(s.timeNs);
    CameraBookmarks(QString::fromStdString(doc_->topology().name)).saveAll(s.bookmarks);
    if (!s.docks.isEmpty()) restoreState(s.docks);
    statusBar()->showMessage(tr("Opened the session %1").arg(path), 8000);
    return true;
}

} // namespace cs::app
