// Slurm's accounting as the jobs of a recording: host lists expanded as Slurm writes them,
// sacct --parsable2 read (steps and jobs that never ran left out, a running job open-ended,
// hosts outside the topology reported), and an import given it lists its jobs.
#include "RunReader.h"
#include "SlurmAccounting.h"
#include "TelemetryImporter.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace cs;

namespace {
// 2024-06-01T00:00:00Z
constexpr int64_t kOriginNs = 1717200000LL * 1'000'000'000;

const QByteArray kSacct = "JobID|JobName|NodeList|Start|End|State\n"
                          "4101|pretrain|demo.pod0.rack0.host[0-1]|2024-06-01T00:00:00|"
                          "2024-06-01T00:01:00|COMPLETED\n"
                          "4101.batch|batch|demo.pod0.rack0.host0|2024-06-01T00:00:00|"
                          "2024-06-01T00:01:00|COMPLETED\n"
                          "4102|eval|demo.pod1.rack0.host0|2024-06-01T00:00:30|Unknown|RUNNING\n"
                          "4103|queued|None assigned|Unknown|Unknown|PENDING\n"
                          "4104|away|other[01-02]|2024-06-01T00:00:10|2024-06-01T00:00:20|"
                          "COMPLETED\n";
} // namespace

class TestSlurmAccounting : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { doc_ = openTopology("small-256", {}); }
    void hostListsExpandAsSlurmWritesThem_data();
    void hostListsExpandAsSlurmWritesThem();
    void badHostListsAreRefused_data();
    void badHostListsAreRefused();
    void sacctGivesTheJobsThatRanHere();
    void badSacctIsRefusedWithItsLineAndField_data();
    void badSacctIsRefusedWithItsLineAndField();
    void anImportWithSacctListsItsJobs();

private:
    std::unique_ptr<TopologyDocument> doc_;
};

void TestSlurmAccounting::hostListsExpandAsSlurmWritesThem_data() {
    QTest::addColumn<QString>("list");
    QTest::addColumn<QStringList>("hosts");
    QTest::newRow("one") << "gpu1" << QStringList{"gpu1"};
    QTest::newRow("padded range") << "node[08-10]" << QStringList{"node08", "node09", "node10"};
    QTest::newRow("ranges and singles")
        << "n[1-2,7],login1" << QStringList{"n1", "n2", "n7", "login1"};
    QTest::newRow("suffix") << "r[1-2]-a" << QStringList{"r1-a", "r2-a"};
}

void TestSlurmAccounting::hostListsExpandAsSlurmWritesThem() {
    QFETCH(QString, list);
    QFETCH(QStringList, hosts);
    QStringList got;
    for (const std::string& h : expandHostList(list.toStdString()))
        got << QString::fromStdString(h);
    QCOMPARE(got, hosts);
}

void TestSlurmAccounting::badHostListsAreRefused_data() {
    QTest::addColumn<QString>("list");
    QTest::addColumn<QString>("why");
    QTest::newRow("open bracket") << "n[1-2"
                                  << "unbalanced brackets";
    QTest::newRow("backwards") << "n[5-2]"
                               << "runs backwards";
    QTest::newRow("letters") << "n[a-b]"
                             << "expected a range";
    QTest::newRow("millions") << "n[0-99999999]"
                              << "more than 100000 hosts";
    QTest::newRow("empty name") << "a,,b"
                                << "an empty name";
}

void TestSlurmAccounting::badHostListsAreRefused() {
    QFETCH(QString, list);
    QFETCH(QString, why);
    try {
        expandHostList(list.toStdString());
        QFAIL("accepted");
    } catch (const InputException& e) {
        QCOMPARE(QString::fromStdString(e.error().field), QString("NodeList"));
        QVERIFY2(QString::fromStdString(e.error().message).contains(why),
                 e.error().message.c_str());
    }
}

