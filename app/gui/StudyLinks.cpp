#include "StudyLinks.h"

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

StudyLinks::StudyLinks(MainWindow* window) : QObject(window), window_(window) {}

StudyWindow* StudyLinks::open(const QString& path, bool showErrors) {
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
        window_->reportFailure(tr("Cannot open study"), e.what(), showErrors);
        return nullptr;
    }
    auto* w = new StudyWindow(path, std::move(spec), std::move(results), variantCount, window_);
    connect(w, &StudyWindow::variantActivated, this,
            [this, w](int index) { openVariant(*w, index); });
    connect(w, &StudyWindow::variantsCompared, this,
            [this, w](int a, int b) { compareVariants(*w, a, b); });
    w->show();
    window_->statusBar()->showMessage(tr("Opened the study %1: %2").arg(path, w->statusText()),
                                      8000);
    return w;
}

bool StudyLinks::openVariant(const StudyWindow& study, int index, bool showErrors) {
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
        window_->reportFailure(tr("Cannot open the variant"), e.what(), showErrors);
        return false;
    }
    const QString text = QString::fromStdString(variantText(v->params));
    window_->showDesignOf(
        std::move(next),
        tr("Study %1, variant %2: %3").arg(study.resultPath()).arg(index).arg(text));
    const QString run = variantRun(study, index, *window_->document(), spec);
    if (run.isEmpty() || !window_->openRun(run, showErrors)) return false;
    ReplayController* replay = window_->replay();
    replay->clock()->seek(int64_t(replay->overview()->info.endNs / 2));
    window_->statusBar()->showMessage(tr("Study variant %1: %2").arg(index).arg(text), 10000);
    return true;
}

QString StudyLinks::variantRun(const StudyWindow& study, int index, const TopologyDocument& doc,
                               const RunSpec& spec) {
    // Its kept run, or the one simulated for it before, or one simulated now.
    const QString key = study.resultPath() + '#' + QString::number(index);
    const VariantResult* v = study.result(index);
    QString run = v ? keptRunOf(study.resultPath(), v->runPath) : QString();
    if (run.isEmpty() && QFileInfo::exists(runs_.value(key))) run = runs_.value(key);
    if (!run.isEmpty()) return run;
    run = window_->newRunStorePath(spec);
    if (!runWithProgress(window_, doc, spec, run)) return {};
    runs_.insert(key, run);
    return run;
}

bool StudyLinks::compareVariants(const StudyWindow& study, int a, int b, bool showErrors) {
    const VariantResult* vb = study.result(b);
    if (!vb) return false;
    QString runB;
    try {
        const std::unique_ptr<TopologyDocument> docB =
            studyVariantTopology(study.spec(), vb->params);
        runB = variantRun(study, b, *docB, studyVariantRunSpec(study.spec(), vb->params));
    } catch (const std::exception& e) {
        window_->reportFailure(tr("Cannot open the variant"), e.what(), showErrors);
        return false;
    }
    if (runB.isEmpty() || !openVariant(study, a, showErrors)) return false;
    if (!window_->compareWith(runB, showErrors)) return false;
    window_->statusBar()->showMessage(
        tr("Study variants %1 (A) and %2 (B) side by side").arg(a).arg(b), 10000);
    return true;
}

} // namespace cs::app
