// `clusterscope collective` run as a user would: its table has nccl-tests' columns, its JSON
// agrees with them (busbw = algbw x the op's factor), a measured log is compared size by size,
// RoCE and InfiniBand differ on one structure, a pattern gives completion percentiles, and bad
// input exits 2 naming the option.
#include "CliProcess.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cmath>

namespace {

using Result = cs::test::CliResult;

Result run(const QStringList& args) {
    return cs::test::runCli(CS_BINARY, QStringList{"collective"} + args);
}

QString logFile(const char* name) {
    return QString(CS_SOURCE_DIR "/tests/fixtures/real/nccl-tests/") + name;
}

} // namespace

class TestCollectiveCommand : public QObject {
    Q_OBJECT
private slots:
    void tableHasNcclTestsColumns();
    void jsonBusBandwidthIsTheOpsFactor();
    void logIsComparedSizeBySize();
    void roceAndInfinibandDiffer();
    void incastGivesPercentiles();
    void badInputExitsTwo_data();
    void badInputExitsTwo();
};

void TestCollectiveCommand::tableHasNcclTestsColumns() {
    const Result r = run({"--preset", "meta-ib-24k", "--op", "all_reduce", "--gpus", "32",
                          "--min-bytes", "1M", "--max-bytes", "64M"});
    QCOMPARE(r.code, 0);
    const QString out = QString::fromUtf8(r.out);
    for (const char* column : {"size", "count", "type", "time", "algbw", "busbw"})
        QVERIFY2(out.contains(column), column);
    // 1 MiB to 64 MiB by doubling: seven rows of figures, the first its size in bytes.
    int rows = 0;
    for (const QString& line : out.split('\n'))
        if (line.trimmed().startsWith("1048576") || line.trimmed().startsWith("67108864")) ++rows;
    QCOMPARE(rows, 2);
}

void TestCollectiveCommand::jsonBusBandwidthIsTheOpsFactor() {
    const Result r = run({"--preset", "meta-ib-24k", "--op", "all_gather", "--gpus", "64",
                          "--min-bytes", "1M", "--max-bytes", "1G", "--json"});
    QCOMPARE(r.code, 0);
    const QJsonObject o = cs::test::jsonOfOutput(r);
    QCOMPARE(o["format"].toString(), QString("clusterscope-collective"));
    QCOMPARE(o["ranks"].toInt(), 64);
    QCOMPARE(o["nodes"].toInt(), 8);
    const QJsonArray rows = o["rows"].toArray();
    QCOMPARE(rows.size(), 11);
    double before = 0;
    for (const QJsonValue& v : rows) {
        const QJsonObject x = v.toObject();
        const double alg = x["bytes"].toDouble() / x["timeUs"].toDouble() / 1e3;
        QVERIFY(std::fabs(x["algbwGBs"].toDouble() / alg - 1) < 1e-6);
        QVERIFY(std::fabs(x["busbwGBs"].toDouble() / (alg * 63.0 / 64.0) - 1) < 1e-6);
        QVERIFY(x["busbwGBs"].toDouble() >= before * 0.98); // grows with size, bar a switch
        before = x["busbwGBs"].toDouble();
    }
    // A ring across 8 hosts runs at what a host's eight 400G NICs carry: a share of 400 GB/s.
    QVERIFY2(before > 200 && before < 400, qPrintable(QString::number(before)));
}

void TestCollectiveCommand::logIsComparedSizeBySize() {
    const Result r = run({"--preset", "meta-ib-24k", "--log",
                          logFile("issue309-xe9680-2x8xH100-ib-all_reduce.txt"), "--json"});
    QCOMPARE(r.code, 0);
    const QJsonObject log = cs::test::jsonOfOutput(r)["log"].toObject();
    QVERIFY(log["compared"].toInt() >= 10);
    const QJsonArray rows = log["rows"].toArray();
    QVERIFY(!rows.isEmpty());
    for (const QJsonValue& v : rows) {
        const QJsonObject x = v.toObject();
        if (x["measuredBusbwGBs"].toDouble() <= 0) continue; // printed as 0.00: no error to give
        const double err =
            (x["simulatedBusbwGBs"].toDouble() / x["measuredBusbwGBs"].toDouble() - 1) * 100;
        QVERIFY(std::fabs(err - x["errorPct"].toDouble()) < 0.05);
    }
    // The group is the log's: 16 ranks on 2 hosts.
    QCOMPARE(cs::test::jsonOfOutput(r)["ranks"].toInt(), 16);
}

