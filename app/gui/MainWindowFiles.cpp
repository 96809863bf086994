// What the window opens and keeps. Runs: opening and keeping them (the runs folder, Save Run
// As, Open Recent), simulating into them (the Simulate dialog, run descriptions, a workload of
// many jobs with its Jobs dock), importing telemetry files and nccl-tests logs. Sessions: what
// the window shows, collected and restored. Designs saved as parameter files; screenshots,
// glTF scenes and movies of the view.
#include "BoundedFileRead.h"
#include "CameraBookmarks.h"
#include "ClusterRunRecorder.h"
#include "ClusterSimulation.h"
#include "CollectivesDock.h"
#include "ComparisonController.h"
#include "DesignDock.h"
#include "EntitySearch.h"
#include "InputError.h"
#include "LiveRecording.h"
#include "MainWindow.h"
#include "NewStoreFile.h"
#include "PlaybackClock.h"
#include "Presets.h"
#include "ProgressTask.h"
#include "ReplayController.h"
#include "RunSpecJson.h"
#include "RunTopology.h"
#include "SelectionSync.h"
#include "SimulationDialog.h"
#include "SimulationRun.h"
#include "StepBreakdownChart.h"
#include "SummaryPanel.h"
#include "TelemetryImportDialog.h"
#include "TopologyFile.h"
#include "TopologyFingerprint.h"
#include "TopologySource.h"
#include "ViewControls.h"
#include "ViewExports.h"
#include "VtkViewWidget.h"
#include "WorkloadDialog.h"

#include <QDateTime>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMessageBox>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTreeView>

namespace cs::app {

bool MainWindow::openRun(const QString& path, bool showErrors) {
    if (!doc_) return false;
    if (live_ && path != live_->storePath()) stopLive(); // another run: the recording ends
    try {
        replay_->open(path, *doc_); // a run that cannot be read leaves the open one open
        runPath_ = path;
    } catch (const std::exception& e) {
        reportFailure(tr("Cannot open run"), e.what(), showErrors);
        return false;
    }
    compare_->close(); // it compared the run that went
    collectives_->setDesigns(doc_.get(), nullptr);
    stepChart_->setSummary(replay_->summary());
    recent_.add(kRunPrefix + QFileInfo(path).absoluteFilePath());
    rebuildRecentMenu();
    statusBar()->showMessage(
        tr("Replaying %1: Space plays, arrows step, + and - change the speed").arg(path), 8000);
    return true;
}

bool MainWindow::openRunWithItsTopology(const QString& path, bool showErrors) {
    try {
        const RunInfo info = RunReader::runsIn(path).back();
        // The same name is not enough: a --set variant of a preset keeps the preset's name.
        const bool onThis = doc_ && doc_->topology().name == info.topology &&
                            topologyFingerprint(doc_->topology()) == info.fingerprint;
        if (!onThis) {
            // The design the store keeps, else the preset it names.
            std::unique_ptr<TopologyDocument> doc = topologyOfRun(info);
            if (!doc && presetParams(info.topology))
                doc = openTopologySource(QString::fromStdString("preset:" + info.topology), {});
            if (!doc)
                throw InputException({path.toStdString(),
                                      0,
                                      0,
                                      {},
                                      "the store keeps no design and no preset is named \"" +
                                          info.topology + "\": open its topology first"});
            adoptDocument(std::move(doc), {});
            designRun_.clear();
            designDock_->setDesign(doc_->params(), doc_->topology().name);
            designDock_->showFigures(doc_->stats());
        }
    } catch (const std::exception& e) {
        reportFailure(tr("Cannot open run"), e.what(), showErrors);
        return false;
    }
    return openRun(path, showErrors);
}

bool MainWindow::saveRunAs(const QString& path, bool showErrors) {
    if (runPath_.isEmpty()) return false;
    const QString from = QFileInfo(runPath_).absoluteFilePath();
    const QString to = QFileInfo(path).absoluteFilePath();
    if (from == to) return true;
    // A store's writers close it checkpointed: the file alone is the run. Written beside
    // the destination first, so that a failed copy leaves no half file under its name.
    const QString part = to + ".part";
    QFile::remove(part);
    if (!QFile::copy(from, part) || (QFile::exists(to) && !QFile::remove(to)) ||
        !QFile::rename(part, to)) {
        QFile::remove(part);
        reportFailure(tr("Cannot save run"), qPrintable(tr("cannot write %1").arg(to)), showErrors);
        return false;
    }
    runPath_ = to;
    recent_.add(kRunPrefix + to);
    rebuildRecentMenu();
    statusBar()->showMessage(tr("Saved the run as %1").arg(to), 8000);
    return true;
}

bool MainWindow::openRunDescription(const QString& path, bool showErrors) {
    if (!doc_) return false;
    SimulationDialog dialog(doc_.get(), this);
    QString error;
    if (!dialog.loadRunFile(path, &error)) {
        if (showErrors)
            QMessageBox::critical(this, tr("Cannot open run description"), error);
        else
            qWarning("%s", qPrintable(error));
        return false;
    }
    recent_.add(kRunDescriptionPrefix + path);
    rebuildRecentMenu();
    runSimulationDialog(dialog);
    return true;
}

void MainWindow::simulateDialog() {
    if (!doc_) return;
    SimulationDialog dialog(doc_.get(), this);
    // From the open run's settings when it was simulated: its store keeps its run file.
    if (!runPath_.isEmpty()) {
        try {
            const RunInfo run = RunReader::runsIn(runPath_).back();
            if (run.kind == "simulated")
                dialog.setSpec(parseRunSpec(QByteArray::fromStdString(run.paramsJson),
                                            runPath_.toStdString()));
        } catch (const std::exception&) {
            // A recorded run, or one this build reads no settings from: the defaults.
        }
    }
    runSimulationDialog(dialog);
}

QString runsFolder() {
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)).filePath("runs");
}

