// A simulated run's time series (SimulationSeries): frames at the asked resolution, the stored
// step replayed, links within capacity and the pipeline wave.
#include "EngineTestSupport.h"
#include "RunReader.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <set>

using namespace cs;
using namespace cs::test;

class TestSimulationSeries : public QObject {
    Q_OBJECT
private slots:
    void resolutionSetsTheFrameInterval();
    void storeHoldsTheRun();
    void simulatedLinksCarryBytes_data();
    void simulatedLinksCarryBytes();
};

void TestSimulationSeries::resolutionSetsTheFrameInterval() {
    const auto doc = openTopology("small-256", {});
    QTemporaryDir dir;
    auto changes = [&](double resolutionS) {
        RunSpec s;
        s.model = "llama3-8b";
        s.parallel = config(8, 1, 4, 8, 8192);
        s.parallel.virtualStages = 1;
        s.steps = 1;
        s.resolutionS = resolutionS;
        const QString path = dir.filePath(QString("r%1.sqlite").arg(resolutionS));
        const RunResult r = simulateToStore(*doc, s, path);
        RunReader reader(path, doc->topology());
        // Sampled every millisecond: a value holds for a frame, so it changes at most once a frame.
        double changed = 0;
        float last = reader.frame(Metric::GpuBusy, 0)[0];
        for (int64_t at = 1'000'000; at < std::llround(r.step.stepS * 1e9); at += 1'000'000) {
            const float v = reader.frame(Metric::GpuBusy, at)[0];
            changed += v != last;
            last = v;
        }
        return std::pair{changed, r.step.stepS / resolutionS + 1};
    };
    const auto [fine, fineBound] = changes(0.001);
    const auto [coarse, coarseBound] = changes(0.1);
    QVERIFY2(
        fine <= fineBound && coarse <= coarseBound,
        qPrintable(
            QString("%1 of %2, %3 of %4").arg(fine).arg(fineBound).arg(coarse).arg(coarseBound)));
    QVERIFY(fine > coarse * 5);
}

void TestSimulationSeries::storeHoldsTheRun() {
    QTemporaryDir dir;
    const QString path = dir.filePath("run.sqlite");
    const auto doc = openTopology("small-256", {});
    RunSpec s;
    s.model = "llama3-8b";
    s.parallel = config(8, 1, 4, 8, 8192);
    s.parallel.virtualStages = 1; // plain 1F1B: a bubble of PP - 1 micro-batches
    s.steps = 3;
    const RunResult result = simulateToStore(*doc, s, path);
    RunReader reader(path, doc->topology());
    const int64_t stepNs = std::llround(result.step.stepS * 1e9);
    QVERIFY(std::abs(reader.info().endNs - 3 * stepNs) <= 3); // rounding to ns per step
    const std::vector<float> frame = reader.frame(Metric::GpuBusy, stepNs / 2);
    QCOMPARE(frame.size(), doc->topology().gpus.size());
    for (float v : frame)
        QVERIFY(v >= 0 && v <= 1);
    // Every step plays the one stored step: 10 ms frames, the same at the same phase.
    for (int64_t phase : {int64_t(0), stepNs / 3, stepNs - 1})
        QCOMPARE(reader.frame(Metric::GpuBusy, 2 * stepNs + phase),
                 reader.frame(Metric::GpuBusy, phase));
    // The pipeline: once the exposed parameter gather is done, the first stage computes (busy
    // between its exposed TP collectives, which TP 8 makes long for an 8B model) while the
    // last waits for its first micro-batch (PP - 1 bubble slices).
    const int64_t frameNs = 10'000'000;
    const int64_t gatherNs =
        std::llround(result.step.breakdown.stages.front()[StepPart::ExposedDp] / 2 * 1e9);
    QVERIFY(result.step.breakdown.stages.back()[StepPart::Bubble] * 1e9 > double(frameNs) * 2);
    const std::vector<float> start =
        reader.frame(Metric::GpuBusy, (gatherNs / frameNs + 1) * frameNs + 1);
    const float firstBusy = start[size_t(result.step.gpuOfRank.front())];
    QVERIFY2(firstBusy > 0.3f && firstBusy < 1.f, qPrintable(QString::number(firstBusy)));
    QCOMPARE(start[size_t(result.step.gpuOfRank.back())], 0.f);
    // Busy is compute only: over the step, each stage's busy time is its passes less the TP
    // time they leave exposed.
    const ScheduleResult& sched = *result.step.schedule;
    for (size_t st = 0; st < sched.busy.size(); ++st) {
        double inPasses = 0, computing = 0;
        for (const Interval& x : sched.compute[st])
            inPasses += x.toS - x.fromS;
        for (const Interval& x : sched.busy[st])
            computing += x.toS - x.fromS;
        QVERIFY(computing < inPasses - 0.5 * result.step.breakdown.stages[st][StepPart::ExposedTp]);
        QVERIFY(computing > 0.5 * inPasses);
    }
    // GPU 7's history over the first step at a fine budget is its frames.
    const Series h = reader.history(Metric::GpuBusy, 7, 0, stepNs - 1, 100000);
    QVERIFY(h.tsNs.size() > 10);
    for (size_t i = 0; i < h.tsNs.size(); ++i)
        if (i + 1 == h.tsNs.size() || h.tsNs[i + 1] != h.tsNs[i])
            QVERIFY(h.value[i] == reader.frame(Metric::GpuBusy, h.tsNs[i])[7] ||
                    (i > 0 && h.tsNs[i - 1] == h.tsNs[i]));
    const QJsonObject summary =
        QJsonDocument::fromJson(QByteArray::fromStdString(reader.info().summaryJson)).object();
    QCOMPARE(summary.value("steps").toInt(), 3);
}

