// The study chart as a designer reads it: a figure against an axis or cost, one series per
// value of a second axis, string values as named ticks, failed variants left out and
// counted, the Pareto front the brute-force definition gives; on screen every variant that
// ran is a point, hovering one names its parameters, clicking asks to open it, the legend
// covers none, and the chart saves as CSV (read back), PNG and SVG.
#include "ParetoFront.h"
#include "PlaceInside.h"
#include "StudyChartData.h"
#include "StudyChartWidget.h"

#include <QComboBox>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QLabel>
#include <QPainter>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>

#include <qcustomplot.h>

#include <cmath>
#include <set>

using namespace cs;
using namespace cs::views;

namespace {

const QString kOversub = "design.generator.clusters[0].oversubscription";
const QString kPlacement = "run.parallel.placement";

VariantResult variant(int index, double oversub, const QString& placement, bool ok,
                      QJsonObject figures) {
    VariantResult v;
    v.index = index;
    v.params = {{kOversub, oversub}, {kPlacement, placement}};
    v.ok = ok;
    v.message = ok ? "" : "refused";
    v.figures = figures;
    return v;
}

// Oversubscription 1, 2, 4 times placement topology, fragmented, as a study runs them, and
// one explicit variant at 8:1: more uplinks cost more, fragmented jobs pay for fewer. 4:1
// topology failed; the explicit one has no cost.
std::vector<VariantResult> studyResults() {
    auto figures = [](double cost, double stepS) {
        return QJsonObject{{"stepTimeS", stepS}, {"mfu", 0.4 / stepS}, {"cost.perGpu", cost}};
    };
    return {variant(0, 1, "topology", true, figures(40000, 1.01)),
            variant(1, 1, "fragmented", true, figures(40000, 1.10)),
            variant(2, 2, "topology", true, figures(35000, 1.02)),
            variant(3, 2, "fragmented", true, figures(35000, 1.20)),
            variant(4, 4, "topology", false, {}),
            variant(5, 4, "fragmented", true, figures(32000, 1.40)),
            variant(6, 8, "topology", true, QJsonObject{{"stepTimeS", 1.05}, {"mfu", 0.38}})};
}

StudySpec studySpec() {
    StudySpec s;
    s.axes = {{kOversub.toStdString(), StudyAxisKind::Design, {}, {1, 2, 4}},
              {kPlacement.toStdString(), StudyAxisKind::Run, {}, {"topology", "fragmented"}}};
    s.record = {"stepTimeS", "mfu", "cost.perGpu"};
    return s;
}

// "0 2 | 1 3 5": each series' variants in order.
QString variantsOf(const StudyChartData& d) {
    QStringList series;
    for (const StudySeries& s : d.series) {
        QStringList v;
        for (const StudyPoint& p : s.points)
            v << QString::number(p.variant);
        series << v.join(' ');
    }
    return series.join(" | ");
}

// Whether point i is beaten by another on both coordinates (or matched on one and beaten on
// the other), less being better: the definition, pair by pair.
std::set<size_t> bruteForceFront(const std::vector<std::pair<double, double>>& p) {
    std::set<size_t> front;
    for (size_t i = 0; i < p.size(); ++i) {
        bool dominated = false;
        for (size_t j = 0; j < p.size() && !dominated; ++j)
            dominated = p[j].first <= p[i].first && p[j].second <= p[i].second &&
                        (p[j].first < p[i].first || p[j].second < p[i].second);
        if (!dominated) front.insert(i);
    }
    return front;
}

std::set<int> frontVariants(const StudyChartData& d) {
    std::set<int> out;
    for (const StudyPoint& p : d.front)
        out.insert(p.variant);
    return out;
}

// The brute-force front of the chart's own points, in "less is better" terms.
std::set<int> bruteForceFrontOf(const StudyChartData& d) {
    std::vector<std::pair<double, double>> costs;
    std::vector<int> variants;
    for (const StudySeries& s : d.series)
        for (const StudyPoint& p : s.points) {
            costs.emplace_back(d.x.lowerIsBetter ? p.x : -p.x, d.y.lowerIsBetter ? p.y : -p.y);
            variants.push_back(p.variant);
        }
    std::set<int> out;
    for (size_t i : bruteForceFront(costs))
        out.insert(variants[i]);
    return out;
}

QCPGraph* graphNamed(QCustomPlot* p, const QString& name) {
    for (int i = 0; i < p->graphCount(); ++i)
        if (p->graph(i)->name() == name) return p->graph(i);
    return nullptr;
}

} // namespace

