// The site's power over a run (model/power, stored by the simulator as site_power_w, read by
// model/materials/RunPower): it follows the GPUs' busy frame by frame, sits at the idle sum when
// no GPU works (a checkpoint), dips in a step's DP burst, and its largest swing in a window is
// found where it happens, also for runs stored without it.
#include "EngineTestSupport.h"
#include "RunPower.h"
#include "RunReader.h"
#include "RunWriter.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>

Q_DECLARE_METATYPE(cs::Series)

using namespace cs;
using namespace cs::test;

namespace {

constexpr int64_t kFrameNs = 10'000'000;

// llama3-8b on small-256 for `spanS` with a checkpoint every 5 s.
RunResult simulateSmall(const TopologyDocument& doc, const QString& path, double spanS) {
    RunSpec s;
    s.model = "llama3-8b";
    s.parallel = config(8, 1, 4, 8, 8192);
    s.parallel.virtualStages = 1;
    s.spanS = spanS;
    s.checkpointIntervalS = 5;
    return simulateToStore(doc, s, path);
}

double busySum(const std::vector<float>& busy) {
    double sum = 0;
    for (float b : busy)
        if (!std::isnan(b)) sum += b;
    return sum;
}

Series seriesOf(std::initializer_list<std::pair<double, double>> points) {
    Series s;
    for (auto [atS, v] : points) {
        s.tsNs.push_back(std::llround(atS * 1e9));
        s.value.push_back(v);
    }
    return s;
}

} // namespace

class TestSitePower : public QObject {
    Q_OBJECT
private slots:
    void modelGoesFromIdleToTheLimit();
    void storedPowerFollowsBusy();
    void dpBurstIsATrough();
    void largestSwing_data();
    void largestSwing();
    void runWithoutStoredPowerUsesBusy();
};

void TestSitePower::modelGoesFromIdleToTheLimit() {
    const auto doc = openTopology("small-256", {});
    const SitePower p = sitePower(doc->topology());
    const SitePowerModel m = *sitePowerModel(doc->topology());
    QCOMPARE(m.gpus, (long long)doc->topology().gpus.size());
    QVERIFY(std::abs(m.powerW(0) - p.idleW()) < 1e-6 * p.idleW());
    QVERIFY(std::abs(m.powerW(double(m.gpus)) - p.totalW()) < 1e-6 * p.totalW());
    QVERIFY(m.gpuTdpW > m.gpuIdleW && m.gpuIdleW > 0);
    for (double busy : {1.0, 10.0, 100.0})
        QVERIFY(m.powerW(busy) > m.powerW(busy - 0.5));
    // A GPU model without figures has no model (and the simulator stores no power).
    Topology t = doc->topology();
    t.gpuModel = "MI300X";
    QVERIFY(!sitePowerModel(t));
}

void TestSitePower::storedPowerFollowsBusy() {
    QTemporaryDir dir;
    const QString path = dir.filePath("run.sqlite");
    const auto doc = openTopology("small-256", {});
    const RunResult r = simulateSmall(*doc, path, 12);
    const SitePowerModel m = *sitePowerModel(doc->topology());
    RunReader reader(path, doc->topology());
    QVERIFY(reader.has(Metric::SitePowerW));
    std::vector<std::pair<double, double>> busyAndPower;
    for (int64_t at = 0; at < reader.info().endNs; at += kFrameNs) {
        const std::vector<float> power = reader.frame(Metric::SitePowerW, at);
        QCOMPARE(power.size(), size_t(1));
        const double busy = busySum(reader.frame(Metric::GpuBusy, at));
        QVERIFY2(
            std::abs(power[0] - m.powerW(busy)) < 1e-5 * m.powerW(busy),
            qPrintable(QString("at %1 s: %2 W for %3 busy").arg(at / 1e9).arg(power[0]).arg(busy)));
        busyAndPower.emplace_back(busy, power[0]);
    }
    // More GPUs busy, more power; none busy (the checkpoint at 5 s), the idle sum.
    std::sort(busyAndPower.begin(), busyAndPower.end());
    for (size_t i = 1; i < busyAndPower.size(); ++i)
        if (busyAndPower[i].first > busyAndPower[i - 1].first + 0.5)
            QVERIFY(busyAndPower[i].second > busyAndPower[i - 1].second);
    QVERIFY(r.checkpointS > 0);
    const double inCheckpoint =
        reader.frame(Metric::SitePowerW, std::llround((5 + r.checkpointS / 2) * 1e9))[0];
    QVERIFY(std::abs(inCheckpoint - sitePower(doc->topology()).idleW()) < 1e-5 * inCheckpoint);
    QCOMPARE(busyAndPower.front().first, 0.0);
    QVERIFY(busyAndPower.back().first > 0.5 * double(m.gpus));
}

