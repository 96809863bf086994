// Replay: a simulated run rendered at two times differs where the data differs; the charts'
// downsampling keeps extremes; the timeline and charts follow the clock.
#include "Downsample.h"
#include "FrameValues.h"
#include "HeadlessRenderer.h"
#include "ImageCompare.h"
#include "RunChartsWidget.h"
#include "RunOverview.h"
#include "SimulationRun.h"
#include "StepBreakdownChart.h"
#include "TimelineWidget.h"

#include <QApplication>
#include <QTemporaryDir>
#include <QTest>

#include <qcustomplot.h>

#include <cmath>
#include <limits>

using namespace cs;
using namespace cs::views;

class TestReplay : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void twoTimesRenderDifferently();
    void downsamplingKeepsExtremes();
    void timelineAndChartsFollowTheClock();
    void timelineSeeksAcrossTheWidestRange();
    void timelineMarkersSayWhatHappened();
    void timelineMarksStepsAndTheirParts();

private:
    QTemporaryDir dir_;
    std::unique_ptr<TopologyDocument> doc_;
    QString store_;
};

void TestReplay::initTestCase() {
    if (qEnvironmentVariableIsEmpty("DISPLAY")) QFAIL("needs an X server: run under xvfb-run");
    doc_ = openTopology("small-256", {});
    store_ = dir_.filePath("run.sqlite");
    RunSpec s;
    s.model = "llama3-8b";
    s.parallel.tp = 8, s.parallel.pp = 4, s.parallel.dp = 4; // half the GPUs: the rest have no data
    s.parallel.batchTokens = 8192.0 * 4 * 4; // 4 micro-batches: a visible pipeline fill and drain
    s.steps = 4;
    RunStore store = RunStore::openForWriting(store_);
    simulateRun(*doc_, s, &store);
}

void TestReplay::twoTimesRenderDifferently() {
    RunReader reader(store_, doc_->topology());
    // Pipeline warm-up (stage 0 busy, later stages waiting) against the steady state.
    const int64_t stepNs = reader.info().endNs / 4;
    const FrameValues early = fractionsOfCapacity(reader.frameAt(stepNs / 20), doc_->topology());
    const int64_t mid = stepNs / 2;
    const FrameValues steady = fractionsOfCapacity(reader.frameAt(mid), doc_->topology());
    int differing = 0;
    for (size_t g = 0; g < early.gpu.size(); ++g)
        if (!(early.gpu[g] == steady.gpu[g] ||
              (std::isnan(early.gpu[g]) && std::isnan(steady.gpu[g]))))
            ++differing;
    QVERIFY2(differing > 0, "the data itself should differ between the two times");
    auto render = [&](const FrameValues& v) {
        HeadlessRenderer r(480, 270);
        r.scene().setDocument(doc_.get(), LayoutKind::Fabric);
        r.scene().setValues(v);
        r.scene().setColorMode(ColorMode::Value);
        r.render();
        return r.grab();
    };
    const test::ImageDiff d = test::compareImages(render(early), render(steady), 10);
    QVERIFY2(d.fractionDiffering > 0.0005, qPrintable(QString::number(d.fractionDiffering)));
}

void TestReplay::downsamplingKeepsExtremes() {
    std::vector<double> x(1'000'000), y(1'000'000);
    for (size_t i = 0; i < x.size(); ++i)
        x[i] = double(i), y[i] = std::sin(double(i) * 0.001);
    y[123457] = 50;  // a spike
    y[765431] = -50; // and a dip
    const XY d = downsampleMinMax(x, y, 0, 999999, 400);
    QVERIFY(d.x.size() <= 800);
    QCOMPARE(*std::max_element(d.y.begin(), d.y.end()), 50.0);
    QCOMPARE(*std::min_element(d.y.begin(), d.y.end()), -50.0);
    QVERIFY(std::is_sorted(d.x.begin(), d.x.end()));
}