class TestStudyChart : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void seriesAndPoints_data();
    void seriesAndPoints();
    void stringValuesAreNamedTicks();
    void failedVariantsAreLeftOutAndCounted();
    void paretoFrontIsTheBruteForceOne_data();
    void paretoFrontIsTheBruteForceOne();
    void paretoFrontOfRandomStudies();
    void quantitiesReadInTheirUnits();
    void defaultChartIsStepTimeAgainstCost();
    void widgetShowsEveryVariantThatRan();
    void legendCoversNoPoint();
    void hoverNamesTheVariantsParameters();
    void placeInsideKeepsTheBoxIn_data();
    void placeInsideKeepsTheBoxIn();
    void clickAsksToOpenTheVariant();
    void csvReadsBackThePoints();
    void picturesAreDrawn_data();
    void picturesAreDrawn();

private:
    QTemporaryDir dir_;
    std::unique_ptr<StudyChartWidget> chart_;
};

void TestStudyChart::initTestCase() {
    chart_ = std::make_unique<StudyChartWidget>();
    chart_->setStudy(studySpec(), studyResults());
    chart_->resize(1000, 620);
    chart_->show();
    QVERIFY(QTest::qWaitForWindowExposed(chart_.get()));
}

void TestStudyChart::seriesAndPoints_data() {
    QTest::addColumn<QString>("x");
    QTest::addColumn<QString>("y");
    QTest::addColumn<QString>("seriesBy");
    QTest::addColumn<QString>("variants"); // each series' variants by x
    QTest::addColumn<QStringList>("names");
    QTest::addColumn<int>("missing");
    QTest::newRow("step time against cost, by placement")
        << "cost.perGpu"
        << "stepTimeS" << kPlacement << "2 0 | 5 3 1"
        << QStringList{"Placement = topology", "Placement = fragmented"} << 1;
    QTest::newRow("step time against oversubscription, by placement")
        << kOversub << "stepTimeS" << kPlacement << "0 2 6 | 1 3 5"
        << QStringList{"Placement = topology", "Placement = fragmented"} << 0;
    QTest::newRow("MFU against placement, by oversubscription")
        << kPlacement << "mfu" << kOversub << "0 1 | 2 3 | 5 | 6"
        << QStringList{"Oversubscription = 1", "Oversubscription = 2", "Oversubscription = 4",
                       "Oversubscription = 8"}
        << 0;
    QTest::newRow("one series") << kOversub << "stepTimeS" << QString() << "0 1 2 3 5 6"
                                << QStringList{"Step time"} << 0;
}

void TestStudyChart::seriesAndPoints() {
    QFETCH(QString, x);
    QFETCH(QString, y);
    QFETCH(QString, seriesBy);
    QFETCH(QString, variants);
    QFETCH(QStringList, names);
    QFETCH(int, missing);
    const std::vector<VariantResult> results = studyResults();
    const StudyChartData d = studyChartData(results, {x, y, seriesBy});
    QCOMPARE(variantsOf(d), variants);
    QStringList got;
    for (const StudySeries& s : d.series)
        got << s.name;
    QCOMPARE(got, names);
    QCOMPARE(d.ok, 6);
    QCOMPARE(d.failed, 1);
    QCOMPARE(d.missing, missing);
    // Each point holds its variant's values, y in the figure's unit (MFU in %).
    for (const StudySeries& s : d.series)
        for (const StudyPoint& p : s.points) {
            const VariantResult& v = results[size_t(p.variant)];
            const double scale = y == "mfu" ? 100 : 1;
            QCOMPARE(p.y, v.figures.value(y).toDouble() * scale);
            if (x == "cost.perGpu") QCOMPARE(p.x, v.figures.value(x).toDouble());
            if (x == kOversub) QCOMPARE(p.x, v.params.value(x).toDouble());
        }
    QVERIFY(d.categoricalX == (x == kPlacement));
    QVERIFY(d.front.empty() == (x != "cost.perGpu")); // a front needs two figures
}

