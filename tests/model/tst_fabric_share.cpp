// The fabric as the schedule sees it (FabricShare): transfer classes that run together share
// links max-min fairly, and the rings' rates follow the fabric: oversubscription, NIC speed,
// rail or rack wiring.
#include "EngineTestSupport.h"
#include "FabricShare.h"
#include "KernelModel.h"
#include "Presets.h"
#include "SiteGenerator.h"
#include "TrainingEfficiency.h"

#include <QTest>

#include <cmath>

using namespace cs;
using namespace cs::test;

class TestFabricShare : public QObject {
    Q_OBJECT
private slots:
    void overlappingCollectivesShareTheFabric();
    void transfersThatOverlapSlowEachOther();
    void oversubscriptionSlowsCrossPodTraffic();
    void nicSpeedMattersForDataParallelNotForTensorParallel();
    void railWiringKeepsRingsOffOversubscribedUplinks();
    void bindingLinksGiveTheAnswerOfAllLinks_data();
    void bindingLinksGiveTheAnswerOfAllLinks();
};

void TestFabricShare::overlappingCollectivesShareTheFabric() {
    const auto doc = openTopology("small-256", {});
    const Topology& t = doc->topology();
    FabricRouter router(t, doc->index());
    FabricShare share(t, router, nvlinkBytesPerS(*findGpu("h100-sxm")));
    // A stage's parameter gather and gradient reduction over one ring of 16 hosts (GPU 0 of
    // each): when they overlap, they share every NIC of the ring.
    auto ring = [&](int gpuInHost) {
        std::vector<Edge> edges;
        for (int h = 0; h < 16; ++h)
            edges.push_back({int32_t(h * 8 + gpuInHost), int32_t(((h + 1) % 16) * 8 + gpuInHost)});
        return edges;
    };
    const int a = share.addClass(ring(0), 16), b = share.addClass(ring(0), 16);
    const double soloA = share.soloRate(a), soloB = share.soloRate(b);
    std::vector<double> together;
    const int both[] = {a, b};
    share.rates(both, together);
    QVERIFY2(
        std::fabs(together[0] / soloA - 0.5) < 1e-9 && std::fabs(together[1] / soloB - 0.5) < 1e-9,
        qPrintable(
            QString("%1 %2 vs %3 %4").arg(together[0]).arg(together[1]).arg(soloA).arg(soloB)));
    // Feasible: at those rates no link direction carries more than its capacity.
    std::vector<double> load(2 * t.links.size(), 0.0);
    share.addLinkBytes(a, together[0], &load, nullptr);
    share.addLinkBytes(b, together[1], &load, nullptr);
    const std::vector<double> capacity = router.capacities(FabricTransports(t));
    double fullest = 0;
    for (size_t r = 0; r < load.size(); ++r) {
        QVERIFY(load[r] <= capacity[r] * (1 + 1e-9));
        fullest = std::max(fullest, load[r] / capacity[r]);
    }
    QVERIFY(fullest > 0.999); // and max-min: something is full
    QVERIFY(share.solves() == 3);
    share.rates(both, together); // the same set again: no new solve
    QVERIFY(share.solves() == 3);
}

void TestFabricShare::transfersThatOverlapSlowEachOther() {
    // 405B on 16,384 GPUs: all 16 stages gather their parameters at once at the start of the
    // step and their reductions overlap at its end, over shared fabric links. Re-shared, the
    // DP streams take longer than each alone would, and so does the step.
    const ParallelConfig c = config(8, 1, 16, 128, 8192);
    const auto& doc = roce();
    const auto m = *findModel("llama3-405b");
    const auto g = *findGpu("h100-sxm");
    const StepEstimate shared = estimateStep(doc.topology(), doc.index(), m, g, c);
    const StepEstimate alone =
        estimateStep(doc.topology(), doc.index(), m, g, c, ShareSolver::Solo);
    // The earlier engine, solving over every link instead of groups of alike links, reaches the
    // same step.
    const StepEstimate rounds =
        estimateStep(doc.topology(), doc.index(), m, g, c, ShareSolver::AllLinks);
    QVERIFY2(std::fabs(rounds.stepS / shared.stepS - 1) < 1e-9,
             qPrintable(
                 QString("%1 vs %2").arg(rounds.stepS, 0, 'g', 12).arg(shared.stepS, 0, 'g', 12)));
    QCOMPARE(rounds.fabricSolves, shared.fabricSolves);
    const double sharedDp = shared.dpAllGatherS + shared.dpReduceScatterS,
                 aloneDp = alone.dpAllGatherS + alone.dpReduceScatterS;
    QVERIFY2(sharedDp > aloneDp * 1.1, qPrintable(QString("%1 vs %2").arg(sharedDp).arg(aloneDp)));
    QVERIFY(shared.stepS > alone.stepS);
    QVERIFY(shared.fabricSolves > alone.fabricSolves); // sets of transfers, not single ones
}

