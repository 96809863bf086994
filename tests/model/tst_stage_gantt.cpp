// A stage's step as the inspector's Gantt draws it (StageGantt): every pass of the schedule is a
// bar, every collective lies inside a bar of its row, the bars of a row are apart by more than
// the merge resolution; the Gantt a stored run keeps reads back as it was made, and a hostile
// summary reads as what it holds that is well-formed, bounded.
#include "EngineTestSupport.h"
#include "RunReader.h"
#include "StageGantt.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

Q_DECLARE_METATYPE(cs::ParallelConfig)

using namespace cs;
using namespace cs::test;

namespace {

std::optional<GanttRow> rowOfKind(TransferRecord::Kind k) {
    using K = TransferRecord::Kind;
    if (k == K::Tp) return GanttRow::Tp;
    if (k == K::Gather) return GanttRow::DpGather;
    if (k == K::Reduce) return GanttRow::DpReduce;
    return GanttRow::PpSend;
}

bool inside(const std::vector<GanttBar>& bars, double fromS, double toS) {
    return std::any_of(bars.begin(), bars.end(), [&](const GanttBar& b) {
        return b.fromS <= fromS + 1e-12 && toS <= b.toS + 1e-12;
    });
}

} // namespace

class TestStageGantt : public QObject {
    Q_OBJECT
private slots:
    void everyPassAndCollectiveIsDrawn_data();
    void everyPassAndCollectiveIsDrawn();
    void aStoredRunKeepsEveryStagesGantt();
    void aHostileSummaryReadsBounded();
};

void TestStageGantt::everyPassAndCollectiveIsDrawn_data() {
    QTest::addColumn<QString>("topology");
    QTest::addColumn<QString>("model");
    QTest::addColumn<ParallelConfig>("config");
    QTest::newRow("405B topology-aware") << "meta-roce-24k"
                                         << "llama3-405b" << config(8, 1, 16, 64, 8192);
    const ParallelConfig dpInner = dpInnermostInterleaved();
    QTest::newRow("DP innermost, interleaved") << "small-256"
                                               << "llama3-8b" << dpInner;
}

void TestStageGantt::everyPassAndCollectiveIsDrawn() {
    QFETCH(QString, topology);
    QFETCH(QString, model);
    QFETCH(ParallelConfig, config);
    const auto doc = openTopology(topology.toStdString(), {});
    const StepEstimate e = step(*doc, model.toUtf8().constData(), config);
    const ScheduleResult& r = *e.schedule;
    const double mergeS = r.stepS / 2000;
    const std::vector<StageGantt> gantt = ganttOfStep(r, e.breakdown, mergeS);
    QCOMPARE(int(gantt.size()), config.pp);
    for (int s = 0; s < config.pp; ++s) {
        const StageGantt& g = gantt[size_t(s)];
        const QString at = QStringLiteral("stage %1").arg(s);
        QCOMPARE(g.stage, s);
        QCOMPARE(g.stepS, r.stepS);
        // The passes, one bar each, with their micro-batch and chunk.
        const auto& passes = r.passes[size_t(s)];
        QCOMPARE(g.row(GanttRow::Forward).size() + g.row(GanttRow::Backward).size(), passes.size());
        for (const PassRecord& p : passes) {
            const auto& bars = g.row(p.forward ? GanttRow::Forward : GanttRow::Backward);
            QVERIFY2(std::any_of(bars.begin(), bars.end(),
                                 [&](const GanttBar& b) {
                                     return b.fromS == p.fromS && b.toS == p.toS &&
                                            b.micro == p.micro && b.chunk == p.chunk;
                                 }),
                     qPrintable(at));
        }
        // Every collective of the stage inside a bar of its row.
        int collectives = 0;
        for (const TransferRecord& t : r.transfers) {
            if (t.stage != s) continue;
            ++collectives;
            QVERIFY2(inside(g.row(*rowOfKind(t.kind)), t.fromS, t.toS), qPrintable(at));
        }
        QVERIFY(collectives > 0);
        // Merged rows: in time order, apart by more than the resolution, within the step.
        for (GanttRow row :
             {GanttRow::Tp, GanttRow::PpSend, GanttRow::DpGather, GanttRow::DpReduce}) {
            const auto& bars = g.row(row);
            for (size_t i = 0; i < bars.size(); ++i) {
                QVERIFY(bars[i].fromS <= bars[i].toS && bars[i].toS <= r.stepS + 1e-9);
                if (i) QVERIFY2(bars[i].fromS - bars[i - 1].toS > mergeS, qPrintable(at));
            }
        }
        // The parts row is the breakdown's own segments of this stage.
        QCOMPARE(g.parts.size(), e.breakdown.segments[size_t(s)].size());
    }
}

