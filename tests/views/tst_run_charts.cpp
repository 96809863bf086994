// The charts dock as a user reads it: legends beside the data, never on it; charts flowing
// into the width and keeping a readable height; the hover readout and the clock's crosshair
// reading the run's own values; each chart saved as PNG, SVG and CSV.
#include "ChartData.h"
#include "RunChartsWidget.h"
#include "RunOverview.h"
#include "SimulationRun.h"

#include <QImage>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>

#include <qcustomplot.h>

#include <cmath>

using namespace cs;
using namespace cs::views;

class TestRunCharts : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void legendsSitOutsideTheData();
    void chartsFlowIntoTheWidth_data();
    void chartsFlowIntoTheWidth();
    void hoverReadsTheValuesUnderThePointer();
    void crosshairFollowsTheClockOnEveryChart();
    void chartsSave_data();
    void chartsSave();
    void csvHoldsEverySample();
    void badNamesAreRefused();
    void powerChartReadsTheSitePower();

private:
    QTemporaryDir dir_;
    std::unique_ptr<TopologyDocument> doc_;
    std::shared_ptr<const RunOverview> overview_;
    PlaybackClock clock_;
    std::unique_ptr<RunChartsWidget> charts_;
};

namespace {
// The sample holding at tsNs, found by walking the series (the widget bisects).
double heldAt(const Series& s, int64_t tsNs) {
    double v = std::nan("");
    for (size_t i = 0; i < s.tsNs.size() && s.tsNs[i] <= tsNs; ++i)
        v = s.value[i];
    return v;
}
} // namespace

void TestRunCharts::initTestCase() {
    doc_ = openTopology("small-256", {});
    const QString path = dir_.filePath("run.sqlite");
    RunSpec s;
    s.model = "llama3-8b";
    s.parallel.tp = 8, s.parallel.pp = 4, s.parallel.dp = 4;
    s.parallel.batchTokens = 8192.0 * 4 * 4;
    s.steps = 3;
    {
        RunStore store = RunStore::openForWriting(path);
        simulateRun(*doc_, s, &store);
    }
    RunReader reader(path, doc_->topology());
    overview_ = std::make_shared<const RunOverview>(overviewOf(reader));
    clock_.setRange(0, overview_->info.endNs);
    charts_ = std::make_unique<RunChartsWidget>(&clock_);
    charts_->setOverview(overview_);
    charts_->resize(440, 900);
    charts_->show();
    QVERIFY(QTest::qWaitForWindowExposed(charts_.get()));
}

void TestRunCharts::legendsSitOutsideTheData() {
    for (QCustomPlot* p : charts_->plots()) {
        p->replot();
        QVERIFY(p->legend->visible());
        const QRect data = p->axisRect()->rect();
        const QRect legend = p->legend->outerRect();
        QVERIFY2(!legend.intersects(data), qPrintable(p->objectName()));
        // Every entry fits inside the chart: none is cut at the right edge.
        for (int i = 0; i < p->legend->itemCount(); ++i)
            QVERIFY(p->legend->item(i)->outerRect().right() <= p->width());
    }
}

void TestRunCharts::chartsFlowIntoTheWidth_data() {
    QTest::addColumn<int>("widthPx");
    QTest::addColumn<int>("columns");
    QTest::newRow("a side dock") << 440 << 1;
    QTest::newRow("half a screen") << 900 << 2;
    QTest::newRow("a bottom dock") << 1800 << 4;
}

void TestRunCharts::chartsFlowIntoTheWidth() {
    QFETCH(int, widthPx);
    QFETCH(int, columns);
    charts_->resize(widthPx, 500);
    QTest::qWait(50);
    QCOMPARE(charts_->columns(), columns);
    for (QCustomPlot* p : charts_->plots())
        QVERIFY(p->height() >= 200); // short docks scroll instead of squashing the charts
    charts_->resize(440, 900);
    QTest::qWait(50);
}

void TestRunCharts::hoverReadsTheValuesUnderThePointer() {
    QCustomPlot* busy = charts_->plots()[0];
    const double tS = double(overview_->info.endNs) / 1e9 * 0.4;
    const QPoint at(int(busy->xAxis->coordToPixel(tS)), busy->axisRect()->center().y());
    QTest::mouseMove(busy, at);
    QTRY_VERIFY(!charts_->readoutText(0).isEmpty());
    // The readout names the time under the pointer and the mean busy the run holds there.
    const double shownS = busy->xAxis->pixelToCoord(at.x());
    const auto tsNs = int64_t(shownS * 1e9);
    const QString text = charts_->readoutText(0);
    QVERIFY2(text.contains(QString::number(shownS, 'f', 3) + " s"), qPrintable(text));
    const QString mean = "mean: " + formatValue(heldAt(overview_->busyMean, tsNs) * 100, "%");
    QVERIFY2(text.contains(mean), qPrintable(text + " / " + mean));
    // Leaving the chart hides it.
    QTest::mouseMove(charts_.get(), QPoint(0, 0));
    QEvent leave(QEvent::Leave);
    QApplication::sendEvent(busy, &leave);
    QVERIFY(charts_->readoutText(0).isEmpty());
}

