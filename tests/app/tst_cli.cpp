// The command line, run as a user would: exit codes, JSON keys, and errors naming the place.
#include "PrometheusServer.h"
#include "RunOptions.h"
#include "RunStore.h"
#include "TelemetryGenerator.h"
#include "TopologyDocument.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QProcess>
#include <QRegularExpression>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

#include <signal.h>

namespace {

struct Result {
    int code;
    QByteArray out, err;
};

Result run(const QStringList& args) {
    QProcess p;
    p.start(CS_BINARY, args);
    if (!p.waitForFinished(120000)) return {-1, {}, "timeout"};
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2, p.readAllStandardOutput(),
            p.readAllStandardError()};
}

} // namespace

class TestCli : public QObject {
    Q_OBJECT
private slots:
    void helpIsTheReadmesCommandList();
    void compareReadsBothRunsAndDesigns();
    void statsJsonHasTheKeys_data();
    void statsJsonHasTheKeys();
    void exportThenStatsAgree();
    void exportRefusesWhatNoLoaderReads();
    void setChangesTheDesign();
    void setIsRefusedWithoutParameters();
    void statsAndRenderReadForeignFabrics_data();
    void statsAndRenderReadForeignFabrics();
    void exportWritesEveryFormat();
    void importsFromAPrometheusServer();
    void aSignalWhileWritingLeavesNoNewStore_data();
    void aSignalWhileWritingLeavesNoNewStore();
    void badInputExitsTwo_data();
    void badInputExitsTwo();
    void unwritableOutputExitsOne();
    void storeWriteFailureExitsOneAndKeepsTheRuns();
    void renderWritesThePicture_data();
    void renderWritesThePicture();
    void renderWritesTheSceneAsGltf();
    void failedPictureWriteKeepsTheOldOne_data();
    void failedPictureWriteKeepsTheOldOne();
    void renderAggregatesShowTheirMembers();
    void renderRejectsBadOptions_data();
    void renderRejectsBadOptions();
    void simulateJsonHasTheKeys();
    void simulateWritesStoreAndTrace();
    void aRunReopensOnItsOwnDesign();
    void twoRunsSideBySide();
    void movieWritesTheFramesAsked_data();
    void movieWritesTheFramesAsked();
    void movieRefusesBadInput();
    void frameShowsLinkLoadInBytesPerSecond_data();
    void frameShowsLinkLoadInBytesPerSecond();
    void frameRefusesBadInput_data();
    void frameRefusesBadInput();
    void simulateRejectsBadCombinations_data();
    void simulateRejectsBadCombinations();
    void simulateHelpListsEveryOption();
    void simulateReadsRunFilesFlagsOverride();
    void importReportsAndKeepsGoing();
    void failedRunsLeaveNoStoreBehind();
    void frameOfARecordedRunAtADate();
    void smallFilesNeedLittleMemory();
    void killedImportLeavesTheStoreAsItWas();
};

// The command list in docs/user/commands.md is what `clusterscope --help` prints, character for
// character:
// both come from the commands' descriptions.
void TestCli::helpIsTheReadmesCommandList() {
    const Result r = run({"--help"});
    QCOMPARE(r.code, 0);
    QFile f(CS_SOURCE_DIR "/docs/user/commands.md");
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QString readme = QString::fromUtf8(f.readAll());
    const qsizetype section = readme.indexOf("\n## Command line\n");
    QVERIFY(section >= 0);
    const qsizetype from = readme.indexOf("```text\n", section);
    QVERIFY(from >= 0);
    const qsizetype to = readme.indexOf("\n```\n", from);
    QVERIFY(to > from);
    const QString listed = readme.mid(from + 8, to - from - 8 + 1);
    QCOMPARE(listed, QString::fromUtf8(r.out));
    // Each command's own help names each of its options.
    const Result render = run({"render", "--help"});
    QCOMPARE(render.code, 0);
    for (const char* flag : {"--layout floor|fabric", "--aggregate mean|max|min", "--camera"})
        QVERIFY2(render.out.contains(flag), flag);
}

// `compare`: each run's figures as simulate reported them, each design's as stats counts
// it, rebuilt from what the stores keep (presets here); B - A.
void TestCli::compareReadsBothRunsAndDesigns() {
    QTemporaryDir dir;
    QJsonObject summaries[2];
    const char* presets[2] = {"small-256", "small-ib-256"};
    for (int i = 0; i < 2; ++i) {
        const Result r = run({"simulate", "--preset", presets[i], "--model", "llama3-8b", "--tp",
                              "8", "--pp", "4", "--dp", "8", "--out",
                              dir.filePath(QString("run%1.sqlite").arg(i)), "--json"});
        QCOMPARE(r.code, 0);
        summaries[i] = QJsonDocument::fromJson(r.out).object();
    }
    const Result c =
        run({"compare", dir.filePath("run0.sqlite"), dir.filePath("run1.sqlite"), "--json"});
    QCOMPARE(c.code, 0);
    QMap<QString, QJsonObject> rows;
    for (const QJsonValue v : QJsonDocument::fromJson(c.out).object()["rows"].toArray())
        rows[v["key"].toString()] = v.toObject();
    QCOMPARE(rows["stepTimeS"]["a"].toDouble(), summaries[0]["stepTimeS"].toDouble());
    QCOMPARE(rows["stepTimeS"]["b"].toDouble(), summaries[1]["stepTimeS"].toDouble());
    QCOMPARE(rows["mfu"]["b"].toDouble(), summaries[1]["mfu"].toDouble() * 100);
    for (int i = 0; i < 2; ++i) {
        const QJsonObject stats =
            QJsonDocument::fromJson(run({"stats", "--preset", presets[i], "--json"}).out).object();
        const double fibre = stats["linksByMedium"].toObject()["fibre"].toDouble();
        QCOMPARE(rows["design.transceivers"][i == 0 ? "a" : "b"].toDouble(), 2 * fibre);
        // Power and cost as the bill of materials gives them.
        const QJsonObject bom =
            QJsonDocument::fromJson(run({"bom", "--preset", presets[i], "--json"}).out).object();
        QCOMPARE(rows["design.powerW"][i == 0 ? "a" : "b"].toDouble(),
                 bom["powerW"].toObject()["total"].toDouble());
        QCOMPARE(rows["design.costPerGpu"][i == 0 ? "a" : "b"].toDouble(),
                 bom["cost"].toObject()["perGpu"].toDouble());
    }
    // Text for people: the two runs named, the rows labelled.
    const Result text = run({"compare", dir.filePath("run0.sqlite"), dir.filePath("run1.sqlite")});
    QVERIFY(text.out.contains("B: llama3-8b on small-ib-256") && text.out.contains("Step time"));
    // A run of another topology than the one given is refused, naming the store.
    const Result wrong = run(
        {"compare", dir.filePath("run0.sqlite"), dir.filePath("run1.sqlite"), "--b", "small-256"});
    QCOMPARE(wrong.code, 2);
    QVERIFY2(wrong.err.contains("run1.sqlite") && wrong.err.contains("recorded on topology"),
             wrong.err.constData());
}

void TestCli::statsJsonHasTheKeys_data() {
    QTest::addColumn<QString>("preset");
    QTest::addColumn<int>("gpus");
    QTest::addColumn<double>("oversubscription");
    QTest::newRow("meta-roce-24k") << "meta-roce-24k" << 24576 << 7.0;
    QTest::newRow("meta-ib-24k") << "meta-ib-24k" << 24576 << 1.0;
    QTest::newRow("meta-both") << "meta-both" << 49152 << 7.0;
}

void TestCli::statsJsonHasTheKeys() {
    QFETCH(QString, preset);
    QFETCH(int, gpus);
    QFETCH(double, oversubscription);
    const Result r = run({"stats", "--preset", preset, "--json"});
    QCOMPARE(r.code, 0);
    QJsonParseError err;
    const QJsonObject o = QJsonDocument::fromJson(r.out, &err).object();
    QCOMPARE(err.error, QJsonParseError::NoError);
    for (const char* key :
         {"gpus", "hosts", "racks", "pods", "switches", "links", "oversubscription"})
        QVERIFY2(o.contains(key), key);
    QCOMPARE(o["gpus"].toInt(), gpus);
    QCOMPARE(o["hosts"].toInt(), gpus / 8);
    QCOMPARE(qRound(o["oversubscription"].toDouble() * 10), qRound(oversubscription * 10));
}

