// `clusterscope study` as a user runs it: workers in processes, a study killed half-way and
// started again computes each variant once, a failing variant is recorded while the rest
// complete, another study's result file is refused, and the same study through a real
// single-node Slurm (Debian's slurm-wlm and munge, started and stopped here) collects to the
// local run's results.
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <map>
#include <set>

#include "StudyStore.h"

using namespace cs;

namespace {

struct Result {
    int code = -1;
    QByteArray out, err;
};

Result run(const QStringList& args, const QProcessEnvironment& env = {}, int timeoutMs = 120000) {
    QProcess p;
    if (!env.isEmpty()) p.setProcessEnvironment(env);
    p.start(CS_BINARY, args);
    p.waitForFinished(timeoutMs);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2, p.readAllStandardOutput(),
            p.readAllStandardError()};
}

// 12 variants of llama3-8b on meta-roce-24k (about 0.3 s each): oversubscription x placement
// x data-parallel size.
QByteArray twelveVariants(const QByteArray& extra = {}) {
    return R"({"format": "clusterscope-study", "version": 1,
  "topology": {"preset": "meta-roce-24k"},
  "run": {"model": "llama3-8b", "parallel": {"tp": 8, "pp": 1, "virtualStages": 1, "dp": 64,
          "batchTokens": 4194304}, "steps": 1},
  "axes": {"design.generator.clusters[0].oversubscription": [3, 7],
           "run.parallel.placement": ["topology", "fragmented"],
           "run.parallel.dp": [64, 128, 256]},
  "record": ["stepTimeS", "mfu", "cost.perGpu"])" +
           extra + "}";
}

QString writeStudy(const QTemporaryDir& dir, const QByteArray& text, const QString& name) {
    QFile f(dir.filePath(name));
    f.open(QIODevice::WriteOnly);
    f.write(text);
    return f.fileName();
}

QJsonArray variantsOf(const QByteArray& json) {
    return QJsonDocument::fromJson(json).object().value("variants").toArray();
}

// index -> figures of the ok variants
std::map<int, QJsonObject> figuresOf(const QString& resultFile) {
    std::map<int, QJsonObject> out;
    for (const VariantResult& r : StudyStore::open(resultFile).results())
        if (r.ok) out[r.index] = r.figures;
    return out;
}

} // namespace

class TestStudyCommand : public QObject {
    Q_OBJECT
private slots:
    void killedAndRestartedComputesEachVariantOnce();
    void failingVariantIsRecordedAndTheRestComplete();
    void anotherStudysResultsAreRefused();
    void slurmJobArrayCollectsTheLocalResults();
};

void TestStudyCommand::killedAndRestartedComputesEachVariantOnce() {
    QTemporaryDir dir;
    const QString study = writeStudy(dir, twelveVariants(), "study.json");
    const QString out = dir.filePath("study.sqlite");
    QProcess first;
    first.start(CS_BINARY, {"study", study, "--out", out, "--jobs", "1"});
    QVERIFY(first.waitForStarted());
    // Kill it once a few variants are in the file (read as a user's second process would).
    std::set<int> before;
    QElapsedTimer t;
    t.start();
    while (before.size() < 3 && t.elapsed() < 60000) {
        QTest::qWait(20);
        if (!QFile::exists(out)) continue;
        try {
            before = StudyStore::open(out).finished();
        } catch (const InputException&) { // created but not yet initialised
        }
    }
    first.kill();
    first.waitForFinished();
    before = StudyStore::open(out).finished();
    QVERIFY2(before.size() >= 3 && before.size() < 12, qPrintable(QString::number(before.size())));
    const long long restartNs = QDateTime::currentMSecsSinceEpoch() * 1000000LL;

    const Result second = run({"study", study, "--out", out, "--jobs", "2", "--json"});
    QCOMPARE(second.code, 0);
    const QJsonArray variants = variantsOf(second.out);
    QCOMPARE(variants.size(), 12);
    for (const QJsonValue& v : variants)
        QCOMPARE(v.toObject().value("status").toString(), QString("ok"));
    // Each variant finished once; the second run started none the first had finished.
    std::map<int, int> finishedCount;
    const StudyStore store = StudyStore::open(out);
    for (const StudyLogEntry& e : store.log()) {
        if (e.event != "started") ++finishedCount[e.index];
        else if (e.tsNs >= restartNs) QVERIFY2(!before.count(e.index), qPrintable(QString::number(e.index)));
    }
    QCOMPARE(finishedCount.size(), size_t(12));
    for (const auto& [index, n] : finishedCount)
        QCOMPARE(n, 1);
    // The enumeration order: axes by name, the last (run.parallel.placement) fastest.
    const auto param = [&](int i, const char* axis) {
        return variants[i].toObject().value("params").toObject().value(axis);
    };
    QCOMPARE(param(0, "run.parallel.placement").toString(), QString("topology"));
    QCOMPARE(param(1, "run.parallel.placement").toString(), QString("fragmented"));
    QCOMPARE(param(1, "run.parallel.dp").toInt(), 64);
    QCOMPARE(param(2, "run.parallel.dp").toInt(), 128);
    QCOMPARE(param(6, "design.generator.clusters[0].oversubscription").toInt(), 7);
    // More data parallelism shares the same batch among more GPUs: a shorter step.
    const auto step = [&](int i) {
        return variants[i].toObject().value("figures").toObject().value("stepTimeS").toDouble();
    };
    QVERIFY(step(0) > step(2) && step(2) > step(4));
}

