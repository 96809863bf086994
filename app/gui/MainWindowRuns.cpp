// The window's runs: opening and keeping them (the runs folder, Save Run As, Open Recent),
// simulating into them (the Simulate dialog, run descriptions), importing telemetry files and
// nccl-tests logs.
#include "CollectivesDock.h"
#include "ComparisonController.h"
#include "DesignDock.h"
#include "InputError.h"
#include "LiveRecording.h"
#include "MainWindow.h"
#include "Presets.h"
#include "ReplayController.h"
#include "RunSpecJson.h"
#include "RunTopology.h"
#include "SimulationDialog.h"
#include "SimulationRun.h"
#include "StepBreakdownChart.h"
#include "TelemetryImportDialog.h"
#include "TopologyFingerprint.h"
#include "TopologySource.h"

#include <QDateTime>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QJsonObject>
#include <QMessageBox>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QStatusBar>

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
    const QJsonObject s = runSummaryJson(*r, spec);
    addSummaryNote(tr("Simulated %1 on %2 GPUs: step %3 s, %4 TFLOP/s per GPU, MFU "
                      "%5%, bubble %6%, peak memory %7 GiB\n"
                      "(series in %8)")
                       .arg(QString::fromStdString(spec.model))
                       .arg(spec.parallel.gpus())
                       .arg(s["stepTimeS"].toDouble(), 0, 'f', 2)
                       .arg(s["tflopsPerGpu"].toDouble(), 0, 'f', 0)
                       .arg(s["mfu"].toDouble() * 100, 0, 'f', 1)
                       .arg(s["bubbleFraction"].toDouble() * 100, 0, 'f', 1)
                       .arg(s["peakMemoryGiB"].toDouble(), 0, 'f', 1)
                       .arg(storePath));
    statusBar()->showMessage(tr("Simulated: %1 s per step, %2 TFLOP/s per GPU")
                                 .arg(s["stepTimeS"].toDouble(), 0, 'f', 2)
                                 .arg(s["tflopsPerGpu"].toDouble(), 0, 'f', 0));
    return storePath;
}

bool MainWindow::importNcclTestsLog(const QString& path) {
    if (auto* dock = findChild<QDockWidget*>("collectivesDock")) {
        dock->show();
        dock->raise();
    }
    return collectives_->importLog(path);
}

} // namespace cs::app