void TestReplay::timelineAndChartsFollowTheClock() {
    RunReader reader(store_, doc_->topology());
    const auto overview = std::make_shared<const RunOverview>(overviewOf(reader));
    const int64_t endNs = reader.info().endNs;
    PlaybackClock clock;
    clock.setRange(0, endNs);
    TimelineWidget timeline(&clock);
    timeline.setEvents(overview->events);
    RunChartsWidget charts(&clock);
    charts.resize(500, 700);
    charts.setOverview(overview);
    QVERIFY(charts.plots()[0]->graphCount() >= 3);
    QVERIFY(charts.plots()[0]->graph(2)->dataCount() > 0); // mean busy
    // Tier throughput inside the steps: the rack uplinks carry the DP traffic.
    QVERIFY(charts.plots()[1]->graph(0)->dataCount() > 0);
    const Endpoint gpu{EntityKind::Gpu, 5};
    charts.setEntitySeries(gpu, "gpu 5", reader.history(Metric::GpuBusy, 5, 0, endNs, 2000));
    QCOMPARE(charts.plots()[0]->graphCount(), 4);
    QVERIFY(charts.plots()[0]->graph(3)->dataCount() > 0);
    const int before = charts.plots()[1]->graphCount();
    // A loaded backend cable (NVLink and PCIe carry no stored traffic), at a moment some
    // transfer runs.
    std::vector<float> loads;
    int32_t link = -1;
    for (int k = 10; k < 30 && link < 0; ++k) {
        loads = reader.frame(Metric::LinkBytesPerS, endNs * k / 40);
        const auto at = std::find_if(loads.begin(), loads.end(), [](float v) { return v > 0; });
        if (at != loads.end()) link = int32_t(at - loads.begin());
    }
    QVERIFY(link >= 0);
    charts.setEntitySeries({EntityKind::Link, link}, "link",
                           reader.history(Metric::LinkBytesPerS, link, 0, endNs, 2000));
    QCOMPARE(charts.plots()[0]->graphCount(), 3);
    QCOMPARE(charts.plots()[1]->graphCount(), before + 1);
    const auto values = liveValues(reader.frameAt(endNs / 2), doc_->topology(), gpu);
    QCOMPARE(values.front().first, std::string("busy (now)"));
    QVERIFY(values.front().second.find('%') != std::string::npos);
    // A host shows its GPUs' distribution; a storage server its traffic against capacity.
    const RunFrame mid = reader.frameAt(endNs / 2);
    const auto host = liveValues(mid, doc_->topology(), {EntityKind::Host, 0});
    QVERIFY(!host.empty());
    QCOMPARE(host.front().first, std::string("GPU busy mean (now)"));
    const auto storage = liveValues(mid, doc_->topology(), {EntityKind::Storage, 0});
    QVERIFY(!storage.empty());
    QVERIFY(storage.front().second.find("of capacity") != std::string::npos);
    timeline.resize(600, 40);
    timeline.show();
    QVERIFY(QTest::qWaitForWindowExposed(&timeline));
    // Clicking three quarters along the bar seeks there.
    TimelineBar* bar = timeline.bar();
    QTest::mouseClick(bar, Qt::LeftButton, {},
                      QPoint(6 + (bar->width() - 12) * 3 / 4, bar->height() / 2));
    const double f = double(clock.nowNs()) / double(clock.endNs());
    QVERIFY2(std::fabs(f - 0.75) < 0.02, qPrintable(QString::number(f)));
    // A click on a chart seeks to the time under the pointer.
    QCustomPlot* p = charts.plots()[1];
    charts.show();
    QVERIFY(QTest::qWaitForWindowExposed(&charts));
    const double target = double(endNs) / 1e9 / 4;
    QTest::mouseClick(p, Qt::LeftButton, {},
                      QPoint(int(p->xAxis->coordToPixel(target)), p->height() / 2));
    QVERIFY(std::fabs(double(clock.nowNs()) / 1e9 - target) < 0.02 * target + 0.05);
}