QString MainWindow::keepImport(TelemetryImportDialog& dialog) {
    const QString path = newRunStorePath(QStringLiteral("recorded"));
    QString error;
    if (!dialog.keepAt(path, &error)) {
        reportFailure(tr("Cannot import"), qPrintable(error), true);
        return {};
    }
    return openRun(path) ? path : QString();
}

QString MainWindow::newRunStorePath(const RunSpec& spec) const {
    return newRunStorePath(QString::fromStdString(spec.model));
}

QString MainWindow::newRunStorePath(const QString& what) const {
    // Kept, not temporary: named after the model, the topology and when it ran, in the
    // runs folder of the user's data directory (File → Open Recent lists them).
    QDir().mkpath(runsFolder());
    QString topology = doc_ ? QString::fromStdString(doc_->topology().name) : QString("run");
    topology.replace(QRegularExpression("[^A-Za-z0-9._-]+"), "-");
    const QString base =
        QStringLiteral("%1-%2-%3")
            .arg(what, topology, QDateTime::currentDateTime().toString("yyyyMMdd-HHmmss"));
    QString path = QDir(runsFolder()).filePath(base + ".sqlite");
    for (int n = 2; QFileInfo::exists(path); ++n)
        path = QDir(runsFolder()).filePath(QStringLiteral("%1-%2.sqlite").arg(base).arg(n));
    return path;
}

void MainWindow::runSimulationDialog(SimulationDialog& dialog) {
    if (dialog.exec() != QDialog::Accepted) return;
    simulateAndOpen(dialog.spec());
}

QString MainWindow::simulateAndOpen(const RunSpec& spec) {
    if (!doc_) return {};
    const QString storePath = newRunStorePath(spec);
    const std::optional<RunResult> r = runWithProgress(this, *doc_, spec, storePath);
    if (!r) return {};
    // Opened through the reader like any run, paused at its start: the user plays it.
    if (!openRun(storePath)) return {};
    replay_->clock()->seek(replay_->clock()->startNs());
    if (auto* dock = findChild<QDockWidget*>("stepBreakdownDock")) dock->raise();
    const StepEstimate& e = r->step; // the summary's figures, as the run store keeps them
    addSummaryNote(tr("Simulated %1 on %2 GPUs: step %3 s, %4 TFLOP/s per GPU, MFU "
                      "%5%, bubble %6%, peak memory %7 GiB\n"
                      "(series in %8)")
                       .arg(QString::fromStdString(spec.model))
                       .arg(spec.parallel.gpus())
                       .arg(e.stepS, 0, 'f', 2)
                       .arg(e.tflopsPerGpu, 0, 'f', 0)
                       .arg(e.mfu * 100, 0, 'f', 1)
                       .arg(e.bubbleFraction * 100, 0, 'f', 1)
                       .arg(e.memory.totalGiB(), 0, 'f', 1)
                       .arg(storePath));
    statusBar()->showMessage(tr("Simulated: %1 s per step, %2 TFLOP/s per GPU")
                                 .arg(e.stepS, 0, 'f', 2)
                                 .arg(e.tflopsPerGpu, 0, 'f', 0));
    return storePath;
}

bool MainWindow::importNcclTestsLog(const QString& path) {
    if (auto* dock = findChild<QDockWidget*>("collectivesDock")) {
        dock->show();
        dock->raise();
    }
    return collectives_->importLog(path);
}

// Run -> Simulate Cluster Workload: the jobs simulated on the open topology, stored in the runs
// folder and opened with their Jobs dock.
void MainWindow::simulateClusterDialog() {
    if (!doc_) return;
    WorkloadDialog dialog(this);
    if (dialog.exec() != QDialog::Accepted) return;
    simulateClusterAndOpen(dialog.workload(), dialog.spanS(), dialog.workloadName());
}