void TestCli::exportThenStatsAgree() {
    QTemporaryDir dir;
    const QString file = dir.filePath("roce.json");
    QCOMPARE(run({"export", "--preset", "small-256", "-o", file}).code, 0);
    const Result fromFile = run({"stats", file, "--json"});
    const Result fromPreset = run({"stats", "--preset", "small-256", "--json"});
    QCOMPARE(fromFile.code, 0);
    QCOMPARE(fromFile.out, fromPreset.out);
    const QString params = dir.filePath("params.json");
    QCOMPARE(run({"export", "--preset", "small-256", "--params", "-o", params}).code, 0);
    QCOMPARE(run({"stats", params, "--json"}).out, fromPreset.out);
}

// A site of 1,998,848 GPUs: every entity listed would be past what the loaders read (256 MiB),
// so export refuses it before writing anything, saying how large and pointing to --params;
// the parameters export reads back as the same site.
void TestCli::exportRefusesWhatNoLoaderReads() {
    QTemporaryDir dir;
    const QString file = dir.filePath("huge.json");
    const QStringList site = {"--preset", "meta-roce-24k",
                              "--set",    "generator.clusters[0].pods=488",
                              "--set",    "generator.clusters[0].racksPerPod=256",
                              "--set",    "generator.clusters[0].coreRadix=20000"};
    const Result refused = run(QStringList{"export"} + site + QStringList{"-o", file});
    QCOMPARE(refused.code, 2);
    QVERIFY2(refused.err.contains("MiB are read") && refused.err.contains("--params"),
             refused.err.constData());
    QVERIFY(!QFileInfo::exists(file));
    const QString params = dir.filePath("params.json");
    QCOMPARE(run(QStringList{"export"} + site + QStringList{"--params", "-o", params}).code, 0);
    const Result back = run({"stats", params, "--json"});
    QCOMPARE(back.code, 0);
    QCOMPARE(QJsonDocument::fromJson(back.out).object()["gpus"].toInteger(), 1'998'848);
}

// --set changes the generator parameters before generating: the figures follow, a combination
// that does not fit is refused with the changes that fit, and one of them is accepted.
void TestCli::setChangesTheDesign() {
    const QString oversubscription = "generator.clusters[0].oversubscription=";
    const Result three =
        run({"stats", "--preset", "meta-roce-24k", "--set", oversubscription + "3", "--json"});
    QCOMPARE(three.code, 0);
    QCOMPARE(QJsonDocument::fromJson(three.out).object()["oversubscription"].toDouble(), 3.0);
    // The same through a parameters file, where the file's own value is replaced.
    QTemporaryDir dir;
    const QString params = dir.filePath("params.json");
    QCOMPARE(run({"export", "--preset", "meta-roce-24k", "--params", "-o", params}).code, 0);
    QCOMPARE(run({"stats", params, "--set", oversubscription + "3", "--json"}).out, three.out);
    // 1:1 with one core per plane needs more core ports than the preset's switches have.
    const QString onePerPlane = "generator.clusters[0].coresPerPlane=1";
    const Result full = run({"stats", "--preset", "meta-roce-24k", "--set", onePerPlane, "--set",
                             oversubscription + "1", "--json"});
    QCOMPARE(full.code, 2);
    const QString err = QString::fromUtf8(full.err);
    QVERIFY2(err.contains("preset:meta-roce-24k with --set: generator.clusters[0].coreRadix: a "
                          "core switch needs"),
             qPrintable(err));
    const qsizetype at = err.indexOf("--set generator.clusters[0].coresPerPlane=");
    QVERIFY2(at >= 0, qPrintable(err));
    const QString fix = err.mid(at + 6).section(' ', 0, 0).trimmed();
    const Result fixed = run({"stats", "--preset", "meta-roce-24k", "--set", onePerPlane, "--set",
                              oversubscription + "1", "--set", fix, "--json"});
    QCOMPARE(fixed.code, 0);
    QCOMPARE(QJsonDocument::fromJson(fixed.out).object()["oversubscription"].toDouble(), 1.0);
}

// An explicit topology and a foreign fabric file have no generator parameters to change.
void TestCli::setIsRefusedWithoutParameters() {
    QTemporaryDir dir;
    const QString explicitFile = dir.filePath("explicit.json");
    const QString ibnet = dir.filePath("fabric.ibnet");
    QCOMPARE(run({"export", "--preset", "small-256", "-o", explicitFile}).code, 0);
    QCOMPARE(
        run({"export", "--preset", "small-ib-256", "--format", "ibnetdiscover", "-o", ibnet}).code,
        0);
    for (const QString& file : {explicitFile, ibnet}) {
        const Result r = run({"stats", file, "--set", "generator.clusters[0].pods=1"});
        QCOMPARE(r.code, 2);
        QVERIFY(r.out.isEmpty());
        QVERIFY2(r.err.contains(file.toUtf8() + ": --set changes generator parameters"),
                 r.err.constData());
    }
}

void TestCli::importsFromAPrometheusServer() {
    // import --prometheus against a real server; on a terminal it draws a progress bar
    // (`script` gives the command one), in a pipe it draws none.
    QTemporaryDir dir;
    const auto doc = cs::openTopology("small-256", {});
    cs::TelemetryGeneratorParams p;
    p.durationS = 300;
    p.maxHosts = 2;
    p.openMetrics = true;
    PrometheusServer server;
    QVERIFY2(server.start(cs::generatePrometheusTelemetry(doc->topology(), p), dir.path()),
             qPrintable(server.error()));
    const QString startS = QString::number(p.startMs / 1000),
                  endS = QString::number(p.startMs / 1000 + 300);
    const QStringList args{
        "import", "--preset", "small-256", "--prometheus", server.url().toString(), "--start",
        startS,   "--end",    endS};
    const Result piped = run(args + QStringList{"--out", dir.filePath("piped.sqlite")});
    QCOMPARE(piped.code, 0);
    // The same counts as importing the file the server was loaded from.
    const Result file = run({"import", "--preset", "small-256", dir.filePath("telemetry.om"),
                             "--out", dir.filePath("file.sqlite")});
    QCOMPARE(file.code, 0);
    QCOMPARE(piped.out.split('\n').front(), file.out.split('\n').front());
    QVERIFY2(piped.out.startsWith("samples "), piped.out.constData());
    QVERIFY(!piped.err.contains('\r'));
    QStringList quoted{CS_BINARY};
    for (const QString& a : args + QStringList{"--out", dir.filePath("tty.sqlite")})
        quoted << "'" + a + "'";
    QProcess terminal;
    terminal.start("script", {"-qfec", quoted.join(' '), "/dev/null"});
    QVERIFY(terminal.waitForFinished(60000));
    const QByteArray seen = terminal.readAll();
    QCOMPARE(terminal.exitCode(), 0);
    QVERIFY2(seen.contains("] 100%") && seen.contains("\r[####"), seen.constData());
}

void TestCli::aSignalWhileWritingLeavesNoNewStore_data() {
    QTest::addColumn<QString>("command");
    QTest::addColumn<int>("signal");
    for (const char* command : {"import", "simulate"}) {
        QTest::addRow("%s, SIGTERM", command) << QString(command) << int(SIGTERM);
        QTest::addRow("%s, SIGINT (Ctrl+C)", command) << QString(command) << int(SIGINT);
    }
}

