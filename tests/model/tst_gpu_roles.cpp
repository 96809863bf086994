// The ranks a simulated run gave each GPU (GpuRoles), read back from the run's summary alone,
// as the inspector shows them: the same placement the engine used, and the GPU's stage's step.
#include "EngineTestSupport.h"
#include "GpuRoles.h"
#include "RankPlacement.h"
#include "SimulationRun.h"

#include <QJsonArray>
#include <QtTest>

using namespace cs;
using namespace cs::test;

class TestGpuRoles : public QObject {
    Q_OBJECT
private slots:
    void ranksAreTheEnginesPlacement_data();
    void ranksAreTheEnginesPlacement();
    void aRecordedRunHasNoRoles();
};

void TestGpuRoles::ranksAreTheEnginesPlacement_data() {
    QTest::addColumn<int>("placement");
    QTest::newRow("topology-aware") << int(Placement::TopologyAware);
    QTest::newRow("DP innermost") << int(Placement::Linear);
}

void TestGpuRoles::ranksAreTheEnginesPlacement() {
    QFETCH(int, placement);
    const auto doc = openTopology("small-256", {});
    RunSpec spec;
    spec.model = "llama3-8b";
    spec.parallel = config(8, 1, 4, 4, 8192);
    spec.parallel.placement = Placement(placement);
    spec.steps = 1;
    const RunResult r = simulateRun(*doc, spec, nullptr);
    const QJsonObject summary = runSummaryJson(r, spec);
    const auto roles = GpuRoles::ofSummary(doc->topology(), doc->index(), summary);
    QVERIFY(roles);
    for (size_t rank = 0; rank < r.step.gpuOfRank.size(); ++rank)
        QCOMPARE(roles->rankOf(r.step.gpuOfRank[rank]), int(rank));
    // A GPU of stage 2: its ranks, then its stage's parts, as the summary measured them.
    const int32_t gpu = r.step.gpuOfRank[size_t(rankOf(spec.parallel, {3, 0, 2, 1}))];
    const auto lines = roles->lines(gpu);
    auto valueOf = [&](const std::string& label) {
        for (const auto& [l, v] : lines)
            if (l == label) return QString::fromStdString(v);
        return QString();
    };
    QCOMPARE(valueOf("pipeline stage"), QString("2 of 4"));
    QCOMPARE(valueOf("DP replica"), QString("1 of 4"));
    QCOMPARE(valueOf("TP rank"), QString("3 of 8"));
    const double computeS = r.step.breakdown.stages[2][StepPart::Compute];
    QVERIFY2(valueOf("stage 2: Compute").startsWith(QString::number(computeS, 'f', 3) + " s"),
             qPrintable(valueOf("stage 2: Compute")));
    // A GPU outside the job (the job uses 128 of 256).
    int32_t outside = -1;
    for (int32_t g = 0; g < int32_t(doc->topology().gpus.size()) && outside < 0; ++g)
        if (roles->rankOf(g) < 0) outside = g;
    QVERIFY(outside >= 0);
    QCOMPARE(roles->lines(outside).front().second, std::string("not in the job"));
}

void TestGpuRoles::aRecordedRunHasNoRoles() {
    const auto doc = openTopology("small-256", {});
    QVERIFY(!GpuRoles::ofSummary(doc->topology(), doc->index(), QJsonObject{{"samples", 10}}));
}

QTEST_GUILESS_MAIN(TestGpuRoles)
#include "tst_gpu_roles.moc"