void TestStudyChart::stringValuesAreNamedTicks() {
    const std::vector<VariantResult> results = studyResults();
    const StudyChartData d = studyChartData(results, {kPlacement, "stepTimeS", kOversub});
    QVERIFY(d.categoricalX);
    QCOMPARE(d.categories, (std::vector<QString>{"topology", "fragmented"}));
    for (const StudySeries& s : d.series)
        for (const StudyPoint& p : s.points)
            QCOMPARE(d.categories[size_t(p.x)],
                     results[size_t(p.variant)].params.value(kPlacement).toString());
    // On screen: a tick at each category, labelled with its value.
    chart_->setRequest({kPlacement, "stepTimeS", kOversub});
    auto ticker = chart_->plot()->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
    QVERIFY(ticker);
    QCOMPARE(ticker->ticks().value(0), QString("topology"));
    QCOMPARE(ticker->ticks().value(1), QString("fragmented"));
}

void TestStudyChart::failedVariantsAreLeftOutAndCounted() {
    const std::vector<VariantResult> results = studyResults();
    for (const QString& x : {QString("cost.perGpu"), kOversub, kPlacement}) {
        const StudyChartData d = studyChartData(results, {x, "stepTimeS", kPlacement});
        QVERIFY(d.find(4) == nullptr);
        QCOMPARE(d.failed, 1);
        QCOMPARE(int(d.pointCount()) + d.missing, d.ok);
    }
}

void TestStudyChart::paretoFrontIsTheBruteForceOne_data() {
    QTest::addColumn<QString>("x");
    QTest::addColumn<QString>("y");
    QTest::addColumn<QString>("front"); // the variants, by x
    QTest::newRow("step time against cost") << "cost.perGpu"
                                            << "stepTimeS"
                                            << "5 2 0";
    // More MFU is better: the front is the cheapest at each MFU level.
    QTest::newRow("MFU against cost") << "cost.perGpu"
                                      << "mfu"
                                      << "5 2 0";
    QTest::newRow("cost against step time") << "stepTimeS"
                                            << "cost.perGpu"
                                            << "0 2 5";
}

void TestStudyChart::paretoFrontIsTheBruteForceOne() {
    QFETCH(QString, x);
    QFETCH(QString, y);
    QFETCH(QString, front);
    const StudyChartData d = studyChartData(studyResults(), {x, y, kPlacement});
    QStringList got;
    for (const StudyPoint& p : d.front)
        got << QString::number(p.variant);
    QCOMPARE(got.join(' '), front);
    QCOMPARE(frontVariants(d), bruteForceFrontOf(d));
}

// Many variants, with ties on both coordinates: the front is the definition's.
void TestStudyChart::paretoFrontOfRandomStudies() {
    QRandomGenerator random(7);
    for (int round = 0; round < 20; ++round) {
        std::vector<VariantResult> results;
        for (int i = 0; i < 150; ++i)
            results.push_back(variant(i, 1 + i % 5, i % 3 ? "topology" : "fragmented",
                                      random.bounded(10) != 0,
                                      {{"cost.perGpu", 30000.0 + random.bounded(20) * 500},
                                       {"stepTimeS", 1 + random.bounded(30) * 0.01}}));
        const StudyChartData d = studyChartData(results, {"cost.perGpu", "stepTimeS", kPlacement});
        QVERIFY(!d.front.empty());
        QCOMPARE(frontVariants(d), bruteForceFrontOf(d));
        for (size_t i = 1; i < d.front.size(); ++i)
            QVERIFY(d.front[i - 1].x <= d.front[i].x);
    }
}

void TestStudyChart::quantitiesReadInTheirUnits() {
    QCOMPARE(studyQuantity("stepTimeS").title(), QString("Step time (s)"));
    QCOMPARE(studyQuantity("cost.perGpu").title(), QString("Cost per GPU ($)"));
    QCOMPARE(studyQuantity("mfu").title(), QString("MFU (%)"));
    QCOMPARE(studyQuantity("memoryGiB.weights").unit, QString("GiB"));
    QCOMPARE(studyQuantity("breakdown.exposedDpS").unit, QString("s"));
    QCOMPARE(studyQuantity(kOversub).label, QString("Oversubscription"));
    QCOMPARE(studyQuantity(kPlacement).label, QString("Placement"));
    QCOMPARE(studyQuantity("topology").label, QString("Topology"));
    QCOMPARE(studyQuantity("cost.perGpu").text(41300), QString("$41,300"));
}