void TestRunCharts::crosshairFollowsTheClockOnEveryChart() {
    for (double f : {0.2, 0.55, 0.9}) {
        const auto nowNs = int64_t(double(overview_->info.endNs) * f);
        clock_.seek(nowNs);
        for (int c = 0; c < int(charts_->plots().size()); ++c) {
            const std::vector<ChartSeries>& series = charts_->seriesOf(c);
            QVERIFY(!series.empty());
            const std::optional<QPointF> at = charts_->crosshairAt(c);
            QVERIFY2(at.has_value(), qPrintable(QString::number(c)));
            QCOMPARE(at->x(), double(nowNs) / 1e9);
            // On one of the chart's series, at its value now.
            bool onASeries = false;
            for (const ChartSeries& s : series)
                onASeries = onASeries || std::fabs(heldAt(*s.source, nowNs) * s.scale - at->y()) <
                                             1e-9 * std::max(1.0, std::fabs(at->y()));
            QVERIFY2(onASeries, qPrintable(QString("chart %1 at %2").arg(c).arg(f)));
        }
    }
}

void TestRunCharts::chartsSave_data() {
    QTest::addColumn<int>("chart");
    QTest::addColumn<QString>("name");
    QTest::newRow("busy as PNG") << 0 << "busy.png";
    QTest::newRow("network as SVG") << 1 << "network.svg";
    QTest::newRow("step time as PNG, upper-case suffix") << 3 << "steps.PNG";
}

void TestRunCharts::chartsSave() {
    QFETCH(int, chart);
    QFETCH(QString, name);
    const QString path = dir_.filePath(name);
    const QSize size(1200, 500);
    QCOMPARE(charts_->exportChart(chart, path, size), QString());
    if (name.endsWith(".svg")) {
        QSvgRenderer svg(path);
        QVERIFY(svg.isValid());
        QCOMPARE(svg.viewBoxF().size(), QSizeF(size));
        // Drawn, not blank: the SVG paints dark strokes over the white chart.
        QImage img(size, QImage::Format_ARGB32);
        img.fill(Qt::white);
        QPainter painter(&img);
        svg.render(&painter);
        painter.end();
        int dark = 0;
        for (int y = 0; y < img.height(); y += 2)
            for (int x = 0; x < img.width(); x += 2)
                dark += qGray(img.pixel(x, y)) < 128;
        QVERIFY(dark > 500);
        return;
    }
    const QImage img(path);
    QCOMPARE(img.size(), size);
    img.save(QString("/tmp/shots/chart%1.png").arg(chart));
    int coloured = 0; // the series' Okabe-Ito colours, not only axes and text
    for (int y = 0; y < img.height(); y += 2)
        for (int x = 0; x < img.width(); x += 2) {
            const QColor c = img.pixelColor(x, y);
            coloured += c.saturation() > 120 && c.value() > 80;
        }
    QVERIFY2(coloured > 200, qPrintable(QString::number(coloured)));
}

void TestRunCharts::csvHoldsEverySample() {
    const QString path = dir_.filePath("network.csv");
    QCOMPARE(charts_->exportChart(1, path), QString());
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = f.readAll().split('\n');
    QCOMPARE(lines.front(), QByteArray("series,unit,time_s,value"));
    size_t expected = 0;
    for (const ChartSeries& s : charts_->seriesOf(1))
        expected += s.source->tsNs.size();
    QVERIFY(expected > 10);
    QCOMPARE(size_t(lines.size()), expected + 2); // the header and the final newline
    // The first series' samples, in TB/s, in order.
    const ChartSeries& first = charts_->seriesOf(1).front();
    for (size_t i = 0; i < first.source->tsNs.size(); i += 7) {
        const QList<QByteArray> cols = lines[qsizetype(i + 1)].split(',');
        QCOMPARE(cols.size(), 4);
        QCOMPARE(QString::fromUtf8(cols[0]), first.name);
        QCOMPARE(cols[1], QByteArray("TB/s"));
        QCOMPARE(cols[2].toDouble(), double(first.source->tsNs[i]) / 1e9);
        QVERIFY(std::fabs(cols[3].toDouble() - first.source->value[i] * 1e-12) <=
                1e-8 * std::max(1.0, first.source->value[i] * 1e-12));
    }
}

void TestRunCharts::badNamesAreRefused() {
    const QString bad = dir_.filePath("chart.jpg");
    QVERIFY(charts_->exportChart(0, bad).contains(".png, .svg or .csv"));
    QVERIFY(!QFile::exists(bad));
    const QString missingDir = dir_.filePath("no/such/dir/chart.csv");
    QVERIFY(charts_->exportChart(0, missingDir).contains("cannot write"));
    QVERIFY(charts_->exportChart(0, dir_.filePath("huge.png"), QSize(20000, 10)).contains("16384"));
}

// The site's power over the run, as stored with it: a chart of its own, in MW, its values the
// run's.
void TestRunCharts::powerChartReadsTheSitePower() {
    QVERIFY(!overview_->sitePowerW.value.empty());
    const int chart = int(charts_->plots().size()) - 1;
    const std::vector<ChartSeries>& series = charts_->seriesOf(chart);
    QCOMPARE(series.front().name, QString("site power"));
    QCOMPARE(series.front().unit, QString("MW"));
    QVERIFY(series.front().source == &overview_->sitePowerW);
    QCOMPARE(series.front().scale, 1e-6);
}

QTEST_MAIN(TestRunCharts)
#include "tst_run_charts.moc"
