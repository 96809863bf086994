// Run -> Simulate Cluster Workload, as a user meets it: a generated mix set in the form runs
// and opens with its jobs listed; a workload file fills the form and keeps its jobs; fields
// that do not read are marked and named; the form saves as a file the command line reads.
#include "JobsModel.h"
#include "MainWindow.h"
#include "ReplayController.h"
#include "WorkloadDialog.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QSpinBox>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace cs;
using cs::app::MainWindow;
using cs::app::WorkloadDialog;

class TestWorkloadDialog : public QObject {
    Q_OBJECT
private slots:
    void aGeneratedMixRunsAndOpensWithItsJobs();
    void aWorkloadFileFillsTheFormAndKeepsItsJobs();
    void fieldsThatDoNotReadAreMarked_data();
    void fieldsThatDoNotReadAreMarked();
};

namespace {

template <class W> W* field(WorkloadDialog& d, const char* name) {
    W* w = d.findChild<W*>(name);
    if (!w) qFatal("no field %s", name);
    return w;
}

// A small mix: 6 jobs of one or eight hosts over two hours, 10 to 30 minutes each.
void smallMix(WorkloadDialog& d) {
    field<QSpinBox>(d, "mix.jobs")->setValue(6);
    field<QLineEdit>(d, "mix.arrivalSpanS")->setText("2h");
    field<QLineEdit>(d, "mix.minDurationS")->setText("10m");
    field<QLineEdit>(d, "mix.maxDurationS")->setText("30m");
    field<QLineEdit>(d, "mix.sizes")->setText("8:1, 64:1");
}

} // namespace

void TestWorkloadDialog::aGeneratedMixRunsAndOpensWithItsJobs() {
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(w.openSource("preset:small-256", false));
    // The Run menu offers it.
    bool offered = false;
    for (QAction* a : w.menuBar()->findChildren<QAction*>())
        offered |= a->text() == "Simulate Cluster &Workload...";
    QVERIFY(offered);
    // No two menu entries share a shortcut (Qt would fire neither).
    QStringList shortcuts;
    for (QAction* a : w.menuBar()->findChildren<QAction*>())
        if (!a->shortcut().isEmpty()) shortcuts << a->shortcut().toString();
    for (const QString& k : shortcuts)
        QVERIFY2(shortcuts.count(k) == 1, qPrintable(k));
    WorkloadDialog d;
    smallMix(d);
    auto* scheduler = field<QComboBox>(d, "scheduler");
    scheduler->setCurrentIndex(scheduler->findData("first-fit"));
    QVERIFY2(d.check(), qPrintable(field<QLabel>(d, "problem")->text()));
    QCOMPARE(d.workload().jobs.size(), size_t(6));
    QCOMPARE(d.workload().scheduler, SchedulerPolicy::FirstFit);
    for (const WorkloadJob& j : d.workload().jobs) {
        QVERIFY(j.generated);
        QVERIFY(j.submitS >= 0 && j.submitS <= 7200);
        QVERIFY(j.durationS >= 600 - 1e-6 && j.durationS <= 1800 + 1e-6);
        QVERIFY(j.run.parallel.gpus() == 8 || j.run.parallel.gpus() == 64);
    }
    QCOMPARE(d.workloadName(), QString("generated mix"));
    const QString path = w.simulateClusterAndOpen(d.workload(), d.spanS(), d.workloadName());
    QVERIFY(!path.isEmpty());
    QVERIFY(w.replay()->isOpen());
    auto* table = w.findChild<QTableView*>("jobsTable");
    QVERIFY(table && table->isVisibleTo(&w));
    QCOMPARE(table->model()->rowCount(), 6);
    QCOMPARE(table->model()->index(0, views::JobsModel::NameColumn).data().toString(),
             QString("mix-1"));
    QCOMPARE(table->model()->index(0, views::JobsModel::StateColumn).data().toString(),
             QString("done"));
}