void TestStudyChart::defaultChartIsStepTimeAgainstCost() {
    const StudyChartRequest r = defaultStudyChart(
        {kOversub, kPlacement}, {"stepTimeS", "mfu", "cost.perGpu"}, studyResults());
    QCOMPARE(r.x, QString("cost.perGpu"));
    QCOMPARE(r.y, QString("stepTimeS"));
    // Placement leaves the cost alone: its series run along the cost axis.
    QCOMPARE(r.seriesBy, kPlacement);
    const StudyChartRequest days =
        defaultStudyChart({kOversub}, {"stepTimeS", "daysToTrain"}, studyResults());
    QCOMPARE(days.y, QString("daysToTrain"));
    QCOMPARE(days.x, kOversub);
}

void TestStudyChart::widgetShowsEveryVariantThatRan() {
    chart_->setRequest({kOversub, "stepTimeS", kPlacement});
    QCustomPlot* p = chart_->plot();
    int points = 0;
    for (int i = 0; i < p->graphCount(); ++i)
        points += p->graph(i)->data()->size();
    QCOMPARE(points, 6); // every variant that ran; no front against an axis
    QCOMPARE(p->graphCount(), 2);
    QCOMPARE(graphNamed(p, "topology")->lineStyle(), QCPGraph::lsLine); // a trend along x
    QCOMPARE(p->xAxis->label(), QString("Oversubscription"));
    QCOMPARE(p->yAxis->label(), QString("Step time (s)"));
    // Against cost: the five with a cost, and the front over them.
    chart_->setRequest({"cost.perGpu", "stepTimeS", kPlacement});
    QCOMPARE(p->graphCount(), 3);
    QCOMPARE(
        graphNamed(p, "topology")->data()->size() + graphNamed(p, "fragmented")->data()->size(), 5);
    QCOMPARE(graphNamed(p, "Pareto front")->data()->size(), 3);
    QCOMPARE(p->xAxis->label(), QString("Cost per GPU ($)"));
    // The legend's title names the axis; its entries the values, then the front.
    QCOMPARE(p->legend->itemCount(), 3);
    QCOMPARE(qobject_cast<QCPPlottableLegendItem*>(p->legend->item(0))->plottable()->name(),
             QString("topology"));
    QCOMPARE(qobject_cast<QCPPlottableLegendItem*>(p->legend->item(2))->plottable()->name(),
             QString("Pareto front"));
    // One series with variants sharing a cost: points, no zig-zag line through them.
    chart_->setRequest({"cost.perGpu", "mfu", QString()});
    QCOMPARE(graphNamed(p, "MFU")->lineStyle(), QCPGraph::lsNone);
    QCOMPARE(graphNamed(p, "MFU")->data()->size(), 5);
    chart_->setRequest({"cost.perGpu", "stepTimeS", kPlacement});
    // The combo boxes say what is shown.
    QCOMPARE(chart_->findChild<QComboBox*>("studyX")->currentData().toString(),
             QString("cost.perGpu"));
    QCOMPARE(chart_->findChild<QComboBox*>("studySeries")->currentText(), QString("Placement"));
}

void TestStudyChart::legendCoversNoPoint() {
    for (const StudyChartRequest& r : {StudyChartRequest{"cost.perGpu", "stepTimeS", kPlacement},
                                       StudyChartRequest{kPlacement, "mfu", kOversub}}) {
        chart_->setRequest(r);
        QCustomPlot* p = chart_->plot();
        p->replot();
        const QRect data = p->axisRect()->rect();
        QVERIFY(p->legend->visible());
        QVERIFY(!p->legend->outerRect().intersects(data));
        QVERIFY(p->legend->outerRect().right() <= p->width());
        for (const StudySeries& s : chart_->data().series)
            for (const StudyPoint& pt : s.points) {
                const QPointF at = *chart_->pixelOf(pt.variant);
                // Inside the axis rect, with room for its marker.
                QVERIFY2(data.adjusted(4, 4, -4, -4).contains(at.toPoint()),
                         qPrintable(QString::number(pt.variant)));
            }
    }
}

