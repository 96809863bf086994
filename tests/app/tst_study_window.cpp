// File → Open Study as a designer uses it: a study's result file opens its chart in a window
// of its own with the variants counted; clicking a variant opens its design in the main
// window (the Design dock shows the variant's values) with its kept run, or a run simulated
// for it then and reopened on the next click; files that are not results are refused with
// their error, and the window stays as it was; --study opens the chart from the command line.
#include "ComparisonController.h"
#include "DesignDock.h"
#include "GuiOptions.h"
#include "MainWindow.h"
#include "RunComparison.h"
#include "RunReader.h"
#include "RunSpecJson.h"
#include "StudyChartWidget.h"
#include "StudySpec.h"
#include "StudyStore.h"
#include "StudyVariantRun.h"
#include "StudyWindow.h"
#include "VtkSurfaceFormat.h"

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <qcustomplot.h>

using cs::app::MainWindow;
using cs::app::StudyWindow;

namespace {

const QByteArray kStudy = R"({"format": "clusterscope-study", "version": 1,
  "topology": {"preset": "small-256"},
  "run": {"model": "llama3-8b", "parallel": {"tp": 8, "pp": 1, "dp": 32, "virtualStages": 1,
                                "batchTokens": 2097152},
          "steps": 1},
  "axes": {"design.generator.clusters[0].oversubscription": [1, 2, 4],
           "run.parallel.placement": ["topology", "fragmented"]},
  "record": ["stepTimeS", "mfu", "cost.perGpu"]})";

const char* kOversub = "generator.clusters[0].oversubscription";

// Clicks variant `index`'s point on the study window's chart.
void clickVariant(StudyWindow& s, int index, Qt::KeyboardModifiers modifiers = {}) {
    const std::optional<QPointF> at = s.chart()->pixelOf(index);
    QVERIFY2(at, qPrintable(QString("variant %1 is not on the chart").arg(index)));
    QTest::mouseClick(s.chart()->plot(), Qt::LeftButton, modifiers, at->toPoint());
}

} // namespace

class TestStudyWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void opensTheChartAndAVariantsDesignAndRun();
    void badFilesAreRefusedWithTheirError_data();
    void badFilesAreRefusedWithTheirError();
    void theErrorIsShownInAMessageBox();
    void studyOptionOpensTheChart();
    void ctrlClickComparesTwoVariants();

private:
    QTemporaryDir dir_;
    QString results_, keptRun_;
};

// The study's six variants as `clusterscope study` leaves them: 4:1 topology failed, 4:1
// fragmented simulated with its run kept, the others with figures that make a front.
void TestStudyWindow::initTestCase() {
    const cs::StudySpec spec = cs::parseStudy(kStudy, "study.json", dir_.path());
    const std::vector<QJsonObject> variants = cs::studyVariants(spec);
    QCOMPARE(variants.size(), size_t(6));
    results_ = dir_.filePath("results.sqlite");
    QVERIFY(QDir(dir_.path()).mkpath("results-runs"));
    keptRun_ = dir_.filePath("results-runs/variant-5.sqlite");
    cs::StudyStore store = cs::StudyStore::openForStudy(results_, spec.canonical, 6);
    for (int i = 0; i < 6; ++i) {
        cs::VariantResult r{i, variants[size_t(i)], true, "", {}, "", 0.1};
        if (i == 4) {
            r.ok = false;
            r.message = "refused";
        } else if (i == 5) {
            const cs::VariantFigures f = cs::runStudyVariant(spec, r.params, keptRun_);
            r.figures = f.figures;
            r.runPath = f.runPath;
        } else {
            const double oversub = r.params.value("design." + QString(kOversub)).toDouble();
            r.figures = {
                {"stepTimeS", 1 + 0.01 * i}, {"mfu", 0.4}, {"cost.perGpu", 50000 / oversub}};
        }
        store.record(r);
    }
}

