// Where a step's time goes (StepBreakdown): for runs that stress each part, every stage's parts
// add up to the step, and each part is the time measured from the schedule's own intervals,
// computed here a second way: with interval sets, gap by gap.
#include "EngineTestSupport.h"
#include "StepBreakdown.h"

#include <QtTest>

#include <algorithm>
#include <map>
#include <tuple>

Q_DECLARE_METATYPE(cs::ParallelConfig)

using namespace cs;
using namespace cs::test;

namespace {

// A set of disjoint, sorted intervals.
using Set = std::vector<Interval>;

Set normalized(Set s) {
    std::sort(s.begin(), s.end(),
              [](const Interval& a, const Interval& b) { return a.fromS < b.fromS; });
    Set out;
    for (const Interval& x : s) {
        if (x.toS <= x.fromS) continue;
        if (!out.empty() && out.back().toS >= x.fromS)
            out.back().toS = std::max(out.back().toS, x.toS);
        else
            out.push_back(x);
    }
    return out;
}

Set intersect(const Set& a, const Set& b) {
    Set out;
    for (const Interval& x : a)
        for (const Interval& y : b) {
            const double from = std::max(x.fromS, y.fromS), to = std::min(x.toS, y.toS);
            if (to > from) out.push_back({from, to});
        }
    return normalized(out);
}

Set subtract(const Set& a, const Set& b) {
    Set out;
    for (Interval x : a) {
        for (const Interval& y : b) {
            if (y.toS <= x.fromS || y.fromS >= x.toS) continue;
            if (y.fromS > x.fromS) out.push_back({x.fromS, y.fromS});
            x.fromS = std::max(x.fromS, y.toS);
            if (x.fromS >= x.toS) break;
        }
        if (x.toS > x.fromS) out.push_back(x);
    }
    return normalized(out);
}

double length(const Set& s) {
    double sum = 0;
    for (const Interval& x : s)
        sum += x.toS - x.fromS;
    return sum;
}

using PassKey = std::tuple<int, bool, int, int>; // stage, forward, chunk, micro

} // namespace

class TestStepBreakdown : public QObject {
    Q_OBJECT
private slots:
    void partsAddUpAndMatchTheTimeline_data();
    void partsAddUpAndMatchTheTimeline();
    void aSingleStageHasNoBubble();
    void dpInnermostExposesTensorParallelism();
};

void TestStepBreakdown::partsAddUpAndMatchTheTimeline_data() {
    QTest::addColumn<QString>("topology");
    QTest::addColumn<QString>("model");
    QTest::addColumn<ParallelConfig>("config");
    ParallelConfig aware = config(8, 1, 16, 64, 8192); // Llama 3 405B as Meta trained it
    QTest::newRow("405B topology-aware") << "meta-roce-24k"
                                         << "llama3-405b" << aware;
    const ParallelConfig dpInner = dpInnermostInterleaved();
    QTest::newRow("DP innermost") << "small-256"
                                  << "llama3-8b" << dpInner;
    ParallelConfig zero3 = config(8, 1, 1, 32, 8192);
    zero3.virtualStages = 1;
    zero3.zeroStage = 3;
    zero3.batchTokens = 8192.0 * 32 * 4;
    QTest::newRow("ZeRO-3 single stage") << "small-256"
                                         << "llama3-8b" << zero3;
    ParallelConfig withCp = config(8, 2, 2, 8, 8192);
    withCp.virtualStages = 1;
    withCp.batchTokens = 8192.0 * 8 * 8;
    QTest::newRow("with CP") << "small-256"
                             << "llama3-8b" << withCp;
}

