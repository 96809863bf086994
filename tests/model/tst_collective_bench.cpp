// nccl-tests on a design (CollectiveBench): what the busbw columns mean, the model against real
// all_reduce_perf logs of H100 and H200 clusters, and what the transport fields change: queue
// pairs and adaptive routing on a fragmented group, SHARP, NCCL's channels, and refusals.
#include "CollectiveRun.h"
#include "InputError.h"
#include "NcclTestsLog.h"
#include "TopologyDocument.h"

#include <QTest>

#include <cmath>

using namespace cs;

class TestCollectiveBench : public QObject {
    Q_OBJECT
private slots:
    void busBandwidthIsNcclTestsFactorOfAlgorithmBandwidth_data();
    void busBandwidthIsNcclTestsFactorOfAlgorithmBandwidth();
    void reproducesMeasuredAllReduceCurves_data();
    void reproducesMeasuredAllReduceCurves();
    void queuePairsAndAdaptiveRoutingSpreadAFragmentedGroup();
    void sharpReducesInTheSwitches();
    void moreChannelsReachTheNicsRate();
    void permutationAndIncastReportFlowCompletion();
    void aSwitchBufferAbsorbsTheEndOfAnIncast_data();
    void aSwitchBufferAbsorbsTheEndOfAnIncast();
    void whatCannotRunIsRefusedByItsOption();
};

namespace {

BenchResult run(const std::string& preset, BenchOp op, int gpus, std::vector<double> sizes,
                std::vector<std::string> sets = {},
                GroupPlacement placement = GroupPlacement::Packed, int perHost = 0,
                int channels = 0) {
    TopologyReadOptions o;
    o.sets = std::move(sets);
    const auto doc = openTopology(preset, "", o);
    CollectiveRequest r;
    r.op = op;
    r.gpus = gpus;
    r.perHost = perHost;
    r.placement = placement;
    r.sizes = std::move(sizes);
    r.channelsPerNic = channels;
    return runCollective(doc->topology(), doc->index(), r);
}

constexpr double GiB = 1024.0 * 1024 * 1024;

} // namespace

void TestCollectiveBench::busBandwidthIsNcclTestsFactorOfAlgorithmBandwidth_data() {
    QTest::addColumn<int>("op");
    QTest::addColumn<double>("factor"); // for 16 ranks
    QTest::newRow("all_reduce") << int(BenchOp::AllReduce) << 2 * 15.0 / 16;
    QTest::newRow("all_gather") << int(BenchOp::AllGather) << 15.0 / 16;
    QTest::newRow("reduce_scatter") << int(BenchOp::ReduceScatter) << 15.0 / 16;
    QTest::newRow("alltoall") << int(BenchOp::AllToAll) << 15.0 / 16;
    QTest::newRow("broadcast") << int(BenchOp::Broadcast) << 1.0;
    QTest::newRow("reduce") << int(BenchOp::Reduce) << 1.0;
    QTest::newRow("sendrecv") << int(BenchOp::SendRecv) << 1.0;
}

void TestCollectiveBench::busBandwidthIsNcclTestsFactorOfAlgorithmBandwidth() {
    QFETCH(int, op);
    QFETCH(double, factor);
    const BenchResult r = run("meta-ib-24k", BenchOp(op), 16, benchSizes(1 << 20, GiB, 4));
    QCOMPARE(r.ranks, 16);
    QCOMPARE(r.nodes, 2);
    QVERIFY(!r.rows.empty());
    for (const BenchRow& x : r.rows) {
        QVERIFY(std::fabs(x.algbwGBs - x.bytes / x.timeUs / 1e3) < 1e-6 * x.algbwGBs);
        QVERIFY(std::fabs(x.busbwGBs - x.algbwGBs * factor) < 1e-6 * x.busbwGBs);
    }
    // Larger messages reach more of the fabric.
    QVERIFY(r.rows.back().busbwGBs > r.rows.front().busbwGBs);
}

void TestCollectiveBench::reproducesMeasuredAllReduceCurves_data() {
    QTest::addColumn<QString>("log");
    QTest::newRow("4 x 8 H100, InfiniBand") << "vpbench-4x8xH100-ib-all_reduce.txt";
    QTest::newRow("8 x 8 H100, InfiniBand") << "issue309-8x8xH100-ib-all_reduce.txt";
    QTest::newRow("2 x 8 H100, InfiniBand") << "issue309-xe9680-2x8xH100-ib-all_reduce.txt";
    QTest::newRow("2 x 8 H200, RoCE") << "dell-2x8xH200-roce-all_reduce.txt";
}

