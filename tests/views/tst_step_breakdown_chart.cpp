// The Step Breakdown chart: a simulated run's summary drawn as one stacked bar per pipeline
// stage, the legend listing only parts that take time, and a recorded run's empty state.
#include "SimulationRun.h"
#include "StepBreakdownChart.h"
#include "TopologyDocument.h"

#include <QtTest>

#include <qcustomplot.h>

using namespace cs;
using namespace cs::views;

class TestStepBreakdownChart : public QObject {
    Q_OBJECT
private slots:
    void drawsEachStageAsAStackOfItsParts();
    void theTitleGivesTheSpreadOfTheSteps();
    void aRunWithoutBreakdownSaysSo();
    void aMixtureOfExpertsShowsItsAllToAll();
};

void TestStepBreakdownChart::drawsEachStageAsAStackOfItsParts() {
    const auto doc = openTopology("small-256", {});
    RunSpec spec;
    spec.model = "llama3-8b";
    spec.parallel.tp = 8, spec.parallel.pp = 4, spec.parallel.dp = 8;
    spec.steps = 1;
    const RunResult r = simulateRun(*doc, spec, nullptr);
    const QJsonObject summary = runSummaryJson(r, spec);

    StepBreakdownChart chart;
    chart.resize(640, 360);
    chart.setSummary(summary);
    QCOMPARE(int(chart.data().stages.size()), 4);
    QCOMPARE(chart.data().slowestStage, r.step.breakdown.slowestStage);
    QVERIFY2(chart.title().contains(QString::number(r.step.stepS, 'f', 3)),
             qPrintable(chart.title()));
    QVERIFY2(chart.spreadText().startsWith("1 steps: p50 "), qPrintable(chart.spreadText()));

    // One bar series per part that takes time somewhere; each stage's bars add up to the step.
    QCustomPlot* plot = chart.plot();
    QStringList names;
    std::vector<double> stacked(4, 0.0);
    for (int i = 0; i < plot->plottableCount(); ++i) {
        auto* bars = qobject_cast<QCPBars*>(plot->plottable(i));
        QVERIFY(bars);
        names << bars->name();
        for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it)
            stacked[size_t(std::lround(it->key))] += it->value;
    }
    for (double total : stacked)
        QVERIFY(std::fabs(total - r.step.stepS) <= 0.005 * r.step.stepS);
    QVERIFY(names.contains("Compute"));
    QVERIFY(names.contains("Bubble"));      // four stages wait on each other
    QVERIFY(!names.contains("Exposed EP")); // no expert layers: not in the legend
    int legendItems = 0;                    // the legend's grid wraps: some cells stay empty
    for (int i = 0; i < plot->legend->itemCount(); ++i)
        legendItems += plot->legend->item(i) ? 1 : 0;
    QCOMPARE(legendItems, plot->plottableCount());
    // The legend sits above the bars, not on them.
    plot->replot();
    QVERIFY(plot->legend->outerRect().bottom() <= plot->axisRect()->outerRect().top());
}

// A span's steps: the line under the title gives the spread the engine reports, checkpoint
// waits in the tail.
void TestStepBreakdownChart::theTitleGivesTheSpreadOfTheSteps() {
    const auto doc = openTopology("small-256", {});
    RunSpec spec;
    spec.model = "llama3-8b";
    spec.parallel.tp = 8, spec.parallel.pp = 4, spec.parallel.dp = 8;
    spec.spanS = 6 * 3600;
    spec.checkpointIntervalS = 60;
    const QJsonObject summary = runSummaryJson(simulateRun(*doc, spec, nullptr), spec);
    const QJsonObject spread = summary.value("stepTimeDistribution").toObject();
    QVERIFY(spread.value("p99").toDouble() > summary.value("stepTimeS").toDouble() * 1.01);
    StepBreakdownChart chart;
    chart.setSummary(summary);
    const QString title = chart.spreadText();
    for (const char* key : {"p50", "p99", "max"})
        QVERIFY2(title.contains(
                     QString("%1 %2 s").arg(key).arg(spread.value(key).toDouble(), 0, 'f', 3)),
                 qPrintable(title));
    QVERIFY2(title.contains(QString("%1 steps").arg(spread.value("steps").toInteger())),
             qPrintable(title));
}

void TestStepBreakdownChart::aRunWithoutBreakdownSaysSo() {
    StepBreakdownChart chart;
    chart.setSummary(QJsonObject{{"stepTimeS", 2.0}}); // a recorded run's summary
    QVERIFY(chart.data().empty());
    QCOMPARE(chart.plot()->plottableCount(), 0);
    QVERIFY(chart.title().startsWith("No step breakdown"));
    QVERIFY(chart.spreadText().isEmpty());
}

// A MoE run whose all-to-all crosses hosts: "Exposed EP" is in the legend and in every stage's
// bar, as long as the engine measured it.
void TestStepBreakdownChart::aMixtureOfExpertsShowsItsAllToAll() {
    const auto doc = openTopology("dgx-h100-superpod", {});
    RunSpec spec;
    spec.model = "gpt-oss-120b";
    spec.parallel.tp = 1, spec.parallel.pp = 4, spec.parallel.dp = 16, spec.parallel.ep = 16;
    spec.parallel.seqLen = 4096, spec.parallel.batchSeqs = 256, spec.parallel.zeroStage = 1;
    spec.steps = 1;
    const RunResult r = simulateRun(*doc, spec, nullptr);
    StepBreakdownChart chart;
    chart.resize(640, 360);
    chart.setSummary(runSummaryJson(r, spec));
    QCustomPlot* plot = chart.plot();
    QCPBars* ep = nullptr;
    for (int i = 0; i < plot->plottableCount(); ++i)
        if (plot->plottable(i)->name() == "Exposed EP")
            ep = qobject_cast<QCPBars*>(plot->plottable(i));
    QVERIFY(ep);
    QCOMPARE(ep->data()->size(), 4);
    for (auto it = ep->data()->constBegin(); it != ep->data()->constEnd(); ++it) {
        const double engineS =
            r.step.breakdown.stages[size_t(std::lround(it->key))][StepPart::ExposedEp];
        QVERIFY(engineS > 0);
        QVERIFY(std::fabs(it->value - engineS) <= 1e-6 + 1e-3 * engineS);
    }
}

QTEST_MAIN(TestStepBreakdownChart)
#include "tst_step_breakdown_chart.moc"