void TestCollectiveCommand::roceAndInfinibandDiffer() {
    // One structure, the fabric switched: a fragmented group's all-reduce sees ECMP's
    // collisions on RoCE and adaptive routing's spread on InfiniBand.
    auto busbw = [](const char* fabric) {
        const Result r = run({"--preset", "meta-roce-24k", "--set",
                              QString("generator.clusters[0].fabric=") + fabric, "--op",
                              "all_reduce", "--gpus", "1024", "--placement", "fragmented",
                              "--min-bytes", "1G", "--max-bytes", "1G", "--json"});
        if (r.code != 0) return -1.0;
        return cs::test::jsonOfOutput(r)["rows"].toArray().first()["busbwGBs"].toDouble();
    };
    const double roce = busbw("roce"), ib = busbw("infiniband");
    QVERIFY(roce > 0 && ib > 0);
    QVERIFY2(ib > roce * 1.05, qPrintable(QString("roce %1, ib %2").arg(roce).arg(ib)));
}

void TestCollectiveCommand::incastGivesPercentiles() {
    const Result r = run({"--preset", "small-256", "--op", "incast", "--gpus", "9", "--min-bytes",
                          "16M", "--max-bytes", "16M", "--json"});
    QCOMPARE(r.code, 0);
    const QJsonObject x = cs::test::jsonOfOutput(r)["rows"].toArray().first().toObject();
    QVERIFY(x.contains("p50Us") && x.contains("p99Us"));
    QVERIFY(x["p50Us"].toDouble() <= x["p99Us"].toDouble());
    QVERIFY(x["p99Us"].toDouble() <= x["maxUs"].toDouble());
}

void TestCollectiveCommand::badInputExitsTwo_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    QTest::newRow("unknown op") << QStringList{"--preset", "small-256", "--op", "allreduce"}
                                << "--op";
    QTest::newRow("too many GPUs")
        << QStringList{"--preset", "small-256", "--gpus", "100000"} << "--gpus";
    QTest::newRow("no log file") << QStringList{"--preset", "small-256", "--log",
                                                "/nonexistent/log.txt"}
                                 << "/nonexistent/log.txt";
    QTest::newRow("sharp on roce")
        << QStringList{"--preset", "small-256",
                       "--op",     "all_reduce",
                       "--gpus",   "16",
                       "--set",    "generator.clusters[0].inNetworkReduction=sharp"}
        << "inNetworkReduction";
    // A transport the fabric does not have, named by its field.
    const QStringList group{"--op", "all_reduce", "--gpus", "16"};
    QTest::newRow("credit on roce")
        << QStringList{"--preset", "small-256", "--set",
                       "generator.clusters[0].congestionControl=credit"} +
               group
        << "congestionControl: credit is InfiniBand's";
    QTest::newRow("dcqcn on infiniband")
        << QStringList{"--preset", "small-ib-256", "--set",
                       "generator.clusters[0].congestionControl=dcqcn"} +
               group
        << "congestionControl: dcqcn is RoCE's";
    QTest::newRow("pfc on infiniband")
        << QStringList{"--preset", "small-ib-256", "--set",
                       "generator.clusters[0].congestionControl=pfc"} +
               group
        << "congestionControl: pfc is RoCE's";
}

void TestCollectiveCommand::badInputExitsTwo() {
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    const Result r = run(args);
    QCOMPARE(r.code, 2);
    QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
}

QTEST_GUILESS_MAIN(TestCollectiveCommand)
#include "tst_collective_command.moc"
