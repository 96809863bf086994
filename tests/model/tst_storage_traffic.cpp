// Checkpoint writes (StorageTraffic): the storage servers and the frontend cables carry them.
#include "EngineTestSupport.h"
#include "RunReader.h"
#include "SimulationRun.h"
#include "TrainingEfficiency.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace cs;
using namespace cs::test;

class TestStorageTraffic : public QObject {
    Q_OBJECT
private slots:
    void checkpointsLoadTheStorageServers();
    void aCheckpointWaitsForItsSlowestHost();
};

void TestStorageTraffic::checkpointsLoadTheStorageServers() {
    const auto doc = openTopology("small-256", {});
    QTemporaryDir dir;
    RunSpec s;
    s.model = "llama3-8b";
    s.parallel = config(8, 1, 4, 8, 8192);
    s.spanS = 3600;
    s.checkpointIntervalS = 600;
    simulateToStore(*doc, s, dir.filePath("span.sqlite"));
    RunReader reader(dir.filePath("span.sqlite"), doc->topology());
    const int64_t during = 600'000'000'000 + 10'000'000, after = 700'000'000'000;
    const std::vector<float> writing = reader.frame(Metric::StorageBytesPerS, during);
    const std::vector<float> training = reader.frame(Metric::StorageBytesPerS, after);
    double sumWriting = 0, sumTraining = 0;
    for (size_t k = 0; k < writing.size(); ++k) {
        sumWriting += writing[k];
        sumTraining += training[k];
    }
    QVERIFY2(sumWriting > 100 * sumTraining,
             qPrintable(QString("%1 vs %2").arg(sumWriting).arg(sumTraining)));
    for (float v : reader.frame(Metric::GpuBusy, during)) // the job waits for its checkpoint
        QVERIFY(std::isnan(v) || v == 0);
    // The writes cross the frontend: every job host's frontend cable carries them, and on
    // this small cluster the storage servers' own links set the pace (not the 2 TB/s).
    const Topology& t = doc->topology();
    const std::vector<float> links = reader.frame(Metric::LinkBytesPerS, during);
    for (int h : {0, 5, 31}) {
        const auto nic = doc->index().find(t.hosts[size_t(h)].name + ".fe0");
        QVERIFY(nic.has_value());
        double load = 0;
        for (int32_t l : doc->index().linksOf(*nic))
            if (!std::isnan(links[size_t(l)])) load += links[size_t(l)];
        QVERIFY2(load > 1e8, qPrintable(QString("host %1: %2 B/s").arg(h).arg(load)));
    }
    double serversCapacity = 0;
    for (size_t k = 0; k < t.storage.size(); ++k)
        if (t.storage[k].kind == StorageKind::Tectonic)
            serversCapacity += capacityOf(Metric::StorageBytesPerS, t, int32_t(k));
    QVERIFY(sumWriting > 0.8 * serversCapacity && sumWriting <= serversCapacity * (1 + 1e-6));
    const QJsonObject summary =
        QJsonDocument::fromJson(QByteArray::fromStdString(reader.info().summaryJson)).object();
    // Every host writes its shard: no sooner than all of them at the first rates, and here (the
    // servers' links the bottleneck, shared alike) hardly later.
    const double allAtOnceS = summary["checkpointBytes"].toDouble() / sumWriting;
    QVERIFY(summary["checkpointTimeS"].toDouble() >= allAtOnceS * (1 - 1e-6));
    QVERIFY(summary["checkpointTimeS"].toDouble() <= allAtOnceS * 1.5);
    QVERIFY(summary.contains("checkpointLastHost"));
    // On meta-roce-24k the 2 TB/s of Tectonic is the limit for 405B: 6.5 TB in no less than
    // 3.25 s, a little more while the last hosts finish on their own paths.
    RunSpec big;
    big.parallel = config(8, 1, 16, 128, 8192);
    big.steps = 1;
    const RunResult r = simulateRun(roce(), big, nullptr);
    QVERIFY(r.checkpointS >= r.checkpointBytes / 2e12 * (1 - 1e-9));
    QVERIFY2(r.checkpointS <= r.checkpointBytes / 2e12 * 1.2,
             qPrintable(QString::number(r.checkpointS)));
}

void TestStorageTraffic::aCheckpointWaitsForItsSlowestHost() {
    // small-256 with one host's frontend cable at 1 Gb/s: its shard alone takes longer than
    // the whole checkpoint did, and the checkpoint waits for it (dividing the bytes by the total
    // rate would hardly notice one slow host of 32).
    RunSpec s;
    s.model = "llama3-8b";
    s.parallel = config(8, 1, 4, 8, 8192);
    s.parallel.batchTokens = 8192.0 * 8 * 8;
    s.steps = 1;
    const auto even = openTopology("small-256", {});
    const RunResult fast = simulateRun(*even, s, nullptr);
    Topology t = even->topology();
    const int slowHost = 5;
    const auto nic = even->index().find(t.hosts[slowHost].name + ".fe0");
    QVERIFY(nic);
    for (int32_t l : even->index().linksOf(*nic))
        t.links[size_t(l)].gbps = 1;
    const TopologyDocument slowDoc(std::move(t), std::nullopt, "small-256 with a slow host");
    const RunResult slow = simulateRun(slowDoc, s, nullptr);
    const double hosts = 32, shard = slow.checkpointBytes / hosts;
    const double alone = shard / (1e9 / 8 * efficiency::kStorageGoodput);
    QVERIFY2(
        slow.checkpointS >= alone * (1 - 1e-6),
        qPrintable(QStringLiteral("%1 s, its shard alone %2 s").arg(slow.checkpointS).arg(alone)));
    QVERIFY(slow.checkpointS > 3 * fast.checkpointS);
    QCOMPARE(QString::fromStdString(slow.checkpointLastHost),
             QString::fromStdString(even->topology().hosts[slowHost].name));
}

QTEST_APPLESS_MAIN(TestStorageTraffic)
#include "tst_storage_traffic.moc"
