// The window's cluster runs: a workload of many jobs simulated on the open topology (Run ->
// Simulate Cluster Workload), stored in the runs folder and opened with its Jobs dock.
#include "ClusterRunRecorder.h"
#include "ClusterSimulation.h"
#include "MainWindow.h"
#include "NewStoreFile.h"
#include "ProgressTask.h"
#include "ReplayController.h"
#include "WorkloadDialog.h"

#include <QDockWidget>
#include <QMessageBox>
#include <QStatusBar>

namespace cs::app {

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

} // namespace cs::app