// An import from a server that accepts and never answers, or a simulation of 20 steps of
// Llama 3 405B on 24K GPUs (several seconds), is ended by a signal while its store is open: a
// store it created is gone (with its log), one that existed keeps its runs and reads; the
// process ends by the signal, as without ClusterScope's handler.
void TestCli::aSignalWhileWritingLeavesNoNewStore() {
    QFETCH(QString, command);
    QFETCH(int, signal);
    QTcpServer silent; // the kernel accepts; nobody answers
    QVERIFY(silent.listen(QHostAddress::LocalHost, 0));
    const QString url = QString("http://127.0.0.1:%1").arg(silent.serverPort());
    const QStringList args =
        command == "import"
            ? QStringList{"import",  "--preset", "small-256", "--prometheus", url,
                          "--start", "0",        "--end",     "600"}
            : QStringList{"simulate", "--preset", "meta-roce-24k", "--model", "llama3-405b",
                          "--steps",  "20"};
    QTemporaryDir dir;
    const QString existing = dir.filePath("existing.sqlite");
    QCOMPARE(run({"simulate", "--preset", "small-256", "--model", "llama3-8b", "--tp", "8", "--pp",
                  "1", "--dp", "32", "--steps", "1", "--out", existing})
                 .code,
             0);
    auto endedBySignal = [&](const QString& out) {
        QProcess p;
        p.start(CS_BINARY, args + QStringList{"--out", out});
        QElapsedTimer waited;
        waited.start();
        while (!QFileInfo::exists(out + "-wal") && waited.elapsed() < 20000)
            QTest::qWait(50);
        QTest::qWait(200); // waiting on the server, or simulating, now
        if (p.state() != QProcess::Running) return false;
        ::kill(pid_t(p.processId()), signal);
        return p.waitForFinished(20000) && p.exitStatus() == QProcess::CrashExit;
    };
    const QString created = dir.filePath("new.sqlite");
    QVERIFY(endedBySignal(created));
    for (const char* suffix : {"", "-wal", "-shm"})
        QVERIFY2(!QFileInfo::exists(created + suffix), suffix);
    QVERIFY(endedBySignal(existing));
    cs::RunStore store = cs::RunStore::openForReading(existing);
    QCOMPARE(int(store.runs().size()), 1);
    QCOMPARE(store.runs().front().kind, std::string("simulated"));
}

void TestCli::statsAndRenderReadForeignFabrics_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("format");
    QTest::addColumn<int>("gpus");
    const QString real = CS_SOURCE_DIR "/tests/fixtures/real/";
    QTest::newRow("ibnetdiscover") << real + "rdma-core-ibnetdiscover-topology-file-example.txt"
                                   << "ibnetdiscover or ibsim output" << 5;
    QTest::newRow("ibsim") << real + "ibsim-net-examples-net.txt"
                           << "ibnetdiscover or ibsim output" << 2;
    QTest::newRow("infragraph") << real + "infragraph-two-tier-clos-fabric-infrastructure.yaml"
                                << "InfraGraph YAML or JSON" << 16;
    // Small files of the two formats no project ships an example of here (the fuzz seeds).
    const QString seeds = CS_SOURCE_DIR "/tests/fuzz/corpus/topology/";
    QTest::newRow("networkx") << seeds + "networkx-tiny.json"
                              << "NetworkX node-link JSON" << 2;
    QTest::newRow("ns-3") << seeds + "ns3-tiny.txt"
                          << "SimAI / ASTRA-sim ns-3 topology" << 2;
    QTest::newRow("infragraph json") << seeds + "infragraph-edges.json"
                                     << "InfraGraph YAML or JSON" << 4;
}

void TestCli::statsAndRenderReadForeignFabrics() {
    QFETCH(QString, file);
    QFETCH(QString, format);
    QFETCH(int, gpus);
    const Result json = run({"stats", file, "--json"});
    QCOMPARE(json.code, 0);
    const QJsonObject o = QJsonDocument::fromJson(json.out).object();
    QCOMPARE(o["format"].toString(), format);
    QCOMPARE(o["gpus"].toInt(), gpus);
    QVERIFY(o["oversubscription"].isNull()); // one pod each: not applicable
    QStringList what;
    for (const QJsonValue& f : o["inferred"].toArray())
        what << f["what"].toString();
    QVERIFY2(what.contains("switchTiers") && what.contains("racks"), qPrintable(what.join(",")));
    const Result text = run({"stats", file});
    QVERIFY(text.out.contains("pod oversubscription       not applicable"));
    QVERIFY(text.out.contains("inferred (the file does not say"));
    if (qEnvironmentVariableIsEmpty("DISPLAY"))
        QFAIL("render needs an X server: run under xvfb-run");
    QTemporaryDir dir;
    const QString png = dir.filePath("fabric.png");
    const Result r = run({"render", file, "--layout", "fabric", "--size", "320x200", "-o", png});
    QCOMPARE(r.code, 0);
    QCOMPARE(QImage(png).size(), QSize(320, 200));
}

void TestCli::exportWritesEveryFormat() {
    QTemporaryDir dir;
    const QByteArray original = run({"stats", "--preset", "small-256", "--json"}).out;
    const QJsonObject o = QJsonDocument::fromJson(original).object();
    for (const char* format : {"ibnetdiscover", "infragraph", "networkx", "ns3"}) {
        const QString out = dir.filePath(QString("fabric.") + format);
        QCOMPARE(run({"export", "--preset", "small-256", "--format", format, "-o", out}).code, 0);
        const Result back = run({"stats", out, "--json"});
        QVERIFY2(back.code == 0, back.err.constData());
        const QJsonObject b = QJsonDocument::fromJson(back.out).object();
        for (const char* key :
             {"gpus", "hosts", "pods", "racks", "injectionGbps", "oversubscription"})
            QVERIFY2(b[key] == o[key], qPrintable(QString("%1 %2").arg(format, key)));
    }
    const QString graphml = dir.filePath("fabric.graphml");
    QCOMPARE(run({"export", "--preset", "small-256", "--format", "graphml", "-o", graphml}).code,
             0);
    QFile g(graphml);
    QVERIFY(g.open(QIODevice::ReadOnly));
    QVERIFY(g.readAll().contains("<graphml"));
    const QString netbox = dir.filePath("netbox");
    const Result nb = run({"export", "--preset", "small-256", "--format", "netbox", "-o", netbox});
    QCOMPARE(nb.code, 0);
    QCOMPARE(QDir(netbox).entryList({"*.csv"}).size(), 8);
    const Result bad = run({"export", "--preset", "small-256", "--format", "gml", "-o", graphml});
    QCOMPARE(bad.code, 2);
    QVERIFY(bad.err.contains("graphml, dot, netbox"));
}

void TestCli::badInputExitsTwo_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QByteArray>("fileText");
    QTest::addColumn<QString>("message");
    QTest::newRow("unknown preset")
        << QStringList{"stats", "--preset", "nope"} << QByteArray() << "unknown preset";
    QTest::newRow("no source") << QStringList{"stats"} << QByteArray()
                               << "expected either --preset";
    QTest::newRow("unknown option") << QStringList{"stats", "--preset", "small-256", "--jsn"}
                                    << QByteArray() << "unknown option --jsn";
    QTest::newRow("missing file") << QStringList{"stats", "FILE"} << QByteArray() << "cannot open";
    QTest::newRow("GUI: unknown dock")
        << QStringList{"--preset", "small-256", "--dock", "nowhere"} << QByteArray()
        << "--dock: expected one of topology|design|";
    QTest::newRow("GUI: compare without a run")
        << QStringList{"--preset", "small-256", "--compare", "b.sqlite"} << QByteArray()
        << "--compare: expected --run too";
    QTest::newRow("syntax") << QStringList{"stats", "FILE"} << QByteArray("{\n  \"format\": \n}\n")
                            << "FILE:3:";
    QTest::newRow("wrong type") << QStringList{"stats", "FILE"}
                                << QByteArray(
                                       "{\"format\": \"clusterscope-topology\",\n \"version\": "
                                       "1,\n \"generator\": {\"clusters\": [{\"pods\": true}]}}\n")
                                << "FILE:3:";
    QTest::newRow("not a fabric description")
        << QStringList{"stats", "FILE"} << QByteArray("hello\n")
        << "FILE:1:1: not a fabric description ClusterScope reads";
    QTest::newRow("node-name map on a preset")
        << QStringList{"stats", "--preset", "small-256", "--node-name-map", "x"} << QByteArray()
        << "apply to fabric files";
    QTest::newRow("export without -o")
        << QStringList{"export", "--preset", "small-256"} << QByteArray() << "-o OUT";
    // A configuration refused names where its value came from: the run file's field, the flag.
    const QByteArray tooBig = R"({"format": "clusterscope-run", "version": 2, "model": "llama3-8b",
        "parallel": {"tp": 8, "pp": 4, "dp": 64}, "steps": 1})";
    QTest::newRow("run file too big for the topology")
        << QStringList{"simulate", "--preset", "small-256", "--run", "FILE"} << tooBig
        << "input.json: parallel.dp: the job needs 2048 GPUs";
    QTest::newRow("flag too big for the topology")
        << QStringList{"simulate", "--preset", "small-256", "--run", "FILE", "--dp", "32"} << tooBig
        << "--dp: the job needs 1024 GPUs";
    // --set names its argument: the field with the nearest ones, or what the value should be.
    QTest::newRow("--set unknown field")
        << QStringList{"stats", "--preset", "small-256", "--set", "generator.clusters[0].podz=2"}
        << QByteArray()
        << "--set generator.clusters[0].podz=2: no such field; nearest: "
           "generator.clusters[0].pods";
    QTest::newRow("--set bad value")
        << QStringList{"stats", "--preset", "meta-roce-24k", "--set",
                       "generator.clusters[0].oversubscription=abc"}
        << QByteArray()
        << "--set generator.clusters[0].oversubscription=abc: expected a number from 0.01 to 1000";
    QTest::newRow("--set without a value")
        << QStringList{"render", "--preset", "small-256", "-o", "x.png", "--set", "generator.name"}
        << QByteArray() << "--set generator.name: expected FIELD=VALUE";
    QTest::newRow("GUI: --set unknown field")
        << QStringList{"--preset", "small-256", "--no-run", "--set", "generator.podz=1"}
        << QByteArray() << "--set generator.podz=1: no such field";
    QTest::newRow("GUI: --no-run with --run")
        << QStringList{"--preset", "small-256", "--no-run", "--run", "x.sqlite"} << QByteArray()
        << "--no-run and --run exclude each other";
}

