// A run's step times as a distribution (StepTimeDistribution.h): the clock over the day,
// checkpoint waits, degraded stretches after a failed fabric part, and the share of the step
// spent waiting for the slowest GPU, each against the engine's own step.
#include "EngineTestSupport.h"
#include "StepTimeDistribution.h"

#include <QtTest>

using namespace cs;

namespace {

// A run of `steps` steps of `stepS`, its compute `computeS` slowed by `straggler`.
RunResult runOf(double stepS, long long steps, double computeS = 0, double straggler = 1) {
    RunResult r;
    r.step.stepS = stepS;
    r.step.stragglerSlowdown = straggler;
    StepParts parts;
    parts[StepPart::Compute] = computeS;
    r.step.breakdown.stages = {parts};
    r.steps = steps;
    return r;
}

} // namespace

class TestStepTimeDistribution : public QObject {
    Q_OBJECT
private slots:
    void stepsFollowTheClockOfTheDay();
    void theStartOfDayComesFromTheSeed();
    void checkpointStepsWaitForTheirWrite();
    void degradedStretchesSlowTheirSteps();
    void longRunsAreWalkedInSamples();
    void sampledCheckpointsWaitOncePerWrite();
    void noCheckpointWhileTheJobIsDown();
    void countedStepsGiveNearestRankPercentiles();
    void slowestGpuShareIsWhatStragglersAdd();
    void simulatedRunsReportIt();
};

void TestStepTimeDistribution::stepsFollowTheClockOfTheDay() {
    // A day of 60-second steps: the slowest and fastest steps are the sine's ends.
    RunSpec spec;
    spec.steps = int(kDaySeconds / 60);
    const StepTimeDistribution d = stepTimeDistribution(runOf(60, spec.steps), spec);
    QCOMPARE(d.steps, (long long)spec.steps);
    QVERIFY(qAbs(d.maxS / 60 - (1 + kDiurnalPeakToPeak / 2)) < 1e-6);
    QVERIFY(qAbs(d.meanS / 60 - 1) < 1e-4); // a whole day averages out
    QVERIFY(d.p50S > 60 * (1 - kDiurnalPeakToPeak / 2) && d.p50S < 60 * (1 + 1e-3));
    QVERIFY(d.p99S <= d.maxS && d.p50S <= d.p99S);
}

void TestStepTimeDistribution::theStartOfDayComesFromTheSeed() {
    RunSpec spec;
    spec.steps = 20;
    const RunResult r = runOf(10, 20);
    const StepTimeDistribution a = stepTimeDistribution(r, spec);
    QCOMPARE(stepTimeDistribution(r, spec).p50S, a.p50S); // the same seed, the same run
    spec.seed = 7;
    const StepTimeDistribution b = stepTimeDistribution(r, spec);
    QVERIFY(a.p50S != b.p50S);
    for (const StepTimeDistribution& d : {a, b}) // 20 steps: within the clock's swing
        QVERIFY(d.maxS <= 10 * (1 + kDiurnalPeakToPeak / 2) + 1e-9 &&
                d.p50S >= 10 * (1 - kDiurnalPeakToPeak / 2) - 1e-9);
}

void TestStepTimeDistribution::checkpointStepsWaitForTheirWrite() {
    // A span: a checkpoint every 100 steps of 1 s, each a 30 s write.
    RunSpec spec;
    spec.spanS = 3600;
    spec.checkpointIntervalS = 100;
    RunResult r = runOf(1, 3000);
    r.checkpointS = 30;
    const StepTimeDistribution d = stepTimeDistribution(r, spec);
    QVERIFY(d.maxS > 30 && d.maxS < 31.1);
    QVERIFY(d.p50S < 1.01);
    // Each 100 s of wall clock: a 30 s write and about 70 steps, one of which waits for it
    // (1.4 % of the steps, so p99 is one).
    QVERIFY(d.p99S > 30);
    const double checkpointSteps = (d.meanS - 1) / 30;
    QVERIFY2(checkpointSteps > 0.012 && checkpointSteps < 0.016,
             qPrintable(QString::number(checkpointSteps)));
    QVERIFY2(qAbs(d.steps - 2520) < 40, qPrintable(QString::number(d.steps)));
}

