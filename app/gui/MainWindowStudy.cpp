// MainWindow's design studies: a result file's chart in a window of its own, and a variant
// clicked there opened here, design and run.
#include "DesignDock.h"
#include "MainWindow.h"
#include "PlaybackClock.h"
#include "ReplayController.h"
#include "SimulationDialog.h"
#include "StudyVariantRun.h"
#include "StudyWindow.h"

#include <QApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QStatusBar>

namespace cs::app {
namespace {

// A kept run as the result file names it (absolute, or relative to where the study ran),
// else relative to the result file's folder, else in its "-runs" folder beside it (the
// results moved together with their runs). Empty when none is there.
QString keptRunOf(const QString& resultPath, const QString& runPath) {
    if (runPath.isEmpty()) return {};
    const QFileInfo result(resultPath);
    const QString beside =
        result.dir().filePath(result.completeBaseName() + "-runs/" + QFileInfo(runPath).fileName());
    for (const QString& candidate : {runPath, result.dir().filePath(runPath), beside})
        if (QFileInfo(candidate).isFile()) return candidate;
    return {};
}

} // namespace

StudyWindow* MainWindow::openStudy(const QString& path, bool showErrors) {
    StudySpec spec;
    std::vector<VariantResult> results;
    int variantCount = 0;
    try {
        const StudyStore store = StudyStore::open(path);
        // Topology files the study names are where the study file was, else beside the
        // result file (both moved together).
        const QByteArray text = QJsonDocument(store.study()).toJson();
        const std::string name = path.toStdString() + ": study";
        try {
            spec = parseStudy(text, name, store.studyDir());
        } catch (const InputException&) {
            spec = parseStudy(text, name, QFileInfo(path).absolutePath()); // moved together
        }
        results = store.results();
        variantCount = store.variantCount();
    } catch (const std::exception& e) {
        reportFailure(tr("Cannot open study"), e.what(), showErrors);
        return nullptr;
    }
    auto* w = new StudyWindow(path, std::move(spec), std::move(results), variantCount, this);
    connect(w, &StudyWindow::variantActivated, this,
            [this, w](int index) { openStudyVariant(*w, index); });
    connect(w, &StudyWindow::variantsCompared, this,
            [this, w](int a, int b) { compareStudyVariants(*w, a, b); });
    w->show();
    statusBar()->showMessage(tr("Opened the study %1: %2").arg(path, w->statusText()), 8000);
    return w;
}

bool MainWindow::openStudyVariant(const StudyWindow& study, int index, bool showErrors) {
    const VariantResult* v = study.result(index);
    if (!v) return false;
    std::unique_ptr<TopologyDocument> next;
    RunSpec spec;
    try {
        QApplication::setOverrideCursor(Qt::WaitCursor);
        std::unique_ptr<TopologyDocument> made = studyVariantTopology(study.spec(), v->params);
        spec = studyVariantRunSpec(study.spec(), v->params);
        // A generated design is kept inline, as an edited one is, so that a session reopens
        // the variant's values; its name stays, so that a run kept for it opens on it.
        if (made->params())
            next = std::make_unique<TopologyDocument>(Topology(made->topology()), made->params(),
                                                      kDesignSource + made->topology().name);
        else
            next = std::move(made);
        QApplication::restoreOverrideCursor();
    } catch (const std::exception& e) {
        QApplication::restoreOverrideCursor();
        reportFailure(tr("Cannot open the variant"), e.what(), showErrors);
        return false;
    }
    adoptDocument(std::move(next), {});
    designRun_.clear();
    designDock_->setDesign(doc_->params(), doc_->topology().name);
    designDock_->showFigures(doc_->stats());
    const QString text = QString::fromStdString(variantText(v->params));
    addSummaryNote(tr("Study %1, variant %2: %3").arg(study.resultPath()).arg(index).arg(text));
    const QString run = studyVariantRun(study, index, *doc_, spec);
    if (run.isEmpty() || !openRun(run, showErrors)) return false;
    replay_->clock()->seek(int64_t(replay_->overview()->info.endNs / 2));
    statusBar()->showMessage(tr("Study variant %1: %2").arg(index).arg(text), 10000);
    return true;
}

QString MainWindow::studyVariantRun(const StudyWindow& study, int index,
                                    const TopologyDocument& doc, const RunSpec& spec) {
    // Its kept run, or the one simulated for it before, or one simulated now.
    const QString key = study.resultPath() + '#' + QString::number(index);
    const VariantResult* v = study.result(index);
    QString run = v ? keptRunOf(study.resultPath(), v->runPath) : QString();
    if (run.isEmpty() && QFileInfo::exists(studyRuns_.value(key))) run = studyRuns_.value(key);
    if (!run.isEmpty()) return run;
    run = newRunStorePath(spec);
    if (!runWithProgress(this, doc, spec, run)) return {};
    studyRuns_.insert(key, run);
    return run;
}

bool MainWindow::compareStudyVariants(const StudyWindow& study, int a, int b, bool showErrors) {
    const VariantResult* vb = study.result(b);
    if (!vb) return false;
    QString runB;
    try {
        const std::unique_ptr<TopologyDocument> docB =
            studyVariantTopology(study.spec(), vb->params);
        runB = studyVariantRun(study, b, *docB, studyVariantRunSpec(study.spec(), vb->params));
    } catch (const std::exception& e) {
        reportFailure(tr("Cannot open the variant"), e.what(), showErrors);
        return false;
    }
    if (runB.isEmpty() || !openStudyVariant(study, a, showErrors)) return false;
    if (!compareWith(runB, showErrors)) return false;
    statusBar()->showMessage(tr("Study variants %1 (A) and %2 (B) side by side").arg(a).arg(b),
                             10000);
    return true;
}

} // namespace cs::app