// The log's group (its ranks and GPUs per host) on 400G hosts of 8 H100 (meta-ib-24k), at
// the log's sizes. From 1 MiB up, the sizes where the log's own curve does not fall as the
// size doubles (a fall is a transient of the run, or NCCL switching algorithm on its way,
// which the model does not do): the bus bandwidth within 10 % on average, 20 % at most.
void TestCollectiveBench::reproducesMeasuredAllReduceCurves() {
    QFETCH(QString, log);
    const NcclTestsLog m =
        readNcclTestsLog(CS_SOURCE_DIR "/tests/fixtures/real/nccl-tests/" + log.toStdString());
    std::vector<double> sizes;
    for (const NcclTestsRow& x : m.rows)
        sizes.push_back(x.bytes);
    const BenchResult r = run("meta-ib-24k", BenchOp::AllReduce, m.ranks, sizes, {},
                              GroupPlacement::Packed, m.gpusPerHost());
    const LogComparison c = compareWithLog(m, r);
    double sum = 0, worst = 0, before = 0;
    int n = 0;
    for (size_t i = 0; i < c.rows.size(); ++i) {
        const LogComparisonRow& x = c.rows[i];
        const bool falls = x.measuredBusbwGBs < before;
        before = std::max(before, x.measuredBusbwGBs);
        if (x.bytes < (1 << 20) || falls) continue;
        sum += std::fabs(x.errorPct);
        worst = std::max(worst, std::fabs(x.errorPct));
        ++n;
    }
    qInfo("%s: %d sizes held, busbw error mean %.1f %%, largest %.1f %% (every size from 1 MiB: "
          "mean %.1f %%, largest %.1f %%)",
          qPrintable(log), n, sum / n, worst, c.meanAbsErrorPct, c.maxAbsErrorPct);
    QVERIFY(n >= 10);
    QVERIFY2(sum / n <= 10, "mean busbw error above 10 %");
    // The largest within 20 %, but on 2 hosts at 2 MiB the tree's LL128 (its latency across
    // hosts set on 4 hosts) is 24 % slower than measured.
    if (log.startsWith("issue309-xe9680"))
        QEXPECT_FAIL("", "2 MiB on 2 hosts: the tree's LL128 latency", Continue);
    QVERIFY2(worst <= 20, "largest busbw error above 20 %");
}

void TestCollectiveBench::queuePairsAndAdaptiveRoutingSpreadAFragmentedGroup() {
    // A 1 GiB all-reduce over 2,048 GPUs scattered over meta-roce-24k's racks: ECMP with one
    // queue pair per connection collides more than with four; adaptive routing spreads every
    // ring's flows over the planes.
    const std::string k = "generator.clusters[0].";
    auto busbw = [&](std::vector<std::string> sets) {
        return run("meta-roce-24k", BenchOp::AllReduce, 2048, {GiB}, sets,
                   GroupPlacement::Fragmented)
            .rows.front()
            .busbwGBs;
    };
    const double one = busbw({k + "loadBalancing=ecmp", k + "qpsPerConnection=1"}),
                 four = busbw({k + "loadBalancing=ecmp", k + "qpsPerConnection=4"}),
                 adaptive = busbw({k + "loadBalancing=adaptive"});
    qInfo("busbw: ECMP 1 QP %.1f, 4 QPs %.1f, adaptive %.1f GB/s (adaptive +%.0f %% over 1 QP)",
          one, four, adaptive, 100 * (adaptive / one - 1));
    QVERIFY(one < four && four < adaptive);
    QVERIFY(adaptive > one * 1.05);
}

void TestCollectiveBench::sharpReducesInTheSwitches() {
    const std::string k = "generator.clusters[0].inNetworkReduction=";
    const BenchResult off = run("meta-ib-24k", BenchOp::AllReduce, 64, {GiB}, {k + "off"});
    const BenchResult sharp = run("meta-ib-24k", BenchOp::AllReduce, 64, {GiB}, {k + "sharp"});
    QCOMPARE(QString::fromStdString(sharp.rows.front().algorithm), QString("collnet"));
    QVERIFY(QString::fromStdString(off.rows.front().algorithm) != "collnet");
    QVERIFY(sharp.rows.front().busbwGBs > off.rows.front().busbwGBs * 1.1);
    // RoCE switches reduce nothing: refused by the field's name.
    try {
        (void)run("meta-roce-24k", BenchOp::AllReduce, 64, {GiB}, {k + "sharp"});
        QFAIL("SHARP on RoCE accepted");
    } catch (const InputException& e) {
        QVERIFY2(QString(e.what()).contains("inNetworkReduction"), e.what());
    }
}