void TestSitePower::dpBurstIsATrough() {
    // One step: the pipeline computes (dipping where TP collectives and pipeline waits leave
    // GPUs idle), then every stage waits together for the gradient reduction across DP (the DP
    // burst): the site's power falls lower than anywhere else in the step.
    QTemporaryDir dir;
    const QString path = dir.filePath("step.sqlite");
    const auto doc = openTopology("small-256", {});
    RunSpec s;
    s.model = "llama3-8b";
    s.parallel = config(8, 1, 4, 8, 8192);
    s.parallel.virtualStages = 1;
    s.steps = 1;
    const RunResult r = simulateToStore(*doc, s, path);
    const SitePowerModel m = *sitePowerModel(doc->topology());
    RunReader reader(path, doc->topology());
    const int64_t stepNs = std::llround(r.step.stepS * 1e9);
    const int64_t burstNs = 50'000'000; // the last frames of the step
    double peak = 0, before = INFINITY, atEnd = INFINITY;
    for (int64_t at = 0; at < stepNs; at += kFrameNs) {
        const double w = reader.frame(Metric::SitePowerW, at)[0];
        peak = std::max(peak, w);
        if (at < stepNs - burstNs)
            before = std::min(before, w);
        else
            atEnd = std::min(atEnd, w);
    }
    const double range = m.powerW(double(m.gpus)) - m.powerW(0);
    QVERIFY2(peak > m.powerW(0) + 0.5 * range, qPrintable(QString::number(peak)));
    QVERIFY2(atEnd < before && atEnd < m.powerW(0) + 0.2 * range,
             qPrintable(QString("%1 W at the end, %2 W before, idle %3 W")
                            .arg(atEnd)
                            .arg(before)
                            .arg(m.powerW(0))));
    // The analysis finds the trough and the fall into it, at the end of the step.
    const RunPower p = runPower(reader, m, path.toStdString());
    QVERIFY(!p.fromBusy);
    QVERIFY(std::abs(p.peakW - peak) < 1e-6 * peak);
    QVERIFY(std::abs(p.troughW - atEnd) < 1e-6 * peak);
    QVERIFY2(p.troughAtS >= r.step.stepS - 0.05, qPrintable(QString::number(p.troughAtS)));
    QVERIFY2(p.swing.toS >= r.step.stepS - 0.05 && !p.swing.rising,
             qPrintable(QString::number(p.swing.toS)));
    QVERIFY(p.swing.w > 0.5 * (peak - atEnd) && p.swing.w <= peak - atEnd + 1);
}