void TestCli::badInputExitsTwo() {
    QFETCH(QStringList, args);
    QFETCH(QByteArray, fileText);
    QFETCH(QString, message);
    QTemporaryDir dir;
    const QString file = dir.filePath("input.json");
    if (!fileText.isEmpty()) {
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(fileText);
    }
    args.replaceInStrings("FILE", file);
    const Result r = run(args);
    QCOMPARE(r.code, 2);
    QVERIFY(r.out.isEmpty());
    const QString err = QString::fromUtf8(r.err);
    QVERIFY2(err.contains(QString(message).replace("FILE", file)), qPrintable(err));
}

void TestCli::unwritableOutputExitsOne() {
    const Result r = run({"export", "--preset", "small-256", "-o", "/proc/no/such/place.json"});
    QCOMPARE(r.code, 1);
    QVERIFY(r.err.contains("cannot write"));
}

void TestCli::storeWriteFailureExitsOneAndKeepsTheRuns() {
    // The disk failing under a store (here a file-size limit, as a full disk would) is an
    // output that cannot be written: exit 1 with the reason, and the runs stored before stay
    // readable.
    QTemporaryDir dir;
    const QString store = dir.filePath("runs.sqlite");
    const QStringList simulate{"simulate", "--preset", "small-256", "--model", "llama3-8b",
                               "--tp",     "8",        "--pp",      "1",       "--dp",
                               "32",       "--out",    store};
    const Result first = run(simulate);
    QVERIFY2(first.code == 0, first.err.constData());
    QProcess p;
    p.start("bash",
            QStringList{"-c", "ulimit -f 200; trap '' XFSZ; exec \"$0\" \"$@\"", CS_BINARY} +
                simulate);
    QVERIFY(p.waitForFinished(120000));
    const QString err = QString::fromUtf8(p.readAllStandardError());
    QCOMPARE(p.exitCode(), 1);
    QVERIFY2(err.contains("cannot write " + store), qPrintable(err));
    const Result frame = run({"frame", "--preset", "small-256", store, "--at", "0s", "--json"});
    QVERIFY2(frame.code == 0, frame.err.constData());
    QCOMPARE(QJsonDocument::fromJson(frame.out)["count"].toInt(), 256);
}

void TestCli::renderWritesThePicture_data() {
    QTest::addColumn<QStringList>("extra");
    QTest::newRow("floor overview") << QStringList{"--layout", "floor"};
    QTest::newRow("fabric pod") << QStringList{"--layout", "fabric", "--camera", "pod:1"};
    QTest::newRow("rack values") << QStringList{"--camera", "rack:demo.pod0.rack3", "--values",
                                                "test",     "--aggregate",          "max"};
}

void TestCli::renderWritesThePicture() {
    if (qEnvironmentVariableIsEmpty("DISPLAY"))
        QFAIL("render needs an X server: run under xvfb-run");
    QFETCH(QStringList, extra);
    QTemporaryDir dir;
    const QString out = dir.filePath("view.png");
    const Result r =
        run(QStringList{"render", "--preset", "small-256", "--size", "320x200", "-o", out} + extra);
    QCOMPARE(r.code, 0);
    const QImage img(out);
    QCOMPARE(img.size(), QSize(320, 200));
}

// Racks' sides and bundles show the mean, the max or the min of their members: three
// different pictures of the same frame.
void TestCli::renderAggregatesShowTheirMembers() {
    if (qEnvironmentVariableIsEmpty("DISPLAY"))
        QFAIL("render needs an X server: run under xvfb-run");
    QTemporaryDir dir;
    std::vector<QImage> pictures;
    for (const char* aggregate : {"mean", "max", "min"}) {
        const QString out = dir.filePath(QString(aggregate) + ".png");
        const Result r = run({"render", "--preset", "small-256", "--camera", "pod:0", "--values",
                              "test", "--size", "320x200", "--aggregate", aggregate, "-o", out});
        QVERIFY2(r.code == 0, r.err.constData());
        pictures.emplace_back(out);
        QCOMPARE(pictures.back().size(), QSize(320, 200));
    }
    auto differing = [](const QImage& a, const QImage& b) {
        int n = 0;
        for (int y = 0; y < a.height(); ++y)
            for (int x = 0; x < a.width(); ++x)
                n += a.pixel(x, y) != b.pixel(x, y);
        return n;
    };
    QVERIFY(differing(pictures[0], pictures[1]) > 50);
    QVERIFY(differing(pictures[0], pictures[2]) > 50);
    QVERIFY(differing(pictures[1], pictures[2]) > 50);
}

void TestCli::renderWritesTheSceneAsGltf() {
    if (qEnvironmentVariableIsEmpty("DISPLAY"))
        QFAIL("render needs an X server: run under xvfb-run");
    QTemporaryDir dir;
    const QString out = dir.filePath("scene.gltf");
    const Result r = run({"render", "--preset", "small-256", "--values", "test", "-o", out});
    QVERIFY2(r.code == 0, r.err.constData());
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QJsonObject g = QJsonDocument::fromJson(f.readAll()).object();
    QCOMPARE(g["asset"].toObject()["version"].toString(), QString("2.0"));
    // The far racks as runs of boxes (triangles) textured with each rack's colour and each
    // GPU's cell, and the link bundles (lines): a mesh each, data inline.
    QVERIFY2(g["meshes"].toArray().size() >= 2,
             qPrintable(QString::number(g["meshes"].toArray().size())));
    bool lines = false, triangles = false;
    for (const QJsonValue& m : g["meshes"].toArray()) {
        const int mode = m["primitives"].toArray()[0].toObject()["mode"].toInt(4);
        lines = lines || mode == 1;
        triangles = triangles || mode == 4;
    }
    QVERIFY(lines && triangles);
    QVERIFY(g["buffers"].toArray()[0].toObject()["uri"].toString().startsWith("data:"));
    // The texture holds a texel for each of the 256 GPUs at least.
    QVERIFY(!g["textures"].toArray().isEmpty());
    const QJsonObject image = g["images"].toArray()[0].toObject();
    QCOMPARE(image["mimeType"].toString(), QString("image/png"));
    const QJsonObject view = g["bufferViews"].toArray()[image["bufferView"].toInt()].toObject();
    const QString uri = g["buffers"].toArray()[view["buffer"].toInt()].toObject()["uri"].toString();
    const QByteArray bytes = QByteArray::fromBase64(uri.mid(uri.indexOf(',') + 1).toLatin1())
                                 .mid(view["byteOffset"].toInt(), view["byteLength"].toInt());
    const QImage texels = QImage::fromData(bytes, "PNG");
    QVERIFY2(texels.width() * texels.height() >= 256,
             qPrintable(QStringLiteral("%1x%2").arg(texels.width()).arg(texels.height())));
}

