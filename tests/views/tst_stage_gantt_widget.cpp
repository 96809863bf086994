// The inspector's Gantt of a stage's step (StageGanttWidget), as the user sees it: each row's
// bars where their times fall, in their colours; rows with nothing in them left out; the line
// where the replay is; a bar's tooltip naming the pass or collective and its times.
#include "StageGanttWidget.h"
#include "StepBreakdownChart.h"

#include <QApplication>
#include <QtTest>

using namespace cs;
using namespace cs::views;

namespace {

// A 10 s step: compute then bubble; two forward passes, one backward, one TP collective.
std::shared_ptr<const StageGantt> sample() {
    auto g = std::make_shared<StageGantt>();
    g->stage = 2;
    g->stepS = 10;
    g->parts = {{0, 6, StepPart::Compute}, {6, 10, StepPart::Bubble}};
    g->rows[size_t(GanttRow::Forward)] = {{0, 2, 0, 0}, {2, 4, 1, 0}};
    g->rows[size_t(GanttRow::Backward)] = {{5, 7, 0, 0}};
    g->rows[size_t(GanttRow::Tp)] = {{1, 1.5}};
    return g;
}

} // namespace

class TestStageGanttWidget : public QObject {
    Q_OBJECT
private slots:
    void drawsEachBarWhereItsTimeFalls();
    void tooltipsNameWhatIsThere();
};

void TestStageGanttWidget::drawsEachBarWhereItsTimeFalls() {
    StageGanttWidget w;
    w.setGantt(sample(), 4);
    w.resize(420, w.sizeHint().height());
    QCOMPARE(w.title(), QString("Stage 2 of 4: one step, 10.000 s"));
    QCOMPARE(w.rowCount(), 4); // parts, forward, backward, TP: no PP or DP rows
    auto pixelAt = [&](const QImage& img, int row, double s) {
        const QRect r = w.rowRect(row);
        return img.pixelColor(int(r.left() + s / 10 * r.width()), r.center().y()).rgb();
    };
    QImage img = w.grab().toImage();
    QCOMPARE(pixelAt(img, 0, 3), stepPartColor(StepPart::Compute).rgb());
    QCOMPARE(pixelAt(img, 0, 8), stepPartColor(StepPart::Bubble).rgb());
    QCOMPARE(pixelAt(img, 1, 1), ganttRowColor(GanttRow::Forward).rgb());
    // The next pass a shade darker: where one ends and the next begins shows.
    QCOMPARE(pixelAt(img, 1, 3), ganttRowColor(GanttRow::Forward).darker(125).rgb());
    QCOMPARE(pixelAt(img, 2, 6), ganttRowColor(GanttRow::Backward).rgb());
    QCOMPARE(pixelAt(img, 3, 1.25), ganttRowColor(GanttRow::Tp).rgb());
    const QColor empty = w.palette().color(QPalette::Base);
    QCOMPARE(pixelAt(img, 1, 4.5), empty.rgb()); // between the forwards and the backward
    QCOMPARE(pixelAt(img, 3, 5), empty.rgb());
    // The replay halfway into its step: a line at 5 s across the rows.
    w.setNowPhase(0.5);
    img = w.grab().toImage();
    QCOMPARE(pixelAt(img, 3, 5), w.palette().color(QPalette::Highlight).rgb());
    QCOMPARE(pixelAt(img, 0, 3), stepPartColor(StepPart::Compute).rgb()); // the rest as it was
}

void TestStageGanttWidget::tooltipsNameWhatIsThere() {
    StageGanttWidget w;
    w.setGantt(sample(), 4);
    w.resize(420, w.sizeHint().height());
    auto at = [&](int row, double s) {
        const QRect r = w.rowRect(row);
        return w.describeAt(QPoint(int(r.left() + s / 10 * r.width()), r.center().y()));
    };
    QCOMPARE(at(1, 3),
             QString("Forward pass, micro-batch 1, chunk 0: 2.000 s – 4.000 s (2.000 s)"));
    QCOMPARE(at(2, 6),
             QString("Backward pass, micro-batch 0, chunk 0: 5.000 s – 7.000 s (2.000 s)"));
    QCOMPARE(at(0, 8), QString("Bubble: 6.000 s – 10.000 s (4.000 s)"));
    QCOMPARE(at(3, 1.25), QString("TP: 1.000 s – 1.500 s (0.500 s)"));
    QVERIFY(at(3, 5).isEmpty()); // no collective there
    w.setGantt(nullptr, 0);
    QVERIFY(at(1, 3).isEmpty());
}

QTEST_MAIN(TestStageGanttWidget)
#include "tst_stage_gantt_widget.moc"
