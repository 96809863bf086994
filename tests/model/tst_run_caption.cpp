// The caption pictures of a run carry (presentation, movies): time, step counted stretch by
// stretch, MFU at that time; how far into its step a time is (the Gantt's now line).
#include "RunCaption.h"

#include <QtTest>

using namespace cs;

class TestRunCaption : public QObject {
    Q_OBJECT
private slots:
    void countsStepsStretchByStretch_data();
    void countsStepsStretchByStretch();
    void saysTimeStepAndMfu();
    void stepStartsStretchByStretch();
};

namespace {
// Two training stretches: 2 s steps from 0, then (after a restart at 100 s) 4 s steps.
Series stretches() {
    Series s;
    s.tsNs = {0, 100'000'000'000};
    s.value = {2.0, 4.0};
    return s;
}
} // namespace

void TestRunCaption::countsStepsStretchByStretch_data() {
    QTest::addColumn<qint64>("nowNs");
    QTest::addColumn<qint64>("step");  // 0: none
    QTest::addColumn<double>("phase"); // how far into the step; -1: none
    QTest::newRow("first step") << qint64(0) << qint64(1) << 0.0;
    QTest::newRow("inside the third") << qint64(5'000'000'000) << qint64(3) << 0.5;
    QTest::newRow("last of the first stretch") << qint64(99'999'999'999) << qint64(50) << 1.0;
    QTest::newRow("first of the second") << qint64(100'000'000'000) << qint64(51) << 0.0;
    QTest::newRow("second of the second") << qint64(105'000'000'000) << qint64(52) << 0.25;
    QTest::newRow("before any step") << qint64(-1) << qint64(0) << -1.0;
}

void TestRunCaption::countsStepsStretchByStretch() {
    QFETCH(qint64, nowNs);
    QFETCH(qint64, step);
    QFETCH(double, phase);
    const auto got = stepAt(stretches(), nowNs);
    QCOMPARE(got.value_or(0), (long long)step);
    const auto gotPhase = stepPhaseAt(stretches(), nowNs);
    QCOMPARE(gotPhase.has_value(), phase >= 0);
    if (gotPhase) QVERIFY(std::fabs(*gotPhase - phase) < 1e-6);
}

void TestRunCaption::saysTimeStepAndMfu() {
    Series mfu;
    mfu.tsNs = {0};
    mfu.value = {0.381};
    QCOMPARE(QString::fromStdString(runCaption(stretches(), mfu, 3725'000'000'000)),
             QString("t = 1h 02m 05s  |  step 957  |  MFU 38.1 %"));
    QCOMPARE(QString::fromStdString(runCaption({}, {}, 1'500'000'000)), QString("t = 1.500 s"));
}

void TestRunCaption::stepStartsStretchByStretch() {
    // 2 s steps from 0 to the restart at 100 s, then 4 s steps: in [96 s, 110 s].
    const std::vector<int64_t> starts =
        stepStarts(stretches(), 96'000'000'000, 110'000'000'000, 100);
    QCOMPARE(starts, (std::vector<int64_t>{96'000'000'000, 98'000'000'000, 100'000'000'000,
                                           104'000'000'000, 108'000'000'000}));
    QVERIFY(stepStarts(stretches(), 0, 1'000'000'000'000, 10).empty()); // too many to draw
}

QTEST_GUILESS_MAIN(TestRunCaption)
#include "tst_run_caption.moc"