void TestCli::failedPictureWriteKeepsTheOldOne_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QStringList>("args"); // OUT: the picture's path
    QTest::newRow("render PNG") << "view.png"
                                << QStringList{"render",  "--preset", "small-256", "--size",
                                               "320x200", "-o",       "OUT"};
    QTest::newRow("render glTF") << "scene.gltf"
                                 << QStringList{"render", "--preset", "small-256", "-o", "OUT"};
    QTest::newRow("GUI screenshot")
        << "window.png" << QStringList{"--preset", "small-256", "--no-run", "--screenshot", "OUT"};
}

void TestCli::failedPictureWriteKeepsTheOldOne() {
    // A picture is written whole and then replaces the file: when the write fails (here the
    // file-size limit, as a full disk would), the old picture stays, nothing half-written is
    // left beside it, and the exit code is 1 with the system's reason.
    if (qEnvironmentVariableIsEmpty("DISPLAY"))
        QFAIL("render needs an X server: run under xvfb-run");
    QFETCH(QString, file);
    QFETCH(QStringList, args);
    QTemporaryDir dir;
    const QString out = dir.filePath(file);
    args.replaceInStrings(QRegularExpression("^OUT$"), out);
    const Result good = run(args);
    QVERIFY2(good.code == 0, good.err.constData());
    QFile written(out);
    QVERIFY(written.open(QIODevice::ReadOnly));
    const QByteArray before = written.readAll();
    written.close();
    QVERIFY(before.size() > 4096);
    // 4 KiB at most per file; SIGXFSZ ignored, so a write past it fails with EFBIG.
    QProcess p;
    p.start("bash",
            QStringList{"-c", "ulimit -f 4; trap '' XFSZ; exec \"$0\" \"$@\"", CS_BINARY} + args);
    QVERIFY(p.waitForFinished(120000));
    const QString err = QString::fromUtf8(p.readAllStandardError());
    QCOMPARE(p.exitCode(), 1);
    QVERIFY2(err.contains("cannot write") && err.contains(out) && err.contains("too large"),
             qPrintable(err));
    QVERIFY(written.open(QIODevice::ReadOnly));
    QCOMPARE(written.readAll(), before);
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{file});
}

void TestCli::renderRejectsBadOptions_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    QTest::newRow("camera") << QStringList{"--camera", "pod:99"} << "--camera: no pod";
    QTest::newRow("layout") << QStringList{"--layout", "side"}
                            << "--layout: expected floor or fabric";
    QTest::newRow("size") << QStringList{"--size", "big"} << "--size: expected WxH";
    QTest::newRow("select") << QStringList{"--select", "nowhere"} << "--select: no entity";
    QTest::newRow("aggregate") << QStringList{"--aggregate", "median"}
                               << "--aggregate: expected mean, max or min, got \"median\"";
}

void TestCli::renderRejectsBadOptions() {
    if (qEnvironmentVariableIsEmpty("DISPLAY"))
        QFAIL("render needs an X server: run under xvfb-run");
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    QTemporaryDir dir;
    const Result r =
        run(QStringList{"render", "--preset", "small-256", "-o", dir.filePath("x.png")} + args);
    QCOMPARE(r.code, 2);
    QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
    QVERIFY(!QFile::exists(dir.filePath("x.png")));
}

void TestCli::simulateJsonHasTheKeys() {
    const Result r = run({"simulate",   "--preset",    "meta-roce-24k",
                          "--model",    "llama3-405b", "--gpus",
                          "16384",      "--tp",        "8",
                          "--cp",       "1",           "--pp",
                          "16",         "--dp",        "128",
                          "--seq",      "8192",        "--batch-tokens",
                          "16777216",   "--span",      "2d",
                          "--failures", "on",          "--seed",
                          "3",          "--json"});
    QCOMPARE(r.code, 0);
    const QJsonObject o = QJsonDocument::fromJson(r.out).object();
    for (const char* key : {"stepTimeS", "tflopsPerGpu", "mfu", "tokensPerS", "bubbleFraction",
                            "peakMemoryGiB", "interruptions", "effectiveTrainingTime"})
        QVERIFY2(o.contains(key), key);
    QVERIFY(o["stepTimeS"].toDouble() > 5 &&
            o["stepTimeS"].toDouble() < 8); // Table 4: 16M tokens in ~6.5 s
    QVERIFY(o["effectiveTrainingTime"].toDouble() > 0.5 &&
            o["effectiveTrainingTime"].toDouble() <= 1.0);
}

void TestCli::simulateWritesStoreAndTrace() {
    QTemporaryDir dir;
    const QString store = dir.filePath("run.sqlite"), trace = dir.filePath("step.json");
    const Result r =
        run({"simulate", "--preset", "small-256", "--model", "llama3-8b", "--tp", "8", "--pp", "4",
             "--dp", "8", "--steps", "2", "--out", store, "--trace", trace});
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.contains("TFLOP/s per GPU"));
    QVERIFY(QFileInfo(store).size() > 0);
    QFile f(trace);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QVERIFY(QJsonDocument::fromJson(f.readAll()).object().contains("traceEvents"));
    if (qEnvironmentVariableIsEmpty("DISPLAY"))
        QFAIL("render needs an X server: run under xvfb-run");
    // The stored run renders at a time, on its own topology only.
    const QString png = dir.filePath("run.png");
    QCOMPARE(run({"render", "--preset", "small-256", "--run", store, "--at", "1s", "--size",
                  "320x200", "-o", png})
                 .code,
             0);
    QCOMPARE(QImage(png).size(), QSize(320, 200));
    // Given another topology, the run is replayed on the design stored with it, as said.
    const QString other = dir.filePath("other.png");
    const Result wrong = run({"render", "--preset", "meta-roce-24k", "--run", store, "--at", "1s",
                              "--size", "320x200", "-o", other});
    QVERIFY2(wrong.code == 0, wrong.err.constData());
    QVERIFY2(wrong.err.contains("not on the topology given (\"meta-roce-24k\")"),
             wrong.err.constData());
    QCOMPARE(QImage(other), QImage(png));
}

namespace {
// The mean over a band of rows and columns of an image: what text drawn there changes.
QImage band(const QImage& img, QRect r) {
    return img.copy(r);
}
} // namespace