void TestFabricShare::oversubscriptionSlowsCrossPodTraffic() {
    // 256 GPUs in 2 pods: DP rings cross the pods through the core switches.
    const auto open = smallWithOversubscription(1.0), tight = smallWithOversubscription(64.0);
    const ParallelConfig c = config(8, 1, 1, 32, 8192);
    ParallelConfig c1 = c;
    c1.virtualStages = 1;
    const StepEstimate a = step(*open, "llama3-8b", c1), b = step(*tight, "llama3-8b", c1);
    QVERIFY2(b.dpAllGatherS > a.dpAllGatherS * 2,
             qPrintable(QString("%1 vs %2").arg(b.dpAllGatherS).arg(a.dpAllGatherS)));
    QVERIFY(b.stepS > a.stepS);
}

void TestFabricShare::nicSpeedMattersForDataParallelNotForTensorParallel() {
    auto withNic = [](double gbps) {
        SiteParams p = *presetParams("small-ib-256"); // non-blocking: the NICs are the limit
        p.clusters[0].nicGbps = gbps;
        return std::make_unique<TopologyDocument>(generateSite(p), p, "test");
    };
    const auto full = withNic(400), half = withNic(200);
    ParallelConfig dpHeavy = config(8, 1, 1, 32, 8192);
    dpHeavy.virtualStages = 1;
    dpHeavy.overlap.dpGradReduce = dpHeavy.overlap.dpParamGather = false;
    dpHeavy.batchTokens = 32 * 8192; // one micro-batch per replica: the collectives weigh
    const StepEstimate slow = step(*half, "llama3-8b", dpHeavy),
                       fast = step(*full, "llama3-8b", dpHeavy);
    QVERIFY2(slow.stepS > fast.stepS * 1.05,
             qPrintable(QString("%1 s vs %2 s (DP %3 + %4 vs %5 + %6)")
                            .arg(slow.stepS)
                            .arg(fast.stepS)
                            .arg(slow.dpAllGatherS)
                            .arg(slow.dpReduceScatterS)
                            .arg(fast.dpAllGatherS)
                            .arg(fast.dpReduceScatterS)));
    ParallelConfig tpOnly = config(8, 1, 1, 1, 8192); // one host: NVLink only
    tpOnly.virtualStages = 1;
    tpOnly.batchTokens = 8 * 8192;
    QCOMPARE(step(*half, "llama3-8b", tpOnly).stepS, step(*full, "llama3-8b", tpOnly).stepS);
}