void TestCollectiveBench::moreChannelsReachTheNicsRate() {
    // NCCL's default 2 channels a NIC move 41 GB/s of a 400G NIC's 50 (the default logs'
    // 0.82); 3 (NCCL_MIN_CTAS=24 on 8 NICs) reach the wire's rate: the tuned 8-node log's 391.
    const BenchResult def = run("meta-ib-24k", BenchOp::AllReduce, 64, {8 * GiB});
    const BenchResult tuned =
        run("meta-ib-24k", BenchOp::AllReduce, 64, {8 * GiB}, {}, GroupPlacement::Packed, 0, 3);
    QVERIFY(std::fabs(def.perNicGBs - 41.0) < 0.01);
    QVERIFY(tuned.perNicGBs > 49 && tuned.perNicGBs < 50);
    QVERIFY(std::fabs(tuned.rows.front().busbwGBs / 391.37 - 1) < 0.05);
}

void TestCollectiveBench::permutationAndIncastReportFlowCompletion() {
    const BenchResult p = run("meta-roce-24k", BenchOp::Permutation, 64, {16 << 20});
    QCOMPARE(p.flows, 64);
    const BenchRow& x = p.rows.front();
    QVERIFY(x.p50Us > 0 && x.p50Us <= x.p99Us && x.p99Us <= x.maxUs);
    QCOMPARE(x.timeUs, x.maxUs); // the pattern ends with its last flow
    // 15 GPUs to one: its NIC's 50 GB/s shared, each flow 1/15 of it.
    const BenchResult in =
        run("meta-roce-24k", BenchOp::Incast, 16, {16 << 20}, {}, GroupPlacement::Packed, 1);
    QCOMPARE(in.flows, 15);
    const double ideal = 15.0 * (16 << 20) / (50e9 * 4096 / 4182) * 1e6;
    QVERIFY2(std::fabs(in.rows.front().maxUs / ideal - 1) < 0.02,
             qPrintable(QString::number(in.rows.front().maxUs / ideal)));
}

void TestCollectiveBench::aSwitchBufferAbsorbsTheEndOfAnIncast_data() {
    QTest::addColumn<double>("bufferMiB");
    QTest::newRow("64 KiB") << 0.0625;
    QTest::newRow("64 MiB, half the burst") << 64.0;
    QTest::newRow("256 MiB, all of it") << 256.0;
}

// Eight senders of 16 MiB to one GPU under DCQCN, one flow each: the receiver's downlink
// delivers 0.65 of its rate (Transport::contendedEfficiency) until what the senders still
// send fits in the leaf's buffer, then all of it.
void TestCollectiveBench::aSwitchBufferAbsorbsTheEndOfAnIncast() {
    QFETCH(double, bufferMiB);
    TopologyReadOptions o;
    o.sets = {"generator.clusters[0].congestionControl=dcqcn",
              "generator.clusters[0].switchBufferMiB=" + std::to_string(bufferMiB)};
    const auto doc = openTopology("", CS_SOURCE_DIR "/tests/fixtures/htsim/ls128-1to1.json", o);
    CollectiveRequest r;
    r.op = BenchOp::Incast;
    r.gpus = 9;
    r.sizes = {16 << 20};
    r.qpsOverride = 1;
    const BenchResult in = runCollective(doc->topology(), doc->index(), r);
    const double rate = 50e9 * 4096 / 4182, total = 8.0 * (16 << 20);
    const double absorbed = std::min(total, bufferMiB * (1 << 20));
    const double expectUs = ((total - absorbed) / (0.65 * rate) + absorbed / rate) * 1e6;
    QVERIFY2(std::fabs(in.rows.front().maxUs / expectUs - 1) < 0.01,
             qPrintable(QString("%1 us, expected %2").arg(in.rows.front().maxUs).arg(expectUs)));
}

void TestCollectiveBench::whatCannotRunIsRefusedByItsOption() {
    auto field = [](auto&& fn) {
        try {
            fn();
        } catch (const InputException& e) {
            return QString::fromStdString(e.error().field);
        }
        return QString("accepted");
    };
    const auto doc = openTopology("meta-ib-24k", "");
    CollectiveRequest r;
    r.gpus = 64;
    r.sizes = {GiB};
    r.op = BenchOp::AllGather;
    r.algo = {false, NcclAlgo::Tree};
    QCOMPARE(field([&] { runCollective(doc->topology(), doc->index(), r); }), QString("--algo"));
    r.algo = {};
    r.gpus = 30'000;
    QCOMPARE(field([&] { runCollective(doc->topology(), doc->index(), r); }), QString("--gpus"));
    r.gpus = 64;
    r.perHost = 9;
    QCOMPARE(field([&] { runCollective(doc->topology(), doc->index(), r); }),
             QString("--gpus-per-host"));
}

QTEST_GUILESS_MAIN(TestCollectiveBench)
#include "tst_collective_bench.moc"