// `render --compare` and `movie --compare`: two runs side by side, each under its design's
// name, a title over them and the figures that differ under them.
void TestCli::twoRunsSideBySide() {
    if (qEnvironmentVariableIsEmpty("DISPLAY"))
        QFAIL("render needs an X server: run under xvfb-run");
    QTemporaryDir dir;
    const QString a = dir.filePath("a.sqlite"), b = dir.filePath("b.sqlite");
    const QStringList job{"--model", "llama3-8b", "--tp",    "8", "--pp",        "4",
                          "--dp",    "8",         "--steps", "2", "--placement", "fragmented"};
    QCOMPARE(run(QStringList{"simulate", "--preset", "small-256", "--out", a} + job).code, 0);
    QCOMPARE(run(QStringList{"simulate", "--preset", "small-256", "--set",
                             "generator.clusters[0].oversubscription=1", "--out", b} +
                 job)
                 .code,
             0);
    const QString ab = dir.filePath("ab.png"), aa = dir.filePath("aa.png");
    const QStringList common{"render",  "--run",           a,        "--at",   "1s",
                             "--title", "1:2 against 1:1", "--size", "960x540"};
    const Result r = run(common + QStringList{"--compare", b, "-o", ab});
    QVERIFY2(r.code == 0, r.err.constData());
    QVERIFY2(
        run(common + QStringList{"--compare", a, "--caption", "the same run", "-o", aa}).code == 0,
        "a run beside itself");
    const QImage x(ab), y(aa);
    QCOMPARE(x.size(), QSize(960, 540));
    // The bands as SlideFrame lays them out at 540 rows: a 30-row title, a 22-row names band.
    const QRect title(0, 0, 960, 30), nameA(0, 30, 480, 22), nameB(480, 30, 480, 22);
    QCOMPARE(band(x, title), band(y, title));  // the same title
    QCOMPARE(band(x, nameA), band(y, nameA));  // A's name the same
    QVERIFY(band(x, nameB) != band(y, nameB)); // B: "small-256 · oversubscription 1"
    // Text is drawn in each band: light pixels on the dark frame.
    auto light = [](const QImage& img) {
        int n = 0;
        for (int yy = 0; yy < img.height(); ++yy)
            for (int xx = 0; xx < img.width(); ++xx)
                n += qGray(img.pixel(xx, yy)) > 160;
        return n;
    };
    QVERIFY(light(band(x, title)) > 50 && light(band(x, nameA)) > 50 && light(band(x, nameB)) > 50);
    QVERIFY(light(band(x, QRect(0, 540 - 20, 960, 20))) > 50); // the caption
    const QString movie = dir.filePath("ab.mp4");
    const Result m = run({"movie", "--run", a, "--compare", b, "--to", "2s", "--fps", "2", "--size",
                          "640x360", "-o", movie});
    QVERIFY2(m.code == 0, m.err.constData());
    QProcess probe;
    probe.start("ffprobe",
                {"-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                 "stream=width,height,nb_read_frames", "-of", "csv=p=0", movie});
    QVERIFY(probe.waitForFinished(60000));
    QCOMPARE(QString::fromUtf8(probe.readAllStandardOutput()).trimmed(), QString("640,360,4"));
    // --compare needs the first run.
    const Result bare = run({"render", "--preset", "small-256", "--compare", b, "-o", ab});
    QCOMPARE(bare.code, 2);
    QVERIFY2(bare.err.contains("--compare"), bare.err.constData());
}

// A run on a --set variant of a preset keeps its design: frame, render and movie replay it
// without the --set, from the store alone or when given the preset as it ships.
void TestCli::aRunReopensOnItsOwnDesign() {
    if (qEnvironmentVariableIsEmpty("DISPLAY"))
        QFAIL("render needs an X server: run under xvfb-run");
    QTemporaryDir dir;
    const QString store = dir.filePath("os1.sqlite");
    const QString set = "generator.clusters[0].oversubscription=1";
    QCOMPARE(run({"simulate", "--preset", "small-256", "--set", set, "--model", "llama3-8b", "--tp",
                  "8", "--pp", "4", "--dp", "8", "--steps", "2", "--out", store})
                 .code,
             0);
    const Result withSet = run({"frame", "--preset", "small-256", "--set", set, store, "--at", "1s",
                                "--metric", "link_bytes_per_s", "--json"});
    QVERIFY2(withSet.code == 0, withSet.err.constData());
    QVERIFY(withSet.err.isEmpty());
    for (const QStringList& args :
         {QStringList{"frame", store}, QStringList{"frame", "--preset", "small-256", store}}) {
        const Result r =
            run(args + QStringList{"--at", "1s", "--metric", "link_bytes_per_s", "--json"});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY2(r.err.contains("replaying") && r.err.contains("design stored with it"),
                 r.err.constData());
        QCOMPARE(QJsonDocument::fromJson(r.out).object(),
                 QJsonDocument::fromJson(withSet.out).object());
    }
    // --set without a topology to change is refused.
    const Result bare = run({"frame", "--set", set, store, "--at", "1s"});
    QCOMPARE(bare.code, 2);
    QVERIFY2(bare.err.contains("--set"), bare.err.constData());
    const QString movie = dir.filePath("os1.mp4");
    const Result m = run(
        {"movie", "--run", store, "--to", "1s", "--fps", "2", "--size", "160x120", "-o", movie});
    QVERIFY2(m.code == 0, m.err.constData());
    QVERIFY(QFileInfo(movie).size() > 0);
    const QString png = dir.filePath("os1.png");
    QCOMPARE(run({"render", "--run", store, "--at", "1s", "--size", "160x120", "-o", png}).code, 0);
    QCOMPARE(QImage(png).size(), QSize(160, 120));
}

namespace {
// A short simulated run on small-256, written once for the movie tests.
QString movieRun(QTemporaryDir& dir) {
    const QString store = dir.filePath("run.sqlite");
    const Result r = run({"simulate", "--preset", "small-256", "--model", "llama3-8b", "--tp", "8",
                          "--pp", "4", "--dp", "8", "--steps", "2", "--out", store});
    return r.code == 0 ? store : QString();
}
} // namespace

void TestCli::movieWritesTheFramesAsked_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("codec");
    QTest::newRow("mp4") << "run.mp4"
                         << "h264";
    QTest::newRow("webm") << "run.webm"
                          << "vp9";
}

void TestCli::movieWritesTheFramesAsked() {
    if (qEnvironmentVariableIsEmpty("DISPLAY")) QFAIL("movie renders with VTK: run under xvfb-run");
    QFETCH(QString, name);
    QFETCH(QString, codec);
    QTemporaryDir dir;
    const QString store = movieRun(dir);
    QVERIFY(!store.isEmpty());
    const QString out = dir.filePath(name);
    // 1.5 s of the run at half speed and 8 fps: 3 s of movie, 24 frames.
    const Result r =
        run({"movie", "--preset", "small-256", "--run", store, "--from", "0.5s", "--to", "2s",
             "--speed", "0.5", "--fps", "8", "--size", "320x240", "--layout", "fabric", "-o", out});
    QVERIFY2(r.code == 0, r.err.constData());
    QVERIFY(r.err.contains("24 frames"));
    QProcess probe;
    probe.start("ffprobe",
                {"-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                 "stream=codec_name,width,height,nb_read_frames", "-of", "csv=p=0", out});
    QVERIFY(probe.waitForFinished(60000));
    QCOMPARE(QString::fromUtf8(probe.readAllStandardOutput()).trimmed(),
             QString("%1,320,240,24").arg(codec));
    QVERIFY(!QFileInfo::exists(out + ".partial"));
}

void TestCli::movieRefusesBadInput() {
    QTemporaryDir dir;
    const QString store = movieRun(dir);
    QVERIFY(!store.isEmpty());
    const QString out = dir.filePath("m.mp4");
    const QStringList base{"movie", "--preset", "small-256", "--run", store};
    for (const auto& [extra, says] :
         {std::pair{QStringList{"-o", dir.filePath("m.gif")}, "ending in .mp4"},
          std::pair{QStringList{"-o", out, "--size", "321x240"}, "even width and height"},
          std::pair{QStringList{"-o", out, "--from", "2s", "--to", "1s"}, "after --from"},
          std::pair{QStringList{"-o", out, "--fps", "0"}, "1 to 120"},
          std::pair{QStringList{"-o", out, "--speed", "0.000001"}, "raise --speed"},
          std::pair{QStringList{"-o", out, "--to", "2099-01-01T00:00:00Z"}, "simulated"}}) {
        const Result r = run(base + extra);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(says), r.err.constData());
    }
    QVERIFY(!QFileInfo::exists(out));
    if (qEnvironmentVariableIsEmpty("DISPLAY")) QFAIL("movie renders with VTK: run under xvfb-run");
    // Without ffmpeg on the PATH: said so, and nothing written.
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("PATH", dir.filePath("empty"));
    p.setProcessEnvironment(env);
    p.start(CS_BINARY, base + QStringList{"-o", out, "--size", "64x64"});
    QVERIFY(p.waitForFinished(60000));
    QCOMPARE(p.exitCode(), 1);
    QVERIFY2(p.readAllStandardError().contains("cannot start ffmpeg"), "no ffmpeg message");
    QVERIFY(!QFileInfo::exists(out) && !QFileInfo::exists(out + ".partial"));
}

void TestCli::frameShowsLinkLoadInBytesPerSecond_data() {
    QTest::addColumn<QStringList>("simulate");
    QTest::addColumn<QString>("preset");
    QTest::newRow("small-256, 8B")
        << QStringList{"--model", "llama3-8b", "--tp", "8", "--pp", "4", "--dp", "8"}
        << "small-256";
    QTest::newRow("meta-roce-24k, 405B")
        << QStringList{"--model", "llama3-405b", "--tp", "8", "--pp", "16", "--dp", "128"}
        << "meta-roce-24k";
}

void TestCli::frameShowsLinkLoadInBytesPerSecond() {
    QFETCH(QStringList, simulate);
    QFETCH(QString, preset);
    QTemporaryDir dir;
    const QString store = dir.filePath("run.sqlite");
    QCOMPARE(
        run(QStringList{"simulate", "--preset", preset, "--steps", "1", "--out", store} + simulate)
            .code,
        0);
    const Result r = run({"frame", "--preset", preset, store, "--at", "2.5s", "--metric",
                          "link_bytes_per_s", "--select", "link:0", "--json"});
    QCOMPARE(r.code, 0);
    const QJsonObject o = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(o["unit"].toString(), QString("B/s"));
    QCOMPARE(o["atS"].toDouble(), 2.5);
    QVERIFY(o["count"].toInt() > 0);
    QVERIFY2(o["max"].toDouble() > 1e9, r.out.constData()); // gigabytes per second, not a fraction
    QVERIFY(o["maxFractionOfCapacity"].toDouble() > 0.01);
    QVERIFY(o["maxFractionOfCapacity"].toDouble() <= 1.0 + 1e-6);
    QVERIFY(o["values"].toObject().contains("link:0"));
    // The hottest links of the step, by name, hottest first; each name selects its link.
    const Result hot = run({"frame", "--preset", preset, store, "--at", "2.5s", "--metric",
                            "link_bytes_per_s", "--hottest", "3", "--json"});
    QCOMPARE(hot.code, 0);
    const QJsonArray top = QJsonDocument::fromJson(hot.out).object()["hottest"].toArray();
    QCOMPARE(top.size(), 3);
    for (int i = 1; i < top.size(); ++i)
        QVERIFY(top[i - 1]["peakFractionOfCapacity"].toDouble() >=
                top[i]["peakFractionOfCapacity"].toDouble());
    QVERIFY(top[0]["link"].toString().contains(" -- "));
    QVERIFY(top[0]["peakFractionOfCapacity"].toDouble() >=
            o["maxFractionOfCapacity"].toDouble() - 1e-6);
    // GPU busy is the default metric; times read as people write them.
    for (const char* at : {"0s", "100ms", "1s", "2.5s"}) {
        const Result g = run({"frame", "--preset", preset, store, "--at", at, "--json"});
        QCOMPARE(g.code, 0);
        const QJsonObject f = QJsonDocument::fromJson(g.out).object();
        QCOMPARE(f["metric"].toString(), QString("gpu_busy"));
        QVERIFY(f["max"].toDouble() <= 1.0);
    }
}

void TestCli::frameRefusesBadInput_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    QTest::newRow("bad time") << QStringList{"--at", "1.2.3h"} << "--at: expected an offset";
    QTest::newRow("a date on a simulated run")
        << QStringList{"--at", "2024-06-01T00:00:30Z"} << "has no date";
    QTest::newRow("no time") << QStringList{} << "--at";
    QTest::newRow("unknown metric")
        << QStringList{"--at", "1s", "--metric", "gpu_fun"} << "gpu_busy, gpu_power_w";
    QTest::newRow("entity of another kind")
        << QStringList{"--at", "1s", "--select", "demo.pod0.rack0.host0"} << "no gpu has the id";
    QTest::newRow("metric not in the run")
        << QStringList{"--at", "1s", "--metric", "gpu_power_w"} << "holds no gpu_power_w";
}

void TestCli::frameRefusesBadInput() {
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    static QTemporaryDir dir;
    const QString store = dir.filePath("run.sqlite");
    if (!QFileInfo::exists(store))
        QCOMPARE(run({"simulate", "--preset", "small-256", "--model", "llama3-8b", "--tp", "8",
                      "--pp", "4", "--dp", "8", "--steps", "1", "--out", store})
                     .code,
                 0);
    const Result r = run(QStringList{"frame", "--preset", "small-256", store} + args);
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains(message.toUtf8()), r.err.constData());
}

