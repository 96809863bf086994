// A step as a Chrome / Perfetto trace: every stage's passes, collectives and sends, on the
// GPUs that ran them.
#include "ChromeTrace.h"
#include "EngineTestSupport.h"
#include "RankPlacement.h"
#include "SimulationRun.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTest>

#include <algorithm>

using namespace cs;
using namespace cs::test;

class TestChromeTrace : public QObject {
    Q_OBJECT
private slots:
    void traceIsPerfettoJson();
};

void TestChromeTrace::traceIsPerfettoJson() {
    const auto doc = openTopology("small-256", {});
    RunSpec s;
    s.model = "llama3-8b";
    s.parallel = config(8, 1, 4, 8, 8192);
    s.steps = 1;
    const RunResult r = simulateRun(*doc, s, nullptr);
    const QJsonObject o = QJsonDocument::fromJson(chromeTraceOfStep(r, s)).object();
    const QJsonArray events = o.value("traceEvents").toArray();
    QVERIFY(events.size() > 4 * 2 * 8);
    int slices = 0;
    for (const QJsonValue& v : events) {
        const QJsonObject e = v.toObject();
        if (e.value("ph").toString() != "X") continue;
        ++slices;
        QVERIFY(e.value("dur").toDouble() > 0);
        QVERIFY(e.value("ts").toDouble() >= 0);
        QVERIFY(e.value("ts").toDouble() + e.value("dur").toDouble() <= r.step.stepS * 1e6 * 1.2);
    }
    QVERIFY(slices > 0);
    // Every stage: a process with compute, TP, PP and DP threads; its passes as the schedule ran
    // them (a forward and a backward per micro-batch and virtual stage); sends and DP
    // collectives with their bytes and peers.
    const int micro = int(std::llround(r.step.microBatches)),
              chunks = withResolvedDefaults(*findModel(s.model), s.parallel).virtualStages;
    for (int stage = 0; stage < 4; ++stage) {
        int passes = 0, dp = 0, sends = 0, tp = 0;
        QSet<QString> threads;
        for (const QJsonValue& v : events) {
            const QJsonObject e = v.toObject();
            if (e.value("pid").toInt() != stage) continue;
            if (e.value("name").toString() == "thread_name")
                threads.insert(e.value("args").toObject().value("name").toString());
            const QString cat = e.value("cat").toString();
            passes += cat == "forward" || cat == "backward";
            if (cat == "dp") {
                ++dp;
                QVERIFY(e.value("args").toObject().value("bytes").toDouble() > 0);
                QCOMPARE(e.value("args").toObject().value("peers").toDouble(), 7.0);
            }
            if (cat == "tp") {
                ++tp;
                QVERIFY(e.value("args").toObject().value("bytes").toDouble() > 0);
                QCOMPARE(e.value("args").toObject().value("peers").toDouble(), 7.0);
            }
            if (cat == "pp") {
                ++sends;
                QVERIFY(e.value("args").toObject().value("bytes").toDouble() > 0);
            }
        }
        QCOMPARE(threads, (QSet<QString>{"compute", "TP", "PP", "DP",
                                         "where the time goes"})); // no CP: CP = 1
        QCOMPARE(passes, 2 * micro * chunks);
        QVERIFY(dp > 0);
        // Every TP collective the engine ran for this stage, as it ran.
        const auto& transfers = r.step.schedule->transfers;
        QCOMPARE(tp, int(std::count_if(transfers.begin(), transfers.end(), [&](auto& x) {
                     return x.kind == TransferRecord::Kind::Tp && x.stage == stage;
                 })));
        QVERIFY(tp >= passes);
        // Every stage sends: the last one feeds the first stage's next virtual stage.
        QCOMPARE(sends > 0, stage < 3 || chunks > 1);
    }
    // A sample of DP replicas: the middle and the last, every stage each, on their own GPUs;
    // their TP slices name the other GPUs of their TP group, their sends the next stage's GPU.
    const ParallelConfig& c = s.parallel;
    for (int d : {c.dp / 2, c.dp - 1})
        for (int stage = 0; stage < c.pp; ++stage) {
            const int pid = d * c.pp + stage;
            const int gpu = r.step.gpuOfRank[size_t(rankOf(c, {0, 0, stage, d}))];
            QString name;
            int passes = 0, tpSlices = 0;
            for (const QJsonValue& v : events) {
                const QJsonObject e = v.toObject();
                if (e.value("pid").toInt() != pid) continue;
                if (e.value("name").toString() == "process_name")
                    name = e.value("args").toObject().value("name").toString();
                const QString cat = e.value("cat").toString();
                passes += cat == "forward" || cat == "backward";
                const QJsonArray peers = e.value("args").toObject().value("peerGpus").toArray();
                if (cat == "tp") {
                    ++tpSlices;
                    QSet<int> expected, got;
                    for (int t = 1; t < c.tp; ++t)
                        expected.insert(r.step.gpuOfRank[size_t(rankOf(c, {t, 0, stage, d}))]);
                    for (const QJsonValue& g : peers)
                        got.insert(g.toInt());
                    QCOMPARE(got, expected);
                    QVERIFY(!got.contains(gpu));
                }
                if (cat == "pp") {
                    QCOMPARE(peers.size(), 1);
                    const int target = e.value("name").toString().section(' ', -1).toInt();
                    QCOMPARE(peers[0].toInt(),
                             r.step.gpuOfRank[size_t(rankOf(c, {0, 0, target, d}))]);
                }
            }
            QCOMPARE(name,
                     QString("PP stage %1, DP replica %2 (GPU %3)").arg(stage).arg(d).arg(gpu));
            QCOMPARE(passes, 2 * micro * chunks);
            QVERIFY(tpSlices > 0);
        }
}

QTEST_APPLESS_MAIN(TestChromeTrace)
#include "tst_chrome_trace.moc"