void TestStepTimeDistribution::degradedStretchesSlowTheirSteps() {
    RunSpec spec;
    spec.spanS = 10'000;
    spec.checkpointIntervalS = 0;
    RunResult r = runOf(1, 9000);
    Interruption x;
    x.atS = 1000;
    x.lostS = 500; // no step in it
    x.degradedS = 2000;
    x.degradedStepS = 1.5;
    r.interruptions = {x};
    const StepTimeDistribution d = stepTimeDistribution(r, spec);
    QVERIFY(d.maxS > 1.49 && d.maxS < 1.52);
    QVERIFY(d.p50S < 1.01);
    // 1000 s at 1 s, 2000 s at 1.5 s, then 1 s steps to the span's end (the clock's swing
    // moves the count by under 1 %).
    const double expected = 1000 + 2000 / 1.5 + (10'000 - 3500);
    QVERIFY2(qAbs(double(d.steps) / expected - 1) < 0.01, qPrintable(QString::number(d.steps)));
}

void TestStepTimeDistribution::longRunsAreWalkedInSamples() {
    // 20 million steps walked as 2 million samples of 10 steps each: every step counted.
    RunSpec spec;
    spec.steps = 1;
    const long long steps = 10 * kMaxWalkedSteps;
    const StepTimeDistribution d = stepTimeDistribution(runOf(0.5, steps), spec);
    QVERIFY2(d.steps >= steps && d.steps < steps + 10, qPrintable(QString::number(d.steps)));
    QVERIFY(qAbs(d.meanS / 0.5 - 1) < 1e-3); // 116 days of steps: the day averages out
}

void TestStepTimeDistribution::sampledCheckpointsWaitOncePerWrite() {
    // 20 million 1 s steps walked in samples of 10, a 30 s write every 15 minutes: each write
    // is one step's wait (about 1 step in 870), not a whole sample's.
    RunSpec spec;
    spec.spanS = 400 * kDaySeconds;
    spec.checkpointIntervalS = 900;
    RunResult r = runOf(1, 10 * kMaxWalkedSteps);
    r.checkpointS = 30;
    const StepTimeDistribution d = stepTimeDistribution(r, spec);
    QCOMPARE(d.steps, 10 * kMaxWalkedSteps);
    QVERIFY2(d.p99S < 1.01, qPrintable(QString::number(d.p99S)));
    QVERIFY(d.maxS > 30 && d.maxS < 31.1);
    const double writes = (d.meanS - 1) / 30 * double(d.steps);
    const double wallS = double(d.steps) * 1 + writes * 30;
    QVERIFY2(qAbs(writes / (wallS / 900) - 1) < 0.01, qPrintable(QString::number(writes)));
}

void TestStepTimeDistribution::noCheckpointWhileTheJobIsDown() {
    // 10,000 s with a 50 s write every 100 s; the job down from 1000 s to 1500 s: the five writes
    // due while it was down are not made (nor waited for all at once after the restart), so 95
    // of the 100 are. (Long writes keep the clock's swing out of the count.)
    RunSpec spec;
    spec.spanS = 10'000;
    spec.checkpointIntervalS = 100;
    RunResult r = runOf(1, 10'000);
    r.checkpointS = 50;
    Interruption x;
    x.atS = 1000;
    x.lostS = 500;
    r.interruptions = {x};
    const StepTimeDistribution d = stepTimeDistribution(r, spec);
    QVERIFY(d.maxS < 51.1); // one write at most in any step
    const double writes = (d.meanS - 1) / 50 * double(d.steps);
    QVERIFY2(writes > 93.5 && writes < 96.5, qPrintable(QString::number(writes)));
}

void TestStepTimeDistribution::countedStepsGiveNearestRankPercentiles() {
    // 98 steps of 1 s, one of 2 s and one of 3 s: p50 1 s, p99 2 s (the 99th step), max 3 s;
    // the same given in any order, with empty or impossible entries left out.
    const StepTimeDistribution d =
        distributionOfSteps({{3, 1}, {1, 60}, {2, 1}, {1, 38}, {5, 0}, {0, 4}});
    QCOMPARE(d.steps, 100LL);
    QCOMPARE(d.p50S, 1.0);
    QCOMPARE(d.p99S, 2.0);
    QCOMPARE(d.maxS, 3.0);
    QCOMPARE(d.meanS, 1.03);
    QCOMPARE(distributionOfSteps({}).steps, 0LL);
}

void TestStepTimeDistribution::slowestGpuShareIsWhatStragglersAdd() {
    // The engine's own step with and without the spread between GPUs.
    const TopologyDocument& doc = test::roce();
    ParallelConfig c = test::config(8, 1, 16, 64, 8192);
    c.gpuSpeedSpreadPct = 5;
    RunResult r;
    r.step = test::step(doc, "llama3-405b", c);
    r.steps = 20;
    c.gpuSpeedSpreadPct = 0;
    const double evenS = test::step(doc, "llama3-405b", c).stepS;
    RunSpec spec;
    spec.steps = 20;
    const StepTimeDistribution d = stepTimeDistribution(r, spec);
    const double added = (r.step.stepS - evenS) / r.step.stepS;
    qInfo("slowest GPU's share %.4f of the step; the spread adds %.4f", d.slowestGpuShare, added);
    QVERIFY2(added > 0.01, qPrintable(QString::number(added)));
    QVERIFY2(qAbs(d.slowestGpuShare - added) < 0.2 * added,
             qPrintable(QString("share %1, the spread adds %2").arg(d.slowestGpuShare).arg(added)));
}

void TestStepTimeDistribution::simulatedRunsReportIt() {
    RunSpec spec;
    spec.model = "llama3-8b";
    spec.parallel = test::config(1, 1, 1, 64, 8192);
    spec.steps = 20;
    const QJsonObject summary = runSummaryJson(simulateRun(test::roce(), spec, nullptr), spec);
    const QJsonObject d = summary.value("stepTimeDistribution").toObject();
    const double stepS = summary.value("stepTimeS").toDouble();
    QCOMPARE(d.value("steps").toDouble(), 20.0);
    for (const char* key : {"p50", "p99", "max"}) {
        const double v = d.value(key).toDouble();
        QVERIFY2(v >= stepS * (1 - kDiurnalPeakToPeak / 2) - 1e-9 &&
                     v <= stepS * (1 + kDiurnalPeakToPeak / 2) + 1e-9,
                 key);
    }
    QVERIFY(d.value("p50").toDouble() <= d.value("p99").toDouble());
    QVERIFY(d.value("p99").toDouble() <= d.value("max").toDouble());
}

QTEST_GUILESS_MAIN(TestStepTimeDistribution)
#include "tst_step_time_distribution.moc"