void TestCli::simulateRejectsBadCombinations_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    QTest::newRow("product") << QStringList{"--gpus", "1000", "--tp", "8",
                                            "--pp",   "16",   "--dp", "128"}
                             << "is not TP x CP x PP x DP";
    QTest::newRow("too many") << QStringList{"--tp", "8",   "--pp",           "16",
                                             "--dp", "256", "--batch-tokens", "33554432"}
                              << "the topology has 24576";
    QTest::newRow("layers") << QStringList{"--tp", "8", "--pp", "12", "--dp", "64"}
                            << "do not split";
    QTest::newRow("memory") << QStringList{"--tp", "8", "--pp", "4", "--dp", "64"}
                            << "does not fit";
    QTest::newRow("model") << QStringList{"--model", "gpt-5"}
                           << "--model: expected llama3-8b, llama3-70b, llama3-405b, gpt-22b";
    QTest::newRow("span") << QStringList{"--span", "forever"} << "--span";
    QTest::newRow("range") << QStringList{"--tp", "2000"}
                           << "--tp: expected an integer from 1 to 1024, got \"2000\"";
    // The model names the option by its run-file key; the command line by its flag.
    QTest::newRow("model error") << QStringList{"--model", "llama3-8b", "--tp", "16"}
                                 << "--tp: TP must divide the attention heads";
    QTest::newRow("steps and span")
        << QStringList{"--steps", "2", "--span", "1h"} << "either --steps or --span";
}

void TestCli::simulateRejectsBadCombinations() {
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    const Result r = run(QStringList{"simulate", "--preset", "meta-roce-24k"} + args);
    QCOMPARE(r.code, 2);
    QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
}

void TestCli::simulateHelpListsEveryOption() {
    const Result r = run({"simulate", "--help"});
    QCOMPARE(r.code, 0);
    const QString out = QString::fromUtf8(r.out);
    for (const cs::RunOption& o : cs::runOptions()) {
        QVERIFY2(out.contains("  " + QString::fromStdString(o.flag) + " "), o.flag.c_str());
        QVERIFY2(out.contains("run file: " + QString::fromStdString(o.key)), o.key.c_str());
        QVERIFY2(out.contains(QString::fromStdString(o.help)), o.help.c_str());
    }
    QVERIFY(out.contains("an integer from 1 to 1024 GPUs; default 8"));
    QVERIFY(out.contains("--gpus N"));
}

void TestCli::simulateReadsRunFilesFlagsOverride() {
    QTemporaryDir dir;
    QFile f(dir.filePath("run.json"));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"format": "clusterscope-run", "version": 1, "model": "llama3-8b",
  "parallel": {"tp": 8, "pp": 4, "dp": 8}, "span": "1h"})");
    f.close();
    const Result spanned =
        run({"simulate", "--preset", "small-256", "--run", f.fileName(), "--json"});
    QCOMPARE(spanned.code, 0);
    QVERIFY2(QJsonDocument::fromJson(spanned.out).object().contains("interruptions"),
             spanned.out.constData());
    // --steps replaces the file's span; --dp 16 is more than small-256 holds.
    const Result stepped =
        run({"simulate", "--preset", "small-256", "--run", f.fileName(), "--steps", "1", "--json"});
    QCOMPARE(stepped.code, 0);
    QVERIFY(!QJsonDocument::fromJson(stepped.out).object().contains("interruptions"));
    const Result tooBig =
        run({"simulate", "--preset", "small-256", "--run", f.fileName(), "--dp", "16"});
    QCOMPARE(tooBig.code, 2);
    QVERIFY2(tooBig.err.contains("--dp: the job needs 512 GPUs"), tooBig.err.constData());
    // A bad file is named where it is wrong, by its field.
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write("{\"format\": \"clusterscope-run\", \"version\": 1, \"steps\": 1,\n"
            "  \"parallel\": {\"tp\": 2000}}");
    f.close();
    const Result bad = run({"simulate", "--preset", "small-256", "--run", f.fileName()});
    QCOMPARE(bad.code, 2);
    QVERIFY2(bad.err.contains(f.fileName().toUtf8() + ":2:22: parallel.tp: expected an integer"),
             bad.err.constData());
}