void TestSitePower::largestSwing_data() {
    QTest::addColumn<Series>("series");
    QTest::addColumn<double>("windowS");
    QTest::addColumn<double>("swing");
    QTest::addColumn<double>("toS");
    QTest::addColumn<bool>("rising");
    QTest::newRow("flat") << seriesOf({{0, 5}, {1, 5}, {2, 5}}) << 1.0 << 0.0 << 0.0 << false;
    QTest::newRow("one fall") << seriesOf({{0, 10}, {0.5, 10}, {0.7, 4}}) << 1.0 << 6.0 << 0.7
                              << false;
    // A value holds until the next point: a fall 3 s after the last change is still a step.
    QTest::newRow("held value falls") << seriesOf({{0, 10}, {3, 2}}) << 1.0 << 8.0 << 3.0 << false;
    // A slow ramp: 1 per second, so at most 1 inside a 1 s window and 2 inside 2 s.
    QTest::newRow("ramp, 1 s") << seriesOf({{0, 0}, {1, 1}, {2, 2}, {3, 3}}) << 1.0 << 1.0 << 1.0
                               << true;
    QTest::newRow("ramp, 2 s") << seriesOf({{0, 0}, {1, 1}, {2, 2}, {3, 3}}) << 2.0 << 2.0 << 2.0
                               << true;
    // A dip and the rise after it 2 s later: each is a swing of its own.
    QTest::newRow("dip and rise apart")
        << seriesOf({{0, 10}, {1, 7}, {3, 10}, {3.5, 2}, {4, 3}}) << 1.0 << 8.0 << 3.5 << false;
    QTest::newRow("rise is larger")
        << seriesOf({{0, 5}, {1, 1}, {2.5, 9}, {4, 9}}) << 1.0 << 8.0 << 2.5 << true;
}

void TestSitePower::largestSwing() {
    QFETCH(Series, series);
    QFETCH(double, windowS);
    QFETCH(double, swing);
    QFETCH(double, toS);
    QFETCH(bool, rising);
    const PowerSwing s = cs::largestSwing(series, std::llround(windowS * 1e9));
    QCOMPARE(s.w, swing);
    if (swing > 0) {
        QCOMPARE(s.toS, toS);
        QCOMPARE(s.rising, rising);
        QVERIFY(s.toS - s.fromS <= windowS + 1e-9);
    }
}

void TestSitePower::runWithoutStoredPowerUsesBusy() {
    // A run written without site_power_w (an older run, or a recording): every GPU busy, all
    // idle at 1.5 s, busy again at 1.8 s.
    QTemporaryDir dir;
    const QString path = dir.filePath("old.sqlite");
    const auto doc = openTopology("small-256", {});
    const Topology& t = doc->topology();
    {
        RunStore store = RunStore::openForWriting(path);
        RunWriter w(store, t, {"simulated", "old", "{}", 0});
        const int32_t p = w.addPattern("all", 3'000'000'000);
        const std::vector<float> busy(t.gpus.size(), 1.f), idle(t.gpus.size(), 0.f);
        w.addFrame(p, Metric::GpuBusy, 0, busy);
        w.addFrame(p, Metric::GpuBusy, 1'500'000'000, idle);
        w.addFrame(p, Metric::GpuBusy, 1'800'000'000, busy);
        w.addSegment(0, 3'000'000'000, p);
        w.finish(3'000'000'000, "{}");
    }
    RunReader reader(path, t);
    QVERIFY(!reader.has(Metric::SitePowerW));
    const SitePowerModel m = *sitePowerModel(t);
    const RunPower r = runPower(reader, m, path.toStdString());
    QVERIFY(r.fromBusy);
    QVERIFY(std::abs(r.peakW - m.powerW(double(m.gpus))) < 1e-6 * r.peakW);
    QVERIFY(std::abs(r.troughW - m.powerW(0)) < 1e-6 * r.peakW);
    QVERIFY(std::abs(r.swing.w - double(m.gpus) * (m.gpuTdpW - m.gpuIdleW)) < 1e-6 * r.peakW);
    QVERIFY(std::abs(r.swing.toS - 1.5) < 0.011);
    QVERIFY(!r.swing.rising);
    QCOMPARE(r.troughAtS >= 1.49 && r.troughAtS < 1.8, true);
}

QTEST_APPLESS_MAIN(TestSitePower)
#include "tst_site_power.moc"