void TestStudyWindow::opensTheChartAndAVariantsDesignAndRun() {
    MainWindow w;
    w.resize(1200, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openSource("preset:small-256", false));
    StudyWindow* s = w.openStudy(results_, false);
    QVERIFY(s);
    QVERIFY(QTest::qWaitForWindowExposed(s));
    QVERIFY2(s->statusText().startsWith("6 variants: 5 ok, 1 failed"), qPrintable(s->statusText()));
    QCOMPARE(s->findChild<QLabel*>("studyStatus")->text(), s->statusText());
    QCOMPARE(s->chart()->data().pointCount(), size_t(5));
    // The Design dock's field, as the dock shows it now (a new design builds a new form).
    auto shown = [&w] {
        auto* field = w.designDock()->findChild<QLineEdit*>(kOversub);
        return field ? field->text() : QString("(no field)");
    };
    QCOMPARE(shown(), QString("2")); // small-256 as shipped

    // 1:1 with the topology placement: its design, and its run simulated now.
    clickVariant(*s, 0);
    QCOMPARE(w.document()->stats().oversubscription, 1.0);
    QCOMPARE(shown(), QString("1"));
    // Named from what changed, as every --set variant is.
    QCOMPARE(QString::fromStdString(w.document()->topology().name),
             QString("small-256 \u00b7 oversubscription 1"));
    const QString simulated = w.runPath();
    QVERIFY(QFileInfo::exists(simulated));
    const cs::RunSpec ran = cs::parseRunSpec(
        QByteArray::fromStdString(cs::RunReader::runsIn(simulated).back().paramsJson), "run");
    QCOMPARE(ran.parallel.placement, cs::Placement::TopologyAware);
    QCOMPARE(ran.parallel.dp, 32);
    // A session keeps the variant's design, not the preset as shipped.
    QVERIFY(!w.currentSession().design.isEmpty());

    // 4:1 fragmented: the run the study kept.
    clickVariant(*s, 5);
    QCOMPARE(w.document()->stats().oversubscription, 4.0);
    QCOMPARE(shown(), QString("4"));
    QCOMPARE(w.runPath(), keptRun_);

    // Back to the first: its run is not simulated again.
    clickVariant(*s, 0);
    QCOMPARE(w.runPath(), simulated);
    QCOMPARE(w.document()->stats().oversubscription, 1.0);
}

void TestStudyWindow::badFilesAreRefusedWithTheirError_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<QByteArray>("content"); // empty: no such file
    QTest::addColumn<QString>("error");
    QTest::newRow("no such file") << "missing.sqlite" << QByteArray()
                                  << "missing.sqlite: no such file";
    QTest::newRow("text") << "notes.sqlite" << QByteArray("not a database\n") << "notes.sqlite";
    QTest::newRow("a study file, not its results") << "study.sqlite" << kStudy << "study.sqlite";
}

void TestStudyWindow::badFilesAreRefusedWithTheirError() {
    QFETCH(QString, name);
    QFETCH(QByteArray, content);
    QFETCH(QString, error);
    const QString path = dir_.filePath(name);
    if (!content.isEmpty()) {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(content);
    }
    MainWindow w;
    QVERIFY(w.openSource("preset:small-256", false));
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QRegularExpression::escape(error)));
    QVERIFY(!w.openStudy(path, false));
    QVERIFY(!w.findChild<StudyWindow*>());
    QCOMPARE(QString::fromStdString(w.document()->topology().name), QString("small-256"));
}

void TestStudyWindow::theErrorIsShownInAMessageBox() {
    MainWindow w;
    QVERIFY(w.openSource("preset:small-256", false));
    QString shown;
    QTimer::singleShot(0, &w, [&shown] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        if (!box) return;
        shown = box->windowTitle() + ": " + box->text();
        box->accept();
    });
    QVERIFY(!w.openStudy(dir_.filePath("nothing-here.sqlite")));
    QVERIFY2(shown.startsWith("Cannot open study: ") && shown.contains("nothing-here.sqlite"),
             qPrintable(shown));
}