void TestCli::importReportsAndKeepsGoing() {
    QTemporaryDir dir;
    const QString store = dir.filePath("run.sqlite");
    const Result r =
        run({"import", "--preset", "small-256",
             CS_SOURCE_DIR "/tests/fixtures/telemetry/dcgm-node-snmp.prom",
             CS_SOURCE_DIR "/tests/fixtures/telemetry/long.csv", "--out", store, "--json"});
    QCOMPARE(r.code, 0);
    const QJsonObject o = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(o["rejectedLines"].toInt(), 4);
    QCOMPARE(o["unmappedSeries"].toInt(), 2);
    QVERIFY(o["unmappedByMetric"].toObject().contains("DCGM_FI_DEV_GPU_UTIL"));
    // The shipped sample imports cleanly, apart from the login node that is there on purpose.
    const Result shipped = run({"import", "--preset", "small-256",
                                CS_SOURCE_DIR "/resources/telemetry/small-256-4hosts-3m.prom",
                                "--out", dir.filePath("shipped.sqlite"), "--json"});
    QCOMPARE(shipped.code, 0);
    QCOMPARE(QJsonDocument::fromJson(shipped.out).object()["unmappedSeries"].toInt(), 1);
    // A foreign SQLite file is not written into.
    QFile foreign(dir.filePath("foreign.sqlite"));
    QVERIFY(foreign.open(QIODevice::WriteOnly));
    foreign.write("SQLite format 3");
    foreign.close();
    const Result bad =
        run({"import", "--preset", "small-256", CS_SOURCE_DIR "/tests/fixtures/telemetry/long.csv",
             "--out", foreign.fileName()});
    QCOMPARE(bad.code, 2);
}

void TestCli::frameOfARecordedRunAtADate() {
    // The shipped sample starts 2024-06-01T00:00:00Z: a date and the offset read one frame.
    QTemporaryDir dir;
    const QString store = dir.filePath("rec.sqlite");
    QCOMPARE(run({"import", "--preset", "small-256",
                  CS_SOURCE_DIR "/resources/telemetry/small-256-4hosts-3m.prom", "--out", store})
                 .code,
             0);
    const QStringList common{"frame", "--preset", "small-256",
                             store,   "--select", "demo.pod0.rack0.host0.gpu0",
                             "--json"};
    const Result byDate = run(common + QStringList{"--at", "2024-06-01T00:00:30Z"});
    const Result byOffset = run(common + QStringList{"--at", "30s"});
    QCOMPARE(byDate.code, 0);
    QCOMPARE(byDate.out, byOffset.out);
    const Result before = run(common + QStringList{"--at", "2024-05-31T23:59:00Z"});
    QCOMPARE(before.code, 2);
    QVERIFY2(before.err.contains("the run covers 2024-06-01T00:00:00"), before.err.constData());
    // render takes the same times: the picture at a date is the picture at its offset.
    const QStringList render{"render", "--preset", "small-256", "--run",
                             store,    "--size",   "320x240"};
    const QString byDatePng = dir.filePath("date.png"), byOffsetPng = dir.filePath("offset.png");
    QCOMPARE(run(render + QStringList{"--at", "2024-06-01T00:00:30Z", "-o", byDatePng}).code, 0);
    QCOMPARE(run(render + QStringList{"--at", "30s", "-o", byOffsetPng}).code, 0);
    QFile a(byDatePng), b(byOffsetPng);
    QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
    QVERIFY(a.size() > 1000);
    QVERIFY(a.readAll() == b.readAll());
    const Result late = run(render + QStringList{"--at", "2024-06-02T00:00:00Z", "-o", byDatePng});
    QCOMPARE(late.code, 2);
    QVERIFY2(late.err.contains("the run covers"), late.err.constData());
}

void TestCli::failedRunsLeaveNoStoreBehind() {
    {
        // --at places a scrape without times (RFC 3339 or Unix seconds).
        QTemporaryDir d;
        QFile scrape(d.filePath("now.prom"));
        QVERIFY(scrape.open(QIODevice::WriteOnly));
        scrape.write("DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",Hostname=\"demo.pod0.rack0.host0\"} 50\n");
        scrape.close();
        const Result r = run({"import", "--preset", "small-256", scrape.fileName(), "--at",
                              "2027-01-01T00:00:00Z", "--out", d.filePath("r.sqlite"), "--json"});
        QCOMPARE(r.code, 0);
        QCOMPARE(QJsonDocument::fromJson(r.out).object()["firstNs"].toString(),
                 QString("1798761600000000000"));
        QCOMPARE(run({"import", "--preset", "small-256", scrape.fileName(), "--at", "yesterday",
                      "--out", d.filePath("s.sqlite")})
                     .code,
                 2);
    }
    QTemporaryDir dir;
    const QString junk = dir.filePath("junk.prom"), store = dir.filePath("new.sqlite");
    QFile f(junk);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("this is not telemetry\n{{{\n");
    f.close();
    // An import that finds nothing: exit 2, and no empty store created.
    QCOMPARE(run({"import", "--preset", "small-256", junk, "--out", store}).code, 2);
    QVERIFY(!QFileInfo::exists(store));
    QVERIFY(!QFileInfo::exists(store + "-wal"));
    // A simulation refused (405B does not fit on 8 GPUs per replica): no store either.
    QCOMPARE(run({"simulate", "--preset", "small-256", "--model", "llama3-405b", "--tp", "8",
                  "--pp", "1", "--dp", "32", "--out", store})
                 .code,
             2);
    QVERIFY(!QFileInfo::exists(store));
    // Nor past the memory budget, which names its flag.
    const Result budget =
        run({"simulate", "--preset", "small-256", "--model", "llama3-8b", "--tp", "8", "--pp", "4",
             "--dp", "8", "--memory-budget", "0.00001", "--out", store});
    QCOMPARE(budget.code, 2);
    QVERIFY2(budget.err.contains("--memory-budget") && budget.err.contains("needs about"),
             budget.err.constData());
    QVERIFY(!QFileInfo::exists(store));
    // A store that existed keeps its runs when a later import into it fails.
    QCOMPARE(run({"import", "--preset", "small-256",
                  CS_SOURCE_DIR "/tests/fixtures/telemetry/long.csv", "--out", store})
                 .code,
             0);
    QCOMPARE(run({"import", "--preset", "small-256", junk, "--out", store}).code, 2);
    QVERIFY(QFileInfo::exists(store));
    QCOMPARE(cs::RunStore::openForReading(store).runs().size(), size_t(1));
}

void TestCli::smallFilesNeedLittleMemory() {
    // A 220 KB topology loads with 500 MB of address space (the program's libraries take
    // most of it): reads are sized by the file, not by the limit on files.
    QTemporaryDir dir;
    const QString file = dir.filePath("small.json");
    QCOMPARE(run({"export", "--preset", "small-256", "-o", file}).code, 0);
    QProcess p;
    p.start("bash", {"-c", QString("ulimit -v 500000; exec '%1' stats '%2'").arg(CS_BINARY, file)});
    QVERIFY(p.waitForFinished(60000));
    QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
    QVERIFY(p.readAllStandardOutput().contains("small-256"));
    // A run file over its limit is refused by name, not read in part.
    QFile big(dir.filePath("big.json"));
    QVERIFY(big.open(QIODevice::WriteOnly));
    big.write(QByteArray(2 * 1024 * 1024, ' '));
    big.close();
    const Result r = run({"simulate", "--preset", "small-256", "--run", big.fileName()});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("big.json") && r.err.contains("at most"), r.err.constData());
}

void TestCli::killedImportLeavesTheStoreAsItWas() {
    QTemporaryDir dir;
    const QString store = dir.filePath("run.sqlite"), big = dir.filePath("big.prom");
    QCOMPARE(run({"import", "--preset", "small-256",
                  CS_SOURCE_DIR "/tests/fixtures/telemetry/long.csv", "--out", store})
                 .code,
             0);
    QCOMPARE(run({"generate-telemetry", "--preset", "small-256", "--duration", "8m", "--interval",
                  "1s", "-o", big})
                 .code,
             0);
    for (int delayMs : {150, 600, 850, 950, 1050, 2000}) { // parsing, writing, done (~1.2 s in all)
        QProcess p;
        p.start(CS_BINARY, {"import", "--preset", "small-256", big, "--out", store});
        QVERIFY(p.waitForStarted());
        QTest::qWait(delayMs);
        p.kill(); // SIGKILL: no chance to clean up
        p.waitForFinished();
        {
            const cs::RunStore s = cs::RunStore::openForReading(store);
            QVERIFY(s.quickCheckOk());
            const auto runs = s.runs();
            // Either untouched, or (if the import had already committed) the whole new run.
            for (size_t i = 1; i < runs.size(); ++i)
                QVERIFY(runs[i].summaryJson.find("\"samples\"") != std::string::npos);
            QVERIFY(!runs.empty());
        }
        // The next writer folds whatever log the killed one left into the file at once.
        const cs::RunStore again = cs::RunStore::openForWriting(store);
        QCOMPARE(QFileInfo(store + "-wal").size(), 0);
    }
}

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