void TestFabricShare::railWiringKeepsRingsOffOversubscribedUplinks() {
    // The DGX H100 SuperPOD preset with leaves oversubscribed 2:1 (8 planes x 2 uplinks for 32
    // NICs), wired by rail or by rack, with ECMP on 16 flows a GPU pair. DP rings join GPU k of
    // every node: on rail leaves they cross the spines only between scalable units, on rack leaves
    // between every rack, where their flows collide on the uplinks, so the rack-wired gradient
    // reduction is slower; without oversubscription both are the same. Adaptive routing
    // spreads the rack-wired rings' flows over every uplink: no slower than rail.
    auto docOf = [](int railGroupRacks, int planes, LoadBalancing balancing = LoadBalancing::Ecmp) {
        SiteParams p = *presetParams("dgx-h100-superpod");
        p.clusters[0].railGroupRacks = railGroupRacks;
        p.clusters[0].planes = planes;
        p.clusters[0].loadBalancing = balancing;
        p.clusters[0].qpsPerConnection = 8;
        return std::make_unique<TopologyDocument>(generateSite(p), p, "test");
    };
    ParallelConfig c;
    c.tp = 8, c.pp = 1, c.dp = 128, c.virtualStages = 1;
    const StepEstimate rail = step(*docOf(8, 8), "llama3-8b", c),
                       rack = step(*docOf(0, 8), "llama3-8b", c),
                       railFull = step(*docOf(8, 16), "llama3-8b", c),
                       rackFull = step(*docOf(0, 16), "llama3-8b", c);
    QVERIFY2(
        rack.dpReduceScatterS > rail.dpReduceScatterS * 1.02,
        qPrintable(
            QString("rack %1 s, rail %2 s").arg(rack.dpReduceScatterS).arg(rail.dpReduceScatterS)));
    QCOMPARE(rail.dpReduceScatterS, railFull.dpReduceScatterS); // rail rings fit the uplinks
    QVERIFY(std::fabs(rackFull.dpReduceScatterS - railFull.dpReduceScatterS) <
            1e-6 * railFull.dpReduceScatterS);
    const StepEstimate rackAdaptive = step(*docOf(0, 8, LoadBalancing::Adaptive), "llama3-8b", c);
    QVERIFY2(rackAdaptive.dpReduceScatterS < rail.dpReduceScatterS * 1.001,
             qPrintable(QString("rack, adaptive %1 s, rail, ECMP %2 s")
                            .arg(rackAdaptive.dpReduceScatterS)
                            .arg(rail.dpReduceScatterS)));
}

void TestFabricShare::bindingLinksGiveTheAnswerOfAllLinks_data() {
    QTest::addColumn<int>("placement");
    QTest::addColumn<double>("oversubscription");
    QTest::addColumn<int>("zero");
    const int topology = int(Placement::TopologyAware), linear = int(Placement::Linear),
              fragmented = int(Placement::Fragmented);
    QTest::newRow("topology, 1:1") << topology << 1.0 << 1;
    QTest::newRow("dp-innermost, 1:7") << linear << 7.0 << 1;
    QTest::newRow("fragmented, 1:7") << fragmented << 7.0 << 1;
    QTest::newRow("dp-innermost, 1:3, ZeRO 3") << linear << 3.0 << 3;
}

void TestFabricShare::bindingLinksGiveTheAnswerOfAllLinks() {
    // The engine solves only over the links that can bind (a link one class loads is a cap,
    // dominated links are left out); the earlier engine solved over every link. Placements
    // that put TP and DP on an oversubscribed fabric make many solves: the steps must agree.
    QFETCH(int, placement);
    QFETCH(double, oversubscription);
    QFETCH(int, zero);
    const auto doc = smallWithOversubscription(oversubscription);
    ParallelConfig c = config(8, 1, 4, 8, 8192);
    c.placement = Placement(placement);
    c.zeroStage = zero;
    const auto m = *findModel("llama3-8b");
    const auto g = *findGpu("h100-sxm");
    const StepEstimate fast = estimateStep(doc->topology(), doc->index(), m, g, c);
    const StepEstimate all =
        estimateStep(doc->topology(), doc->index(), m, g, c, ShareSolver::AllLinks);
    QVERIFY2(
        std::fabs(fast.stepS / all.stepS - 1) < 1e-9,
        qPrintable(QString("%1 vs %2").arg(fast.stepS, 0, 'g', 12).arg(all.stepS, 0, 'g', 12)));
    QVERIFY2(std::fabs(fast.dpAllGatherS / all.dpAllGatherS - 1) < 1e-9,
             qPrintable(QString("%1 vs %2").arg(fast.dpAllGatherS).arg(all.dpAllGatherS)));
    QCOMPARE(fast.fabricSolves, all.fabricSolves);
    QVERIFY(fast.fabricSolves > 10); // the transfers did meet on the fabric
    QVERIFY2(fast.linksSolved < all.linksSolved,
             qPrintable(QString("%1 of %2").arg(fast.linksSolved).arg(all.linksSolved)));
    QCOMPARE(all.linksSolved, all.linksLoaded);
}

QTEST_APPLESS_MAIN(TestFabricShare)
#include "tst_fabric_share.moc"
