// Which GPU each rank runs on (RankPlacement): TP groups across hosts, replicas scattered
// over pods, and what each costs.
#include "EngineTestSupport.h"
#include "Presets.h"
#include "SiteGenerator.h"

#include <QTest>

using namespace cs;
using namespace cs::test;

class TestRankPlacement : public QObject {
    Q_OBJECT
private slots:
    void placementMatters();
    void fragmentedPlacementPaysAtOversubscription();
};

void TestRankPlacement::placementMatters() {
    const auto doc = openTopology("small-256", {});
    ParallelConfig c = config(8, 1, 4, 8, 8192);
    const StepEstimate topo = step(*doc, "llama3-8b", c);
    c.placement = Placement::Linear;
    const StepEstimate linear = step(*doc, "llama3-8b", c);
    // TP groups across hosts: TP collectives leave NVLink for the fabric.
    QVERIFY(linear.tpPerMicroS > topo.tpPerMicroS * 3);
    QVERIFY(linear.stepS > topo.stepS);
}

void TestRankPlacement::fragmentedPlacementPaysAtOversubscription() {
    // 70B on 8,192 GPUs with its DP traffic exposed: replicas kept within pods, or racks
    // scattered over all 8 pods so that the rings cross the 1:7 (or 1:1) layer above them.
    auto site = [](double oversubscription) {
        SiteParams p = *presetParams("meta-roce-24k");
        p.clusters[0].oversubscription = oversubscription;
        p.clusters[0].coresPerPlane = 4; // enough core ports for 1:1
        return std::make_unique<TopologyDocument>(generateSite(p), p, "test");
    };
    ParallelConfig c = config(8, 1, 1, 1024, 8192);
    c.virtualStages = 1;
    c.zeroStage = 3;
    c.batchTokens = 1024 * 8192;
    c.overlap.dpGradReduce = c.overlap.dpParamGather = false;
    double gap[2];
    int k = 0;
    for (double ratio : {7.0, 1.0}) {
        const auto doc = site(ratio);
        c.placement = Placement::TopologyAware;
        const StepEstimate together = step(*doc, "llama3-70b", c);
        c.placement = Placement::Fragmented;
        const StepEstimate scattered = step(*doc, "llama3-70b", c);
        gap[k++] = scattered.stepS / together.stepS - 1;
    }
    QVERIFY2(gap[0] > 0.05, qPrintable(QString("1:7 gap %1").arg(gap[0])));
    QVERIFY2(gap[1] < gap[0] / 2,
             qPrintable(QString("1:1 gap %1, 1:7 gap %2").arg(gap[1]).arg(gap[0])));
}

QTEST_APPLESS_MAIN(TestRankPlacement)
#include "tst_rank_placement.moc"