QString MainWindow::simulateClusterAndOpen(const Workload& w, double spanS, const QString& name) {
    if (!doc_) return {};
    const QString storePath = newRunStorePath(QStringLiteral("cluster"));
    ClusterRunResult result;
    const ProgressOutcome o = runWithProgressDialog(
        this, tr("Simulating %1 jobs...").arg(w.jobs.size()),
        [&](std::function<void(double)> progress) {
            NewStoreFile created(storePath); // a cancelled or refused run leaves no file
            RunStore store = RunStore::openForWriting(storePath);
            ClusterRunRecorder recorder(doc_->topology(), "cluster: " + name.toStdString());
            result = simulateCluster(*doc_, w, spanS, progress,
                                     [&](double atS, const std::vector<ClusterFrameJob>& running) {
                                         recorder.frame(atS, running);
                                     });
            recorder.write(store, result);
            created.keep();
        });
    if (!o.error.isEmpty()) QMessageBox::critical(this, tr("Cluster simulation failed"), o.error);
    if (!o.done || o.cancelled) return {};
    if (!openRun(storePath)) return {};
    replay_->clock()->seek(replay_->clock()->startNs());
    int done = 0, refused = 0;
    double worst = 1;
    for (const ClusterJobResult& j : result.jobs) {
        done += j.state == ClusterJobState::Done;
        refused += j.state == ClusterJobState::Refused;
        worst = std::max(worst, j.slowdown());
    }
    addSummaryNote(
        tr("Simulated %1 jobs of %2 with the %3 scheduler over %4 h: %5 done, %6 "
           "refused, the most slowed by others x%7\n(series in %8)")
            .arg(result.jobs.size())
            .arg(name)
            .arg(QString::fromStdString(std::string(kSchedulerPolicyNames.name(result.scheduler))))
            .arg(result.simulatedS / 3600, 0, 'f', 1)
            .arg(done)
            .arg(refused)
            .arg(worst, 0, 'f', 3)
            .arg(storePath));
    statusBar()->showMessage(tr("Simulated %1 jobs: the Jobs dock lists them; colour by Run: Job")
                                 .arg(result.jobs.size()),
                             8000);
    return storePath;
}

// Sessions: what the window shows, collected and restored.
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
            selection_->show(*e, false); // the tree and the inspector too
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

// Designs, screenshots, scenes and movies written from the window.
bool MainWindow::saveScreenshot(const QString& path, QSize size, bool showErrors) {
    if (!doc_) return false;
    try {
        exports_->saveScreenshot(*doc_, path, size);
    } catch (const std::exception& e) {
        reportFailure(tr("Cannot save the screenshot"), e.what(), showErrors);
        return false;
    }
    statusBar()->showMessage(
        tr("Saved %1 (%2 x %3)").arg(path).arg(size.width()).arg(size.height()), 8000);
    return true;
}

bool MainWindow::exportScene(const QString& path, bool showErrors) {
    if (!doc_) return false;
    try {
        exports_->exportScene(path);
    } catch (const std::exception& e) {
        reportFailure(tr("Cannot export the scene"), e.what(), showErrors);
        return false;
    }
    statusBar()->showMessage(tr("Saved %1").arg(path), 8000);
    return true;
}

bool MainWindow::exportMovie(views::MovieRequest request, bool showErrors) {
    if (!doc_ || runPath_.isEmpty()) return false;
    bool done = false;
    try {
        done = exports_->exportMovie(*doc_, runPath_, request);
    } catch (const std::exception& e) {
        reportFailure(tr("Cannot export the movie"), e.what(), showErrors);
        return false;
    }
    if (done)
        statusBar()->showMessage(
            tr("Saved %1 (%2 frames)").arg(request.out).arg(views::movieFrameCount(request)), 8000);
    return done;
}

bool MainWindow::saveDesign(const QString& path, bool showErrors,
                            const std::optional<DesignIdentity>& identity) {
    if (!doc_ || !doc_->params()) return false;
    const std::string name =
        identity ? identity->name.toStdString() : QFileInfo(path).completeBaseName().toStdString();
    const std::string description =
        identity ? identity->description.toStdString() : doc_->topology().description;
    try {
        writeFileAtomically(path, paramsTopologyDocument(name, *doc_->params(), description));
    } catch (const std::exception& e) {
        reportFailure(tr("Cannot save the design"), e.what(), showErrors);
        return false;
    }
    // The design is that file now: titles, runs made on it and sessions say its name. Not while
    // a run made under the old name is open (its store would no longer match the design): it
    // keeps that name until the file is opened.
    if (!runPath_.isEmpty() || live_) {
        statusBar()->showMessage(tr("Saved the design as %1; the open run keeps the design's "
                                    "name until the file is opened")
                                     .arg(path),
                                 8000);
        return true;
    }
    summaryPanel_->finishBillOfMaterials(); // its thread reads the topology
    doc_->rename(name, description, QFileInfo(path).absoluteFilePath().toStdString());
    setWindowTitle(tr("%1 - ClusterScope").arg(QString::fromStdString(name)));
    showSummary();
    statusBar()->showMessage(tr("Saved the design as %1").arg(path), 8000);
    return true;
}

} // namespace cs::app
