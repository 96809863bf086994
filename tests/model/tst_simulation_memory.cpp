// The simulation's own memory (SimulationMemory): estimated, and runs past the budget refused.
#include "EngineTestSupport.h"
#include "SimulationMemory.h"
#include "SimulationRun.h"

#include <QTest>

using namespace cs;
using namespace cs::test;

class TestSimulationMemory : public QObject {
    Q_OBJECT
private slots:
    void runsPastTheMemoryBudgetAreRefused();
};

void TestSimulationMemory::runsPastTheMemoryBudgetAreRefused() {
    RunSpec s;
    s.model = "llama3-8b";
    s.parallel = config(8, 1, 4, 8, 8192);
    s.steps = 1;
    const auto small = openTopology("small-256", {});
    const double need = estimateSimulationBytes(small->topology(), s, false);
    // The estimate grows with the fabric (per-link arrays) and with the store's buffers.
    QVERIFY(estimateSimulationBytes(roce().topology(), s, false) > need * 50);
    QVERIFY(estimateSimulationBytes(small->topology(), s, true) > need);
    s.memoryBudgetGiB = need / 2 / (1024.0 * 1024 * 1024);
    try {
        simulateRun(*small, s, nullptr);
        QFAIL("expected a refusal");
    } catch (const InputException& e) {
        QCOMPARE(QString::fromStdString(e.error().field), QString("memoryBudgetGiB"));
        QVERIFY(QString::fromStdString(e.error().message).contains("needs about"));
    }
    s.memoryBudgetGiB = need * 2 / (1024.0 * 1024 * 1024);
    QVERIFY(simulateRun(*small, s, nullptr).step.stepS > 0);
    QVERIFY(memoryBudgetBytes(RunSpec{}) > 1e8); // unset: the machine's memory
}

QTEST_APPLESS_MAIN(TestSimulationMemory)
#include "tst_simulation_memory.moc"