void TestSlurmAccounting::sacctGivesTheJobsThatRanHere() {
    const SlurmJobsRead r =
        parseSacct(kSacct, "sacct.txt", doc_->topology(), doc_->index(), {}, kOriginNs);
    QCOMPARE(r.jobs.size(), size_t(2)); // 4103 never ran; 4104 ran on hosts not here
    QCOMPARE(r.jobs[0].name, std::string("4101"));
    QCOMPARE(r.jobs[0].gpus.size(), size_t(16));
    QCOMPARE(r.jobs[0].hosts,
             (std::vector<std::string>{"demo.pod0.rack0.host0", "demo.pod0.rack0.host1"}));
    QCOMPARE(r.jobs[0].startS, 0.0);
    QCOMPARE(r.jobs[0].endS, 60.0);
    QCOMPARE(r.jobs[1].name, std::string("4102"));
    QCOMPARE(r.jobs[1].startS, 30.0);
    QVERIFY(std::isnan(r.jobs[1].endS)); // still running
    QCOMPARE(r.unknownHosts, (std::vector<std::string>{"other01", "other02"}));
    // A mapping file's names rename Slurm's hosts to the topology's.
    SeriesMapping names;
    names.names["other01"] = "demo.pod1.rack1.host0";
    const SlurmJobsRead renamed =
        parseSacct(kSacct, "sacct.txt", doc_->topology(), doc_->index(), names, kOriginNs);
    QCOMPARE(renamed.jobs.size(), size_t(3));
    QCOMPARE(renamed.jobs[2].hosts, std::vector<std::string>{"demo.pod1.rack1.host0"});
}

void TestSlurmAccounting::badSacctIsRefusedWithItsLineAndField_data() {
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("expected");
    QTest::newRow("no NodeList") << QByteArray("JobID|Start|End\n1|x|y\n")
                                 << "sacct.txt:1: NodeList: expected sacct --parsable2 output";
    QTest::newRow("bad start") << QByteArray("JobID|NodeList|Start|End\n1|n1|yesterday|None\n")
                               << "sacct.txt:2: Start: expected a time";
    QTest::newRow("bad list") << QByteArray("JobID|NodeList|Start|End\n\n1|n[2|None|None\n")
                              << "sacct.txt:3: NodeList: unbalanced brackets";
    QTest::newRow("empty") << QByteArray("\n") << "sacct.txt: expected sacct --parsable2 output";
}

void TestSlurmAccounting::badSacctIsRefusedWithItsLineAndField() {
    QFETCH(QByteArray, text);
    QFETCH(QString, expected);
    try {
        parseSacct(text, "sacct.txt", doc_->topology(), doc_->index(), {}, kOriginNs);
        QFAIL("accepted");
    } catch (const InputException& e) {
        QVERIFY2(QString::fromStdString(e.error().toString()).startsWith(expected),
                 e.error().toString().c_str());
    }
}

void TestSlurmAccounting::anImportWithSacctListsItsJobs() {
    // A capture without job labels from 2024-06-01T00:00:00Z, and Slurm's accounting of it.
    QTemporaryDir dir;
    QFile scrape(dir.filePath("gpus.prom")), sacct(dir.filePath("sacct.txt"));
    QVERIFY(scrape.open(QIODevice::WriteOnly) && sacct.open(QIODevice::WriteOnly));
    scrape.write("# TYPE DCGM_FI_DEV_GPU_UTIL gauge\n");
    for (int k = 0; k <= 4; ++k)
        for (int g = 0; g < 8; ++g)
            scrape.write(
                QString("DCGM_FI_DEV_GPU_UTIL{gpu=\"%1\",Hostname=\"demo.pod0.rack0.host0\"} "
                        "90 %2\n")
                    .arg(g)
                    .arg(1717200000000LL + k * 15000)
                    .toUtf8());
    scrape.close();
    sacct.write(kSacct);
    sacct.close();
    ImportOptions o;
    o.jobsFile = sacct.fileName();
    {
        RunStore store = RunStore::openForWriting(dir.filePath("run.sqlite"));
        const ImportReport r = importTelemetry(*doc_, {scrape.fileName()}, o, store);
        QCOMPARE(r.jobs.size(), size_t(2));
        QVERIFY(std::any_of(r.warnings.begin(), r.warnings.end(), [](const std::string& w) {
            return w.find("\"other01\" is not in the topology") != std::string::npos;
        }));
    }
    const RunInfo info = RunReader::runsIn(dir.filePath("run.sqlite")).back();
    const QJsonArray jobs =
        QJsonDocument::fromJson(QByteArray::fromStdString(info.summaryJson))["jobs"].toArray();
    QCOMPARE(jobs.size(), 2);
    QCOMPARE(jobs[0]["name"].toString(), QString("4101"));
    QCOMPARE(jobs[0]["gpus"].toInt(), 16);
    QCOMPARE(jobs[1]["startS"].toDouble(), 30.0);
    QVERIFY(!jobs[1].toObject().contains("endS"));
}

QTEST_GUILESS_MAIN(TestSlurmAccounting)
#include "tst_slurm_accounting.moc"
