// `clusterscope simulate-cluster` run as a user would: per job its wait, step time against the
// same job alone and slowdown, the fragmentation over time; the policy flag; a span that ends
// with jobs still running; bad input exits 2 naming the place.
#include "CliProcess.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {

using Result = cs::test::CliResult;

Result run(const QStringList& args) {
    return cs::test::runCli(CS_BINARY, args);
}

QJsonObject jsonOf(const Result& r) {
    return cs::test::jsonOfOutput(r);
}

QString workload(const char* name) {
    return QString(CS_SOURCE_DIR "/resources/workloads/") + name;
}

QJsonObject jobNamed(const QJsonObject& o, const QString& name) {
    for (const QJsonValue& j : o["jobs"].toArray())
        if (j["name"].toString() == name) return j.toObject();
    return {};
}

} // namespace

class TestClusterCommand : public QObject {
    Q_OBJECT
private slots:
    void jsonGivesEachJobItsWaitAndSlowdown();
    void textNamesTheJobsAndWhereTheyMet();
    void schedulerFlagReplacesTheWorkloadsPolicy();
    void aSpanEndsWithJobsStillRunning();
    void theStoredRunReplaysTheJobsOnTheirGpus();
    void badInputExitsTwo_data();
    void badInputExitsTwo();
};

void TestClusterCommand::jsonGivesEachJobItsWaitAndSlowdown() {
    const Result r =
        run({"simulate-cluster", "--preset", "small-256", workload("pod-crossing.json"), "--json"});
    QCOMPARE(r.code, 0);
    const QJsonObject o = jsonOf(r);
    QCOMPARE(o["scheduler"].toString(), QString("topology-aware"));
    QCOMPARE(o["gpus"].toInteger(), 256);
    QCOMPARE(o["jobs"].toArray().size(), 3);
    for (const QJsonValue& v : o["jobs"].toArray())
        for (const char* key : {"name", "waitS", "stepTimeS", "aloneStepTimeS", "slowdown",
                                "startS", "endS", "hosts", "pods", "racks", "stepTimeline"})
            QVERIFY2(v.toObject().contains(key), key);
    // c waits for a pod with room (the workload says "podCrossing": "wait").
    const QJsonObject a = jobNamed(o, "a"), c = jobNamed(o, "c");
    QCOMPARE(c["startS"].toDouble(), a["endS"].toDouble());
    QVERIFY(c["waitS"].toDouble() > 0);
    QCOMPARE(c["hosts"].toArray().size(), 8);
    QCOMPARE(c["state"].toString(), QString("done"));
    const QJsonArray fragmentation = o["fragmentation"].toArray();
    QVERIFY(!fragmentation.isEmpty());
    bool waited = false;
    for (const QJsonValue& f : fragmentation)
        waited |= f["idleWhileWaiting"].toInteger() == 64 && f["queued"].toInt() == 1;
    QVERIFY(waited);
}

void TestClusterCommand::textNamesTheJobsAndWhereTheyMet() {
    const Result r =
        run({"simulate-cluster", "--preset", "small-256", "--set",
             "generator.clusters[0].oversubscription=7", workload("two-dp-jobs.json")});
    QCOMPARE(r.code, 0);
    const QString text = QString::fromUtf8(r.out);
    QVERIFY2(text.startsWith("fragmented scheduler, 256 GPUs"), r.out.constData());
    QVERIFY(text.contains("slowdown"));
    // Each job's line names a link and the other job it met there.
    const QStringList lines = text.split('\n');
    int met = 0;
    for (const QString& line : lines)
        if ((line.startsWith("a ") && line.contains(" -- ") && line.endsWith("(b)")) ||
            (line.startsWith("b ") && line.contains(" -- ") && line.endsWith("(a)")))
            ++met;
    QCOMPARE(met, 2);
}

void TestClusterCommand::schedulerFlagReplacesTheWorkloadsPolicy() {
    const QStringList base = {"simulate-cluster",
                              "--preset",
                              "small-256",
                              "--set",
                              "generator.clusters[0].oversubscription=7",
                              workload("two-dp-jobs.json"),
                              "--json"};
    const QJsonObject fragmented = jsonOf(run(base));
    const QJsonObject aware = jsonOf(run(base + QStringList{"--scheduler", "topology-aware"}));
    QCOMPARE(aware["scheduler"].toString(), QString("topology-aware"));
    for (const char* name : {"a", "b"}) {
        QVERIFY(jobNamed(fragmented, name)["slowdown"].toDouble() > 1.1);
        QCOMPARE(jobNamed(aware, name)["slowdown"].toDouble(), 1.0);
        QCOMPARE(jobNamed(aware, name)["pods"].toInt(), 1);
    }
}

