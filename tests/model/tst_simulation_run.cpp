// A simulated run (SimulationRun): the same spec and seed, the same run.
#include "EngineTestSupport.h"
#include "RunReader.h"
#include "RunSpecJson.h"
#include "SimulationRun.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <QTest>

using namespace cs;
using namespace cs::test;

class TestSimulationRun : public QObject {
    Q_OBJECT
private slots:
    void runsAreDeterministic();
    void aRunFileWithOnlyTpPpAndDpSimulates();
};

void TestSimulationRun::runsAreDeterministic() {
    const auto doc = openTopology("small-256", {});
    RunSpec s;
    s.model = "llama3-8b";
    s.parallel = config(8, 1, 4, 8, 8192);
    s.spanS = 30 * 86400;
    s.failures = true;
    s.seed = 5;
    const RunResult a = simulateRun(*doc, s, nullptr), b = simulateRun(*doc, s, nullptr);
    QCOMPARE(a.interruptions.size(), b.interruptions.size());
    QCOMPARE(a.lostS, b.lostS);
    QCOMPARE(a.step.stepS, b.step.stepS);
    QVERIFY(a.effectiveTrainingTime < 1.0 || a.interruptions.empty());
}

void TestSimulationRun::aRunFileWithOnlyTpPpAndDpSimulates() {
    // Every default fits every other: PP 1 with nothing else said (virtual stages follow PP;
    // they were 8 and refused "expected 1 without pipeline parallelism").
    const RunSpec spec = parseRunSpec(R"({"format": "clusterscope-run", "version": 2,
  "model": "llama3-8b", "parallel": {"tp": 8, "pp": 1, "dp": 32}, "steps": 1})",
                                      "run.json");
    const auto doc = openTopology("small-256", {});
    QTemporaryDir dir;
    const RunResult r = simulateToStore(*doc, spec, dir.filePath("run.sqlite"));
    QVERIFY(r.step.stepS > 0);
    // The stored run says what ran: one chunk.
    const QJsonObject summary =
        QJsonDocument::fromJson(
            QByteArray::fromStdString(
                RunReader::runsIn(dir.filePath("run.sqlite")).back().summaryJson))
            .object();
    QCOMPARE(summary["config"].toObject()["parallel"].toObject()["virtualStages"].toInt(-1), 1);
}

QTEST_APPLESS_MAIN(TestSimulationRun)
#include "tst_simulation_run.moc"