void TestWorkloadDialog::aWorkloadFileFillsTheFormAndKeepsItsJobs() {
    WorkloadDialog d;
    QString error;
    // A file with a mix only: its mix in the form.
    QVERIFY(d.loadFile(CS_SOURCE_DIR "/resources/workloads/meta-mix-2d.json", &error));
    QVERIFY(field<QGroupBox>(d, "mix")->isChecked());
    QCOMPARE(field<QSpinBox>(d, "mix.jobs")->value(), 100);
    QCOMPARE(field<QLineEdit>(d, "mix.arrivalSpanS")->text(), QString("2d"));
    // A file of listed jobs: its scheduler in the form, no mix; its two jobs run as listed.
    QVERIFY(d.loadFile(CS_SOURCE_DIR "/resources/workloads/two-dp-jobs.json", &error));
    QCOMPARE(field<QComboBox>(d, "scheduler")->currentData().toString(), QString("fragmented"));
    QVERIFY(!field<QGroupBox>(d, "mix")->isChecked());
    QVERIFY(d.check());
    QCOMPARE(d.workload().jobs.size(), size_t(2));
    QCOMPARE(d.workload().jobs[0].name, std::string("a"));
    QCOMPARE(d.workloadName(), QString("two-dp-jobs.json"));
    // A path typed in is read as a browsed one: the form follows the file.
    WorkloadDialog typed;
    field<QLineEdit>(typed, "workloadFile")
        ->setText(CS_SOURCE_DIR "/resources/workloads/two-dp-jobs.json");
    QVERIFY(typed.check());
    QVERIFY(!field<QGroupBox>(typed, "mix")->isChecked());
    QCOMPARE(typed.workload().jobs.size(), size_t(2));
    QCOMPARE(typed.workload().scheduler, SchedulerPolicy::Fragmented);
    // A mix added and the scheduler changed: saved, the file reads back as the form has it.
    field<QGroupBox>(d, "mix")->setChecked(true);
    smallMix(d);
    auto* scheduler = field<QComboBox>(d, "scheduler");
    scheduler->setCurrentIndex(scheduler->findData("topology-aware"));
    field<QCheckBox>(d, "backfill")->setChecked(false);
    QTemporaryDir dir;
    const QString saved = dir.filePath("saved.json");
    QVERIFY2(d.saveFile(saved, &error), qPrintable(error));
    const Workload back = loadWorkload(saved);
    QCOMPARE(back.jobs.size(), size_t(8));
    QCOMPARE(back.jobs[0].name, std::string("a"));
    QVERIFY(back.jobs[2].generated);
    QCOMPARE(back.scheduler, SchedulerPolicy::TopologyAware);
    QVERIFY(!back.backfill);
    QCOMPARE(back.jobs.size(), d.workload().jobs.size());
    for (size_t k = 0; k < back.jobs.size(); ++k) {
        QCOMPARE(back.jobs[k].name, d.workload().jobs[k].name);
        QCOMPARE(back.jobs[k].submitS, d.workload().jobs[k].submitS);
    }
}

void TestWorkloadDialog::fieldsThatDoNotReadAreMarked_data() {
    QTest::addColumn<QString>("fieldName");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("message");
    QTest::newRow("size without weight") << "mix.sizes"
                                         << "64"
                                         << "expected GPUs:weight";
    QTest::newRow("size not whole hosts") << "mix.sizes"
                                          << "12:1"
                                          << "mix.sizes[0].gpus";
    QTest::newRow("arrivals not a duration") << "mix.arrivalSpanS"
                                             << "soon"
                                             << "2d, 12h";
    QTest::newRow("run times reversed") << "mix.maxDurationS"
                                        << "1m"
                                        << "mix.maxDurationS";
    QTest::newRow("span not a duration") << "span"
                                         << "forever"
                                         << "Simulate for";
    QTest::newRow("span under a second") << "span"
                                         << "0s"
                                         << "from 1s to 366d";
    QTest::newRow("seed not a number") << "seed"
                                       << "-3"
                                       << "Scheduler seed";
    QTest::newRow("mix seed over 2^53") << "mix.seed"
                                        << "9007199254740993"
                                        << "2^53";
    QTest::newRow("file missing") << "workloadFile"
                                  << "/nonexistent/w.json"
                                  << "w.json";
    QTest::newRow("file not a workload") << "workloadFile" << CS_SOURCE_DIR "/resources/prices.json"
                                         << "format";
}

void TestWorkloadDialog::fieldsThatDoNotReadAreMarked() {
    QFETCH(QString, fieldName);
    QFETCH(QString, text);
    QFETCH(QString, message);
    WorkloadDialog d;
    field<QLineEdit>(d, qPrintable(fieldName))->setText(text);
    QVERIFY(!d.check());
    QCOMPARE(d.markedFields(), QStringList{fieldName});
    const QString shown = field<QLabel>(d, "problem")->text();
    QVERIFY2(shown.contains(message), qPrintable(shown));
    if (qEnvironmentVariableIsSet("CS_SCREENSHOT_DIR") && fieldName == "mix.maxDurationS") {
        d.show(); // to look at the form, a field marked, as users see it
        d.grab().save(qEnvironmentVariable("CS_SCREENSHOT_DIR") + "/workload-dialog.png");
    }
    // Put right, the form reads.
    field<QLineEdit>(d, qPrintable(fieldName))
        ->setText(fieldName == "mix.sizes"          ? "64:1"
                  : fieldName == "mix.arrivalSpanS" ? "2d"
                  : fieldName == "mix.maxDurationS" ? "1d"
                  : fieldName.endsWith("seed")      ? "9007199254740992"
                                                    : "");
    QVERIFY2(d.check(), qPrintable(field<QLabel>(d, "problem")->text()));
    QVERIFY(d.markedFields().isEmpty());
}

QTEST_MAIN(TestWorkloadDialog)
#include "tst_workload_dialog.moc"