void TestClusterCommand::aSpanEndsWithJobsStillRunning() {
    const Result r = run({"simulate-cluster", "--preset", "small-256",
                          workload("pod-crossing.json"), "--span", "1m", "--json"});
    QCOMPARE(r.code, 0);
    const QJsonObject o = jsonOf(r);
    QCOMPARE(o["simulatedS"].toDouble(), 60.0);
    const QJsonObject a = jobNamed(o, "a"), c = jobNamed(o, "c");
    QCOMPARE(a["state"].toString(), QString("running"));
    QVERIFY(a["steps"].toDouble() > 0 && a["steps"].toDouble() < 1000);
    QCOMPARE(c["state"].toString(), QString("waiting"));
    QCOMPARE(c["waitS"].toDouble(), 50.0);
    // A job that has not started has no step and no slowdown to show, only its wait.
    QVERIFY(!c.contains("slowdown") && !c.contains("stepTimeS"));
    const Result text = run({"simulate-cluster", "--preset", "small-256",
                             workload("pod-crossing.json"), "--span", "1m"});
    QCOMPARE(text.code, 0);
    QString cLine;
    for (const QString& line : QString::fromUtf8(text.out).split('\n'))
        if (line.startsWith("c ")) cLine = line;
    QVERIFY2(cLine.contains("waiting") && cLine.contains("50.000 s"), qPrintable(cLine));
    QVERIFY2(!cLine.contains("1.000") && cLine.count(" - ") >= 3, qPrintable(cLine));
}

void TestClusterCommand::theStoredRunReplaysTheJobsOnTheirGpus() {
    QTemporaryDir dir;
    const QString store = dir.filePath("cluster.sqlite");
    const Result r = run({"simulate-cluster", "--preset", "small-256",
                          workload("pod-crossing.json"), "--out", store, "--json"});
    QCOMPARE(r.code, 0);
    const QJsonObject o = jsonOf(r);
    const double aEndS = jobNamed(o, "a")["endS"].toDouble();
    // As the GUI reads it: at 5 s a and b (96 GPUs each) compute, the rest is idle; once a
    // has ended, b and c (64) do.
    auto frame = [&](double atS, const char* metric) {
        return jsonOf(run({"frame", "--preset", "small-256", store, "--at",
                           QString::number(atS, 'f', 3) + "s", "--metric", metric, "--json"}));
    };
    const QJsonObject early = frame(5, "gpu_busy");
    QCOMPARE(early["count"].toInt(), 256);
    QCOMPARE(early["min"].toDouble(), 0.0);
    QVERIFY(early["max"].toDouble() > 0.3 && early["max"].toDouble() <= 1);
    // Every busy GPU computes the same fraction (a and b are the same job): mean = 192/256 max.
    QVERIFY(qAbs(early["mean"].toDouble() * 256 / early["max"].toDouble() - 192) < 1e-3);
    const QJsonObject later = frame(aEndS + 1, "gpu_busy");
    QVERIFY(later["mean"].toDouble() * 256 / later["max"].toDouble() < 160 + 1e-3);
    QVERIFY(later["mean"].toDouble() * 256 / later["max"].toDouble() > 96);
    QVERIFY(frame(5, "link_bytes_per_s")["max"].toDouble() > 0);
}

void TestClusterCommand::badInputExitsTwo_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("expected");
    QTemporaryDir* dir = new QTemporaryDir; // lives for the test's run
    dir->setAutoRemove(true);
    const QString bad = dir->filePath("bad.json");
    QFile f(bad);
    f.open(QIODevice::WriteOnly);
    f.write("{\"format\": \"clusterscope-workload\", \"version\": 1,\n"
            " \"jobs\": [{\"name\": \"a\", \"run\": {\"parallel\": {\"tp\": 3}}, \"steps\": 1}]}");
    f.close();
    const QString big = dir->filePath("big.json");
    QFile g(big);
    g.open(QIODevice::WriteOnly);
    g.write("{\"format\": \"clusterscope-workload\", \"version\": 1, \"jobs\": [{\"name\": \"x\", "
            "\"run\": {\"model\": \"llama3-8b\", \"parallel\": {\"tp\": 8, \"pp\": 1, \"dp\": 64, "
            "\"batchSeqs\": 64}}, \"steps\": 1}]}");
    g.close();
    QTest::newRow("no workload") << QStringList{"simulate-cluster", "--preset", "small-256"}
                                 << "expected one WORKLOAD.json";
    QTest::newRow("missing file") << QStringList{"simulate-cluster", "--preset", "small-256",
                                                 dir->filePath("none.json")}
                                  << "none.json";
    QTest::newRow("bad field")
        << QStringList{"simulate-cluster", "--preset", "small-256", bad}
        << "bad.json:2:52: jobs[0].run.parallel.tp: TP must divide the attention heads";
    QTest::newRow("too big") << QStringList{"simulate-cluster", "--preset", "small-256", big}
                             << "jobs[0].run.parallel.dp: job \"x\" needs 512 GPUs";
    QTest::newRow("bad span") << QStringList{"simulate-cluster", "--preset",
                                             "small-256",        workload("pod-crossing.json"),
                                             "--span",           "soon"}
                              << "--span: expected a duration";
    QTest::newRow("bad scheduler")
        << QStringList{"simulate-cluster", "--preset", "small-256", workload("pod-crossing.json"),
                       "--scheduler",      "best"}
        << "--scheduler: expected topology-aware, first-fit or fragmented";
}

void TestClusterCommand::badInputExitsTwo() {
    QFETCH(QStringList, args);
    QFETCH(QString, expected);
    const Result r = run(args);
    QCOMPARE(r.code, 2);
    QVERIFY2(QString::fromUtf8(r.err).contains(expected), r.err.constData());
    QVERIFY(r.out.isEmpty());
}

QTEST_GUILESS_MAIN(TestClusterCommand)
#include "tst_cluster_command.moc"