void TestStudyChart::hoverNamesTheVariantsParameters() {
    chart_->setRequest({"cost.perGpu", "stepTimeS", kPlacement});
    const QPoint at = chart_->pixelOf(3)->toPoint();
    QTest::mouseMove(chart_->plot(), at);
    QTRY_VERIFY(!chart_->hoverText().isEmpty());
    const QString text = chart_->hoverText();
    for (const char* part : {"Variant 3", "Oversubscription: 2", "Placement: fragmented",
                             "Step time: 1.20 s", "Cost per GPU: $35,000"})
        QVERIFY2(text.contains(part), qPrintable(text));
    QVERIFY(!text.contains("Pareto"));
    QTest::mouseMove(chart_->plot(), chart_->pixelOf(2)->toPoint());
    QTRY_VERIFY(chart_->hoverText().contains("Variant 2"));
    QVERIFY(chart_->hoverText().contains("on the Pareto front"));
    // Two variants on one spot (equal cost at 1:1): both named.
    chart_->setRequest({kOversub, "cost.perGpu", QString()});
    QTest::mouseMove(chart_->plot(), chart_->pixelOf(0)->toPoint());
    QTRY_VERIFY(chart_->hoverText().contains("Variant 0"));
    QVERIFY2(chart_->hoverText().contains("Variant 1"), qPrintable(chart_->hoverText()));
    // Every point's box stays inside the chart, the corners' too (a tooltip beside the right-
    // most point was cut by the window's edge).
    chart_->setRequest({"cost.perGpu", "stepTimeS", kPlacement});
    QLabel* box = chart_->hoverLabel();
    for (const StudySeries& s : chart_->data().series)
        for (const StudyPoint& pt : s.points) {
            QTest::mouseMove(chart_->plot(), chart_->pixelOf(pt.variant)->toPoint());
            QTRY_VERIFY(chart_->hoverText().contains(QString("Variant %1").arg(pt.variant)));
            QVERIFY(box->isVisible());
            QVERIFY2(chart_->plot()->rect().contains(box->geometry()),
                     qPrintable(QString("variant %1: box %2,%3 %4x%5 in %6x%7")
                                    .arg(pt.variant)
                                    .arg(box->x())
                                    .arg(box->y())
                                    .arg(box->width())
                                    .arg(box->height())
                                    .arg(chart_->plot()->width())
                                    .arg(chart_->plot()->height())));
            QVERIFY(box->text().startsWith(chart_->hoverText()));
        }
    // Away from every point: nothing.
    QTest::mouseMove(chart_->plot(), chart_->plot()->axisRect()->topLeft() + QPoint(2, 2));
    QTRY_VERIFY(chart_->hoverText().isEmpty());
    QVERIFY(!box->isVisible());
}

void TestStudyChart::placeInsideKeepsTheBoxIn_data() {
    QTest::addColumn<QPoint>("anchor");
    QTest::addColumn<QSize>("size");
    QTest::addColumn<QPoint>("expected");
    const QSize box(200, 100); // in an area of 1000 x 600 at (0, 0)
    QTest::newRow("room below right") << QPoint(100, 100) << box << QPoint(112, 118);
    QTest::newRow("right edge: to the left") << QPoint(950, 100) << box << QPoint(746, 118);
    QTest::newRow("bottom edge: above") << QPoint(100, 580) << box << QPoint(112, 476);
    QTest::newRow("corner: left and above") << QPoint(990, 590) << box << QPoint(786, 486);
    QTest::newRow("bigger than the area: its top-left in")
        << QPoint(500, 300) << QSize(1200, 700) << QPoint(0, 0);
}

void TestStudyChart::placeInsideKeepsTheBoxIn() {
    QFETCH(QPoint, anchor);
    QFETCH(QSize, size);
    QFETCH(QPoint, expected);
    const QRect area(0, 0, 1000, 600);
    const QPoint at = placeInside(anchor, size, area);
    QCOMPARE(at, expected);
    if (size.width() <= area.width() && size.height() <= area.height())
        QVERIFY(area.contains(QRect(at, size)));
}