void TestStageGantt::aStoredRunKeepsEveryStagesGantt() {
    QTemporaryDir dir;
    const auto doc = openTopology("small-256", {});
    RunSpec spec;
    spec.model = "llama3-8b";
    spec.parallel = config(8, 1, 4, 8, 8192);
    spec.parallel.batchTokens = 8192.0 * 8 * 8;
    spec.steps = 1;
    const QString path = dir.filePath("run.sqlite");
    const RunResult result = simulateToStore(*doc, spec, path);
    const QJsonObject summary =
        QJsonDocument::fromJson(
            QByteArray::fromStdString(RunReader::runsIn(path).back().summaryJson))
            .object();
    const StepEstimate& e = result.step;
    const auto made = ganttOfStep(*e.schedule, e.breakdown, e.schedule->stepS / 2000);
    for (int s = 0; s < 4; ++s) {
        const auto read = stageGanttOf(summary, s);
        QVERIFY(read);
        QCOMPARE(read->stage, s);
        QCOMPARE(read->parts.size(), made[size_t(s)].parts.size());
        for (int row = 0; row < kGanttRows; ++row) {
            const auto& a = read->rows[size_t(row)];
            const auto& b = made[size_t(s)].rows[size_t(row)];
            QCOMPARE(a.size(), b.size());
            for (size_t i = 0; i < a.size(); ++i) { // stored to the microsecond
                QVERIFY(std::fabs(a[i].fromS - b[i].fromS) <= 0.6e-6);
                QVERIFY(std::fabs(a[i].toS - b[i].toS) <= 0.6e-6);
                QCOMPARE(a[i].micro, b[i].micro);
                QCOMPARE(a[i].chunk, b[i].chunk);
            }
        }
    }
    QVERIFY(!stageGanttOf(summary, 4));
    QVERIFY(!stageGanttOf(summary, -1));
    QVERIFY(!stageGanttOf(QJsonObject{}, 0)); // a recorded run keeps none
}

void TestStageGantt::aHostileSummaryReadsBounded() {
    QJsonArray forward{QJsonArray{0.0, 1.0, 0, 0},  // kept
                       QJsonArray{-1.0, 1.0, 1, 0}, // starts before the step
                       QJsonArray{1.5, 1.0, 2, 0},  // ends before it starts
                       QJsonArray{1.0, 9.0, 3, 0},  // ends after the step
                       QJsonArray{"a", "b"},        // not numbers
                       QJsonValue(7)};
    QJsonArray parts{QJsonArray{0.0, 2.0, 0}, QJsonArray{2.0, 3.0, 99}};
    QJsonArray tp;
    for (int i = 0; i < 30000; ++i)
        tp.append(QJsonArray{i * 1e-5, i * 1e-5 + 5e-6});
    QJsonObject stage{{"forward", forward}, {"parts", parts}, {"TP", tp}};
    QJsonObject summary{{"stageGantt", QJsonObject{{"stepS", 3.0}, {"stages", QJsonArray{stage}}}}};
    const auto g = stageGanttOf(summary, 0);
    QVERIFY(g);
    QCOMPARE(g->row(GanttRow::Forward).size(), size_t(1));
    QCOMPARE(g->row(GanttRow::Forward)[0].micro, 0);
    QCOMPARE(g->parts.size(), size_t(1));
    QCOMPARE(g->row(GanttRow::Tp).size(), kMaxGanttBars);
    QVERIFY(g->row(GanttRow::Backward).empty());
    // A step that is not a positive time: no Gantt.
    summary["stageGantt"] = QJsonObject{{"stepS", -1.0}, {"stages", QJsonArray{stage}}};
    QVERIFY(!stageGanttOf(summary, 0));
}

QTEST_GUILESS_MAIN(TestStageGantt)
#include "tst_stage_gantt.moc"