void TestStudyWindow::studyOptionOpensTheChart() {
    const cs::app::GuiOptions o =
        cs::app::parseGuiOptions({"gui", "--preset", "small-256", "--study", results_});
    QCOMPARE(o.study, results_);
    MainWindow w;
    QCOMPARE(cs::app::openFromOptions(w, o), QString());
    StudyWindow* s = w.findChild<StudyWindow*>();
    QVERIFY(s);
    QCOMPARE(s->resultPath(), results_);
    cs::app::GuiOptions bad = o;
    bad.study = dir_.filePath("missing.sqlite");
    MainWindow w2;
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression("missing.sqlite: no such file"));
    QVERIFY(cs::app::openFromOptions(w2, bad).contains("cannot open the study"));
    // --study-x, --study-y and --series set the chart's boxes as a user would; a name the study
    // does not offer is refused with those it does, and the flags need --study.
    const QStringList chart{"gui",    "--preset",  "small-256",   "--study",
                            results_, "--study-x", "cost.perGpu", "--study-y",
                            "mfu",    "--series",  "none"};
    MainWindow w3;
    QCOMPARE(cs::app::openFromOptions(w3, cs::app::parseGuiOptions(chart)), QString());
    cs::views::StudyChartWidget* c = w3.findChild<StudyWindow*>()->chart();
    QCOMPARE(c->findChild<QComboBox*>("studyX")->currentData().toString(), QString("cost.perGpu"));
    QCOMPARE(c->findChild<QComboBox*>("studyY")->currentData().toString(), QString("mfu"));
    QCOMPARE(c->findChild<QComboBox*>("studySeries")->currentData().toString(), QString());
    QCOMPARE(c->data().series.size(), size_t(1));
    MainWindow w4;
    const QString refused = cs::app::openFromOptions(
        w4, cs::app::parseGuiOptions(
                {"gui", "--preset", "small-256", "--study", results_, "--series", "colour"}));
    QVERIFY2(refused.startsWith("--series colour: the study offers none, ") &&
                 refused.contains(QString("design.") + kOversub),
             qPrintable(refused));
    try {
        (void)cs::app::parseGuiOptions({"gui", "--series", "none"});
        QFAIL("accepted without --study");
    } catch (const cs::app::UsageError& e) {
        QVERIFY2(QString(e.what()).contains("--series: expected --study"), e.what());
    }
}

// A variant opened, then another Ctrl-clicked: the first in the main view (A), the second's
// run beside it (B), the comparison table reading both runs' step times.
void TestStudyWindow::ctrlClickComparesTwoVariants() {
    MainWindow w;
    w.resize(1400, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openSource("preset:small-256", false));
    StudyWindow* s = w.openStudy(results_, false);
    QVERIFY(s && QTest::qWaitForWindowExposed(s));
    QVERIFY(!w.comparison()->isOpen());
    clickVariant(*s, 5, Qt::ControlModifier); // nothing open yet: opened alone
    QVERIFY(!w.comparison()->isOpen());
    QCOMPARE(w.runPath(), keptRun_);
    clickVariant(*s, 0);
    clickVariant(*s, 5, Qt::ControlModifier);
    QVERIFY(w.comparison()->isOpen());
    QCOMPARE(w.comparison()->runPathB(), keptRun_);
    QCOMPARE(w.document()->stats().oversubscription, 1.0); // A: variant 0's design
    QVERIFY(w.runPath() != keptRun_);
    const cs::ComparisonRow* step = w.comparison()->comparison().find("stepTimeS");
    QVERIFY(step);
    const auto stepOf = [](const QString& run) {
        return QJsonDocument::fromJson(
                   QByteArray::fromStdString(cs::RunReader::runsIn(run).back().summaryJson))
            .object()
            .value("stepTimeS")
            .toDouble();
    };
    QCOMPARE(step->a, stepOf(w.runPath()));
    QCOMPARE(step->b, stepOf(keptRun_));
    QVERIFY(s->statusText().contains("Ctrl+click"));
}

int main(int argc, char** argv) {
    cs::views::useVtkSurfaceFormat(); // as the app does
    QApplication app(argc, argv);
    TestStudyWindow t;
    return QTest::qExec(&t, argc, argv);
}
#include "tst_study_window.moc"