void TestReplay::timelineSeeksAcrossTheWidestRange() {
    // A hostile store's run may end at int64's end: the bar still seeks to its ends and
    // draws the marker inside itself.
    PlaybackClock clock;
    clock.setRange(0, std::numeric_limits<int64_t>::max());
    TimelineWidget timeline(&clock);
    timeline.resize(600, 40);
    timeline.show();
    QVERIFY(QTest::qWaitForWindowExposed(&timeline));
    TimelineBar* bar = timeline.bar();
    QTest::mouseClick(bar, Qt::LeftButton, {}, QPoint(bar->width() - 1, bar->height() / 2));
    QCOMPARE(clock.nowNs(), clock.endNs());
    QCOMPARE(bar->xOf(clock.nowNs()), bar->width() - 6);
    QTest::mouseClick(bar, Qt::LeftButton, {}, QPoint(0, bar->height() / 2));
    QCOMPARE(clock.nowNs(), 0);
    QVERIFY2(timeline.timeText().startsWith("0.000 s / 106751d 23h 47m"),
             qPrintable(timeline.timeText()));
}

void TestReplay::timelineMarkersSayWhatHappened() {
    // A two-day run: a failure and its restart, far apart on the bar; a checkpoint beside the
    // failure. Hovering a marker tells them, with the time to the millisecond or as days.
    PlaybackClock clock;
    clock.setRange(0, 2 * 86400LL * 1'000'000'000);
    TimelineBar bar(&clock);
    bar.resize(800, 34);
    const int64_t failureNs = 3600LL * 1'000'000'000 + 5'250'000'000; // 1h 00m 05s
    bar.setEvents({{failureNs, EventKind::Failure, Endpoint{EntityKind::Gpu, 3}, "GPU 3 lost"},
                   {failureNs + 1'000'000'000, EventKind::Checkpoint, std::nullopt, ""},
                   {86400LL * 1'000'000'000, EventKind::Restart, std::nullopt, ""},
                   {10'000'000'000, EventKind::Step, std::nullopt, ""}});
    const QString atFailure = bar.markerText(bar.xOf(failureNs));
    QVERIFY2(atFailure.startsWith("Failure at 1h 00m 05s: GPU 3 lost"), qPrintable(atFailure));
    QVERIFY(atFailure.contains("Checkpoint at 1h 00m 06s")); // within the same pixels
    QVERIFY(!atFailure.contains("Restart"));
    QCOMPARE(bar.markerText(bar.xOf(86400LL * 1'000'000'000)), QString("Restart at 1d 00h 00m"));
    QVERIFY(bar.markerText(bar.xOf(10'000'000'000)).isEmpty()); // steps are no markers
}

void TestReplay::timelineMarksStepsAndTheirParts() {
    // Three 2 s steps, each 1.5 s of compute then 0.5 s of bubble: three marks; at 800 px a
    // step is wide enough for its bands, compute green where it computes.
    PlaybackClock clock;
    clock.setRange(0, 6'000'000'000);
    TimelineBar bar(&clock);
    bar.resize(800, 34);
    Series steps;
    steps.tsNs = {0};
    steps.value = {2.0};
    bar.setSteps(steps, {{0, 1.5, StepPart::Compute}, {1.5, 2.0, StepPart::Bubble}});
    QCOMPARE(bar.stepMarkXs(), (std::vector<int>{bar.xOf(0), bar.xOf(2'000'000'000),
                                                 bar.xOf(4'000'000'000)})); // 6 s: the end
    QVERIFY(bar.showsPhaseBands());
    const QImage img = bar.grab().toImage();
    const int mid = bar.height() / 2;
    QCOMPARE(QColor(img.pixel(bar.xOf(3'000'000'000), mid + 6)), stepPartColor(StepPart::Compute));
    QCOMPARE(QColor(img.pixel(bar.xOf(3'800'000'000), mid + 6)), stepPartColor(StepPart::Bubble));
    // A long run: no marks, no bands (a step is a fraction of a pixel).
    clock.setRange(0, 86400LL * 1'000'000'000);
    QVERIFY(bar.stepMarkXs().empty());
    QVERIFY(!bar.showsPhaseBands());
}

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    TestReplay t;
    return QTest::qExec(&t, argc, argv);
}

#include "tst_replay.moc"