void TestSimulationSeries::simulatedLinksCarryBytes_data() {
    QTest::addColumn<QString>("preset");
    QTest::addColumn<QString>("model");
    QTest::addColumn<int>("pp");
    QTest::addColumn<int>("dp");
    QTest::newRow("small-256, 8B") << "small-256"
                                   << "llama3-8b" << 4 << 8;
    QTest::newRow("meta-roce-24k, 405B on 16,384 GPUs") << "meta-roce-24k"
                                                        << "llama3-405b" << 16 << 128;
}

void TestSimulationSeries::simulatedLinksCarryBytes() {
    QFETCH(QString, preset);
    QFETCH(QString, model);
    QFETCH(int, pp);
    QFETCH(int, dp);
    QTemporaryDir dir;
    const QString path = dir.filePath("run.sqlite");
    const auto doc = openTopology(preset.toStdString(), {});
    const Topology& t = doc->topology();
    RunSpec s;
    s.model = model.toStdString();
    s.parallel = config(8, 1, pp, dp, 8192);
    s.steps = 1;
    const RunResult result = simulateToStore(*doc, s, path);
    RunReader reader(path, t);
    const std::vector<float> links =
        reader.frame(Metric::LinkBytesPerS, int64_t(result.step.stepS / 2 * 1e9));
    QCOMPARE(links.size(), t.links.size());
    size_t loaded = 0;
    double hottest = 0;
    for (size_t l = 0; l < links.size(); ++l) {
        if (std::isnan(links[l])) {
            QVERIFY(t.links[l].medium == LinkMedium::NvLink ||
                    t.links[l].medium == LinkMedium::Pcie);
            continue;
        }
        const double cap = capacityOf(Metric::LinkBytesPerS, t, int32_t(l));
        QVERIFY2(links[l] >= 0 && links[l] <= cap * (1 + 1e-6),
                 qPrintable(QString("link %1: %2 B/s over %3").arg(l).arg(links[l]).arg(cap)));
        loaded += links[l] > 0;
        hottest = std::max(hottest, double(links[l]) / cap);
    }
    // Bytes per second, not fractions: the loaded links carry gigabytes per second.
    QVERIFY2(loaded > t.gpus.size() / 8, qPrintable(QString::number(loaded)));
    QVERIFY(hottest > 0.01);
    double sum = 0;
    for (float v : links)
        if (!std::isnan(v)) sum += v;
    QVERIFY2(sum / double(loaded) > 1e8, qPrintable(QString::number(sum / double(loaded))));
    // Through the whole step: every 10 ms frame within capacity, and the traffic moves (DP
    // collectives and pipeline sends come and go).
    const int64_t stepNs = std::llround(result.step.stepS * 1e9);
    std::set<double> totals;
    for (int64_t at = 0; at < stepNs; at += 10'000'000) {
        const std::vector<float> f = reader.frame(Metric::LinkBytesPerS, at);
        double total = 0;
        for (size_t l = 0; l < f.size(); ++l) {
            if (std::isnan(f[l])) continue;
            QVERIFY(f[l] <= capacityOf(Metric::LinkBytesPerS, t, int32_t(l)) * (1 + 1e-6));
            total += f[l];
        }
        totals.insert(std::round(total / 1e9));
    }
    QVERIFY2(totals.size() > 5, qPrintable(QString::number(totals.size())));
    // The pipeline wave: instants at which the first and the last stage differ (one computes
    // while the other waits to fill or drain).
    int differing = 0;
    for (int64_t at = 0; at < stepNs; at += 10'000'000) {
        const std::vector<float> f = reader.frame(Metric::GpuBusy, at);
        differing += std::fabs(f[size_t(result.step.gpuOfRank.front())] -
                               f[size_t(result.step.gpuOfRank.back())]) > 0.5;
    }
    QVERIFY2(differing >= 2, qPrintable(QString::number(differing)));
}

QTEST_APPLESS_MAIN(TestSimulationSeries)
#include "tst_simulation_series.moc"