void TestStudyCommand::failingVariantIsRecordedAndTheRestComplete() {
    QTemporaryDir dir;
    // Llama 3 405B without pipeline parallelism does not fit in an H100's memory; 1:1 on
    // RoCE needs bigger core switches.
    const QString study = writeStudy(
        dir,
        twelveVariants(R"(, "variants": [{"run.model": "llama3-405b"},
        {"design.generator.clusters[0].oversubscription": 1}])"),
        "study.json");
    const Result r = run({"study", study, "--out", dir.filePath("r.sqlite"), "--json"});
    QCOMPARE(r.code, 0);
    const QJsonArray v = variantsOf(r.out);
    QCOMPARE(v.size(), 14);
    int ok = 0;
    for (int i = 0; i < 12; ++i)
        ok += v[i].toObject().value("status").toString() == "ok";
    QCOMPARE(ok, 12);
    for (int i : {12, 13}) {
        const QJsonObject o = v[i].toObject();
        QCOMPARE(o.value("status").toString(), QString("failed"));
        QVERIFY(o.value("figures").toObject().isEmpty());
    }
    QVERIFY2(v[12].toObject().value("message").toString().contains("does not fit in 79.6 GiB"),
             qPrintable(v[12].toObject().value("message").toString()));
    QVERIFY2(v[13].toObject().value("message").toString().contains("core"),
             qPrintable(v[13].toObject().value("message").toString()));
}

void TestStudyCommand::anotherStudysResultsAreRefused() {
    QTemporaryDir dir;
    const QString a = writeStudy(
        dir, twelveVariants().replace("[64, 128, 256]", "[64]").replace("[3, 7]", "[7]"), "a.json");
    const QString b = writeStudy(
        dir, twelveVariants().replace("[64, 128, 256]", "[128]").replace("[3, 7]", "[7]"), "b.json");
    const QString out = dir.filePath("r.sqlite");
    QCOMPARE(run({"study", a, "--out", out}).code, 0);
    const Result r = run({"study", b, "--out", out});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("another study"), r.err.constData());
    QCOMPARE(StudyStore::open(out).finished().size(), size_t(2)); // a's results kept
    // A broken study file: its place and what was expected.
    const QString bad = writeStudy(dir, twelveVariants().replace("\"fragmented\"", "\"scattered\""),
                                   "bad.json");
    const Result e = run({"study", bad, "--out", dir.filePath("bad.sqlite")});
    QCOMPARE(e.code, 2);
    QVERIFY2(e.err.contains("bad.json:6:") && e.err.contains("run.parallel.placement[1]"),
             e.err.constData());
    QVERIFY(!QFile::exists(dir.filePath("bad.sqlite")));
}

void TestStudyCommand::slurmJobArrayCollectsTheLocalResults() {
    QTemporaryDir dir, slurmDir;
    const QString script = QStringLiteral(CS_SOURCE_DIR) + "/tests/support/slurm-single-node.sh";
    QProcess start;
    start.start("bash", {script, "start", slurmDir.path()});
    QVERIFY(start.waitForFinished(90000));
    QVERIFY2(start.exitCode() == 0, start.readAllStandardError().constData());
    const QString conf = QString::fromUtf8(start.readAllStandardOutput()).trimmed();
    QVERIFY2(conf.startsWith("SLURM_CONF="), qPrintable(conf));
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("SLURM_CONF", conf.mid(11));
    const auto stop = qScopeGuard([&] {
        QProcess::execute("bash", {script, "stop", slurmDir.path()});
    });

    const QString study = writeStudy(dir, twelveVariants(), "study.json");
    const QString local = dir.filePath("local.sqlite"), slurm = dir.filePath("slurm.sqlite");
    QCOMPARE(run({"study", study, "--out", local, "--jobs", "2"}).code, 0);
    const Result submitted =
        run({"study", study, "--out", slurm, "--slurm", "--partition", "debug", "--max-array",
             "4"},
            env);
    QVERIFY2(submitted.code == 0, submitted.err.constData());
    QVERIFY2(submitted.out.contains("4 tasks for 12 variants"), submitted.out.constData());
    // Collecting while tasks run is safe; then wait for the queue to drain.
    QCOMPARE(run({"study", study, "--collect", "--out", slurm}, env).code, 0);
    QElapsedTimer t;
    t.start();
    for (;;) {
        QProcess q;
        q.setProcessEnvironment(env);
        q.start("squeue", {"-h"});
        q.waitForFinished();
        if (q.readAllStandardOutput().trimmed().isEmpty()) break;
        QVERIFY2(t.elapsed() < 240000, "the Slurm tasks did not finish in 4 minutes");
        QTest::qWait(500);
    }
    QCOMPARE(QDir(slurm + ".slurm").entryList({"part-*.sqlite"}).size(), 4);
    const Result collected = run({"study", study, "--collect", "--out", slurm, "--json"}, env);
    QCOMPARE(collected.code, 0);
    QCOMPARE(run({"study", study, "--collect", "--out", slurm}, env).code, 0); // again: no change
    QCOMPARE(StudyStore::open(slurm).results().size(), size_t(12));
    const std::map<int, QJsonObject> a = figuresOf(local), b = figuresOf(slurm);
    QCOMPARE(a.size(), size_t(12));
    QVERIFY(a == b);
    QCOMPARE(variantsOf(collected.out).size(), 12);
}

QTEST_GUILESS_MAIN(TestStudyCommand)
#include "tst_study_command.moc"