void TestStudyChart::clickAsksToOpenTheVariant() {
    chart_->setRequest({kPlacement, "stepTimeS", kOversub});
    QSignalSpy activated(chart_.get(), &StudyChartWidget::variantActivated);
    QTest::mouseClick(chart_->plot(), Qt::LeftButton, {}, chart_->pixelOf(5)->toPoint());
    QCOMPARE(activated.size(), 1);
    QCOMPARE(activated.front().front().toInt(), 5);
    // A click on no point asks nothing.
    QTest::mouseClick(chart_->plot(), Qt::LeftButton, {},
                      chart_->plot()->axisRect()->topLeft() + QPoint(2, 2));
    QCOMPARE(activated.size(), 1);
}

void TestStudyChart::csvReadsBackThePoints() {
    for (const StudyChartRequest& r : {StudyChartRequest{"cost.perGpu", "mfu", kPlacement},
                                       StudyChartRequest{kPlacement, "stepTimeS", kOversub}}) {
        chart_->setRequest(r);
        const QString path = dir_.filePath("study.csv");
        QCOMPARE(chart_->exportChart(path), QString());
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QList<QByteArray> lines = f.readAll().split('\n');
        QCOMPARE(lines.takeLast(), QByteArray()); // the final newline
        const StudyChartData& d = chart_->data();
        QCOMPARE(lines.takeFirst(), "variant,series," + d.x.title().toUtf8() + ',' +
                                        d.y.title().toUtf8() + ",pareto_front," +
                                        kOversub.toUtf8() + ',' + kPlacement.toUtf8());
        QCOMPARE(size_t(lines.size()), d.pointCount());
        for (const QByteArray& line : lines) {
            const QList<QByteArray> cols = line.split(',');
            QCOMPARE(cols.size(), 7);
            const StudyPoint* p = d.find(cols[0].toInt());
            QVERIFY(p);
            if (d.categoricalX)
                QCOMPARE(QString(cols[2]), d.categories[size_t(p->x)]);
            else
                QCOMPARE(cols[2].toDouble(), p->x);
            QCOMPARE(cols[3].toDouble(), p->y);
            QCOMPARE(cols[4] == "1", d.onFront(p->variant));
            QCOMPARE(QString(cols[6]),
                     studyResults()[size_t(p->variant)].params.value(kPlacement).toString());
        }
    }
}

void TestStudyChart::picturesAreDrawn_data() {
    QTest::addColumn<QString>("name");
    QTest::newRow("PNG") << "study.png";
    QTest::newRow("SVG") << "study.svg";
}

void TestStudyChart::picturesAreDrawn() {
    QFETCH(QString, name);
    chart_->setRequest({"cost.perGpu", "stepTimeS", kPlacement});
    const QString path = dir_.filePath(name);
    const QSize size(1000, 560);
    QCOMPARE(chart_->exportChart(path, size), QString());
    QVERIFY(QFileInfo(path).size() > 1000);
    QImage img;
    if (name.endsWith(".svg")) {
        QSvgRenderer svg(path);
        QVERIFY(svg.isValid());
        img = QImage(size, QImage::Format_ARGB32);
        img.fill(Qt::white);
        QPainter painter(&img);
        svg.render(&painter);
    } else {
        QVERIFY(img.load(path));
        QCOMPARE(img.size(), size);
    }
    // The series' colours, not only black axes and text on white.
    int coloured = 0, dark = 0;
    for (int y = 0; y < img.height(); y += 2)
        for (int x = 0; x < img.width(); x += 2) {
            const QColor c = img.pixelColor(x, y);
            coloured += c.saturation() > 120 && c.value() > 80;
            dark += qGray(c.rgb()) < 100;
        }
    QVERIFY2(coloured > 100, qPrintable(QString::number(coloured)));
    QVERIFY2(dark > 300, qPrintable(QString::number(dark)));
    QVERIFY(chart_->exportChart(dir_.filePath("study.jpg")).contains(".png, .svg or .csv"));
}

QTEST_MAIN(TestStudyChart)
#include "tst_study_chart.moc"
