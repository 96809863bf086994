// A simulated run (SimulationRun): the same spec and seed, the same run.
#include "EngineTestSupport.h"

#include <QTest>

using namespace cs;
using namespace cs::test;

class TestSimulationRun : public QObject {
    Q_OBJECT
private slots:
    void runsAreDeterministic();
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

QTEST_APPLESS_MAIN(TestSimulationRun)
#include "tst_simulation_run.moc"