void TestStepBreakdown::partsAddUpAndMatchTheTimeline() {
    QFETCH(QString, topology);
    QFETCH(QString, model);
    QFETCH(ParallelConfig, config);
    const auto doc = openTopology(topology.toStdString(), {});
    const StepEstimate e = step(*doc, model.toUtf8().constData(), config);
    const ScheduleResult& r = *e.schedule;
    const StepBreakdown& b = e.breakdown;
    QCOMPARE(int(b.stages.size()), config.pp);

    std::map<PassKey, double> passEnd, arrived;
    for (int s = 0; s < config.pp; ++s)
        for (const PassRecord& x : r.passes[size_t(s)])
            passEnd[{s, x.forward, x.chunk, x.micro}] = x.toS;
    for (const TransferRecord& t : r.transfers)
        if (t.kind == TransferRecord::Kind::SendForward ||
            t.kind == TransferRecord::Kind::SendBackward)
            arrived[{t.target, t.kind == TransferRecord::Kind::SendForward, t.chunk, t.micro}] =
                t.toS;
    const int v = withResolvedDefaults(*findModel(model.toStdString()), config).virtualStages;

    for (int s = 0; s < config.pp; ++s) {
        const StepParts& parts = b.stages[size_t(s)];
        const QString at = QStringLiteral("stage %1").arg(s);
        // The parts add up to the step (the issue asks for 0.5 %; they tile it exactly).
        QVERIFY2(std::fabs(parts.totalS() - e.stepS) <= 0.005 * e.stepS, qPrintable(at));
        const double eps = 1e-9 * e.stepS * 1e3;

        const Set passes = normalized(r.compute[size_t(s)]);
        const Set busy = normalized(r.busy[size_t(s)]);
        const Set cp = normalized(r.cpExposed[size_t(s)]);
        Set tp;
        for (const TransferRecord& t : r.transfers)
            if (t.kind == TransferRecord::Kind::Tp && t.stage == s) tp.push_back({t.fromS, t.toS});
        tp = normalized(tp);
        QVERIFY2(std::fabs(parts[StepPart::Compute] - length(busy)) < eps, qPrintable(at));
        QVERIFY2(std::fabs(parts[StepPart::ExposedCp] - length(cp)) < eps, qPrintable(at));
        const Set waitingInPasses = subtract(subtract(passes, busy), cp);
        QVERIFY2(std::fabs(parts[StepPart::ExposedTp] - length(intersect(waitingInPasses, tp))) <
                     eps,
                 qPrintable(at));
        QVERIFY2(std::fabs(parts[StepPart::Optimizer] - e.optimizerS) < eps, qPrintable(at));

        // PP, gap by gap: a stage waiting before a pass waits on PP while the pass's input is
        // sent but not there, or while its own last send holds it (sends that do not overlap).
        double ppS = length(normalized(r.blocked[size_t(s)]));
        double gapFromS = 0;
        for (const PassRecord& q : r.passes[size_t(s)]) {
            auto endOf = [&](PassKey k) { return passEnd.count(k) ? passEnd.at(k) : 0.0; };
            double sentS = 0;
            if (q.forward && s > 0)
                sentS = endOf({s - 1, true, q.chunk, q.micro});
            else if (q.forward && q.chunk > 0)
                sentS = endOf({config.pp - 1, true, q.chunk - 1, q.micro});
            else if (!q.forward && s < config.pp - 1)
                sentS = endOf({s + 1, false, q.chunk, q.micro});
            else if (!q.forward && q.chunk < v - 1)
                sentS = endOf({0, false, q.chunk + 1, q.micro});
            else if (!q.forward)
                sentS = endOf({s, true, q.chunk, q.micro});
            const PassKey self{s, q.forward, q.chunk, q.micro};
            const double arrivedS = arrived.count(self) ? arrived.at(self) : sentS;
            const Set gap = subtract({{gapFromS, q.fromS}}, normalized(r.blocked[size_t(s)]));
            ppS += length(intersect(gap, {{sentS, arrivedS}}));
            gapFromS = q.toS;
        }
        QVERIFY2(std::fabs(parts[StepPart::ExposedPp] - ppS) < eps,
                 qPrintable(at + QStringLiteral(": PP %1 s, measured %2 s")
                                     .arg(parts[StepPart::ExposedPp])
                                     .arg(ppS)));

        // What no rule claims stays a rounding error; EP and data loading do not happen yet.
        QVERIFY2(parts[StepPart::Other] <= 0.005 * e.stepS, qPrintable(at));
        QCOMPARE(parts[StepPart::ExposedEp], 0.0);
        QCOMPARE(parts[StepPart::DataLoad], 0.0);
        for (double x : parts.s)
            QVERIFY(x >= 0);
    }
    // The slowest stage waits least.
    for (const StepParts& parts : b.stages)
        QVERIFY(b.slowest()[StepPart::Bubble] <= parts[StepPart::Bubble]);
    QCOMPARE(e.bubbleFraction, b.slowest()[StepPart::Bubble] / e.stepS);
}

void TestStepBreakdown::aSingleStageHasNoBubble() {
    // ZeRO-3 on one stage: nothing to wait for but parameters and gradients, so the time outside
    // compute is DP (the old estimate called 55 % of such a step a bubble).
    const auto doc = openTopology("small-256", {});
    ParallelConfig c = config(8, 1, 1, 32, 8192);
    c.virtualStages = 1;
    c.zeroStage = 3;
    c.overlap.dpParamGather = false;
    const StepEstimate e = step(*doc, "llama3-8b", c);
    const StepParts& parts = e.breakdown.slowest();
    QCOMPARE(parts[StepPart::Bubble], 0.0);
    QCOMPARE(parts[StepPart::ExposedPp], 0.0);
    QVERIFY(parts[StepPart::ExposedDp] > 0);
    double gathersS = 0;
    for (const Interval& x : e.schedule->gathers.front())
        gathersS += x.toS - x.fromS;
    // Without overlap every gather runs before the first pass: all of it exposed.
    QVERIFY(parts[StepPart::ExposedDp] >= gathersS * 0.999);
}

void TestStepBreakdown::dpInnermostExposesTensorParallelism() {
    // TP rings over the fabric instead of NVLink: the same step, its TP far more exposed.
    const auto doc = openTopology("small-256", {});
    ParallelConfig c = config(8, 1, 4, 8, 8192);
    c.virtualStages = 2;
    c.batchTokens = 8192.0 * 8 * 8;
    const StepEstimate aware = step(*doc, "llama3-8b", c);
    c.placement = Placement::Linear;
    const StepEstimate inner = step(*doc, "llama3-8b", c);
    const double awareTpS = aware.breakdown.slowest()[StepPart::ExposedTp];
    const double innerTpS = inner.breakdown.slowest()[StepPart::ExposedTp];
    QVERIFY2(innerTpS > 3 * awareTpS,
             qPrintable(QStringLiteral("%1 vs %2").arg(innerTpS).arg(awareTpS)));
    QVERIFY(inner.stepS > aware.stepS);
}

QTEST_GUILESS_MAIN(TestStepBreakdown)
#include "tst_step_breakdown.moc"
