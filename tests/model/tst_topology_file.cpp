// The native file format: exact round trips of both forms, and a table of malformed files,
// each rejected with the file, line, column and field that is wrong.
#include "ExplicitTopologyJson.h"
#include "Presets.h"
#include "SiteGenerator.h"
#include "TopologyFile.h"

#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace cs;

namespace {

// A small but complete explicit file; `patch` replaces one marker line to break it.
QByteArray explicitFile(const QByteArray& linkLine =
                            R"({"a": "h0.gpu0", "b": "h0.be0", "medium": "pcie", "gbps": 512})") {
    return QByteArray(R"({
  "format": "clusterscope-topology",
  "version": 1,
  "name": "tiny",
  "explicit": {
    "clusters": [{"id": "c", "fabric": "roce"}],
    "pods": [{"id": "c.pod0", "cluster": "c"}],
    "rows": [{"id": "row0", "cluster": "c", "pod": "c.pod0"}],
    "racks": [{"id": "rack0", "row": "row0", "role": "compute"}],
    "hosts": [{"id": "h0", "rack": "rack0", "gpus": 2, "cpus": 2}],
    "nics": [{"id": "h0.be0", "host": "h0", "gpu": 0, "role": "backend", "gbps": 400}],
    "switches": [{"id": "rack0.rtsw", "role": "rtsw", "rack": "rack0", "ports": 64}],
    "storage": [],
    "links": [
      )") + linkLine +
           R"(
    ]
  }
}
)";
}

QByteArray generatorFile(const QByteArray& clusterFields) {
    return QByteArray(R"({
  "format": "clusterscope-topology",
  "version": 1,
  "name": "gen",
  "generator": {
    "clusters": [
      {
        "name": "demo",
        )") +
           clusterFields + R"(
      }
    ]
  }
}
)";
}

} // namespace

class TestTopologyFile : public QObject {
    Q_OBJECT
private slots:
    void explicitRoundTripIsExact_data();
    void explicitRoundTripIsExact();
    void paramsRoundTripIsExact_data();
    void paramsRoundTripIsExact();
    void smallExplicitFileLoads();
    void malformedFilesNameThePlace_data();
    void malformedFilesNameThePlace();
    void limitsBoundWhatIsRead();
    void saveIsAtomic();
    void shippedExamplesLoad();
};

void TestTopologyFile::explicitRoundTripIsExact_data() {
    QTest::addColumn<QString>("preset");
    QTest::newRow("small-256") << "small-256";
    QTest::newRow("small-ib-256") << "small-ib-256";
    QTest::newRow("meta-roce-24k") << "meta-roce-24k";
    // NVL72 racks: the NVLink domains come back from the switch trays' links.
    QTest::newRow("gb200-nvl72-su") << "gb200-nvl72-su";
}

void TestTopologyFile::explicitRoundTripIsExact() {
    QFETCH(QString, preset);
    const Topology t = generatePreset(preset.toStdString());
    const QByteArray text = explicitTopologyDocument(t);
    const LoadedTopology back = parseTopologyText(text, "roundtrip.json");
    QVERIFY(!back.params);
    QVERIFY(back.topology == t);
    QCOMPARE(explicitTopologyDocument(back.topology), text);
}

void TestTopologyFile::paramsRoundTripIsExact_data() {
    QTest::addColumn<QString>("preset");
    for (const PresetInfo& p : presets())
        QTest::newRow(p.name.c_str()) << QString::fromStdString(p.name);
}

void TestTopologyFile::paramsRoundTripIsExact() {
    QFETCH(QString, preset);
    const SiteParams p = *presetParams(preset.toStdString());
    const Topology generated = generatePreset(preset.toStdString());
    QVERIFY(!generated.description.empty()); // the preset's own words
    const QByteArray text = paramsTopologyDocument(preset.toStdString(), p, generated.description);
    const LoadedTopology back = parseTopologyText(text, "params.json");
    QVERIFY(back.params.has_value());
    QVERIFY(*back.params == p);
    QCOMPARE(back.topology.description, generated.description);
    QCOMPARE(paramsTopologyDocument(preset.toStdString(), *back.params, back.topology.description),
             text);
    QVERIFY(back.topology == generated);
}

void TestTopologyFile::smallExplicitFileLoads() {
    const LoadedTopology t = parseTopologyText(explicitFile(), "tiny.json");
    QCOMPARE(t.topology.gpus.size(), size_t(2));
    QCOMPARE(t.topology.links.size(), size_t(1));
    QCOMPARE(t.topology.links[0].a, (Endpoint{EntityKind::Gpu, 0}));
    QCOMPARE(t.topology.links[0].b, (Endpoint{EntityKind::Nic, 0}));
    QCOMPARE(t.topology.nics[0].gpu, 0);
    QCOMPARE(t.topology.name, std::string("tiny"));
}

void TestTopologyFile::malformedFilesNameThePlace_data() {
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<int>("line");
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("message");
    const QByteArray good = explicitFile();
    QByteArray syntax = good;
    syntax.replace(R"("version": 1,)", R"("version": 1)");
    QTest::newRow("bad syntax") << syntax << 4 << ""
                                << "not valid JSON";
    // JSON that is no format read: what it looks like, and the formats that are read.
    QTest::newRow("not an object")
        << QByteArray("[1, 2]\n") << 1 << ""
        << "it starts with \"[1, 2]\". Read are: ClusterScope topology JSON";
    QByteArray foreign = good;
    foreign.replace("clusterscope-topology", "infragraph");
    QTest::newRow("foreign format") << foreign << 2 << "format"
                                    << "not a ClusterScope topology";
    QByteArray newer = good;
    newer.replace(R"("version": 1,)", R"("version": 7,)");
    QTest::newRow("newer version") << newer << 3 << "version"
                                   << "newer than this build";
    QTest::newRow("dangling endpoint")
        << explicitFile(R"({"a": "h0.gpu0", "b": "h9.be0", "medium": "pcie", "gbps": 512})") << 15
        << "explicit.links[0].b"
        << "no entity has the id \"h9.be0\"";
    QTest::newRow("gpu out of host")
        << explicitFile(R"({"a": "h0.gpu7", "b": "h0.be0", "medium": "pcie", "gbps": 512})") << 15
        << "explicit.links[0].a"
        << "no entity has the id";
    QTest::newRow("endpoint is a rack")
        << explicitFile(R"({"a": "rack0", "b": "h0.be0", "medium": "pcie", "gbps": 512})") << 15
        << "explicit.links[0].a"
        << "is a rack";
    QTest::newRow("wrong type")
        << explicitFile(R"({"a": "h0.gpu0", "b": "h0.be0", "medium": "pcie", "gbps": "fast"})")
        << 15 << "explicit.links[0].gbps"
        << "expected a number";
    QTest::newRow("bad enum")
        << explicitFile(R"({"a": "h0.gpu0", "b": "h0.be0", "medium": "pigeon", "gbps": 1})") << 15
        << "explicit.links[0].medium"
        << "nvlink | pcie";
    QTest::newRow("self link")
        << explicitFile(R"({"a": "h0.gpu0", "b": "h0.gpu0", "medium": "pcie", "gbps": 1})") << 15
        << "explicit.links[0].b"
        << "two different";
    QTest::newRow("unknown field")
        << explicitFile(
               R"({"a": "h0.gpu0", "b": "h0.be0", "medium": "pcie", "gbps": 1, "colour": 3})")
        << 15 << "explicit.links[0].colour"
        << "unknown field";
    QByteArray dup = good;
    dup.replace(R"("id": "rack0.rtsw")", R"("id": "h0")");
    QTest::newRow("duplicate id") << dup << 12 << "explicit.switches[0].id"
                                  << "duplicate id \"h0\"";
    QByteArray absurd = good;
    absurd.replace(R"("gpus": 2)", R"("gpus": 1000000000)");
    QTest::newRow("absurd gpus per host") << absurd << 10 << "explicit.hosts[0].gpus"
                                          << "from 0 to 16";
    QByteArray missing = good;
    missing.replace(R"("row": "row0", )", "");
    QTest::newRow("missing field") << missing << 9 << "explicit.racks[0].row"
                                   << "required";
    QTest::newRow("generator wrong type")
        << generatorFile(R"("pods": "eight")") << 9 << "generator.clusters[0].pods"
        << "expected an integer";
    QTest::newRow("generator absurd size") << generatorFile(R"("pods": 4096, "racksPerPod": 60000)")
                                           << 9 << "generator.clusters[0].pods"
                                           << "at most 2000000";
    QTest::newRow("generator radix")
        << generatorFile(R"("pods": 2, "leafRadix": 8)") << 9 << "generator.clusters[0].leafRadix"
        << "needs 32 ports";
    QTest::newRow("generator unknown field")
        << generatorFile(R"("podz": 2)") << 9 << "generator.clusters[0].podz"
        << "unknown field";
    QByteArray both = good;
    both.replace(R"("explicit": {)", R"("generator": {}, "explicit": {)");
    QTest::newRow("both forms") << both << 1 << ""
                                << "exactly one of";
}

void TestTopologyFile::malformedFilesNameThePlace() {
    QFETCH(QByteArray, text);
    QFETCH(int, line);
    QFETCH(QString, field);
    QFETCH(QString, message);
    try {
        parseTopologyText(text, "bad.json");
        QFAIL("expected an InputException");
    } catch (const InputException& e) {
        const QString what = QString::fromUtf8(e.what());
        QVERIFY2(what.contains(message), qPrintable(what));
        QCOMPARE(QString::fromStdString(e.error().file), QString("bad.json"));
        QCOMPARE(e.error().line, line);
        QVERIFY2(e.error().column > 0, qPrintable(what));
        QCOMPARE(QString::fromStdString(e.error().field), field);
        QVERIFY(what.startsWith(QString("bad.json:%1:").arg(line)));
    }
}

void TestTopologyFile::limitsBoundWhatIsRead() {
    ExplicitLimits small;
    small.links = 0;
    const QJsonDocument doc = QJsonDocument::fromJson(explicitFile());
    Topology t;
    try {
        explicitTopologyFromJson(doc.object().value("explicit"), JsonPath().child("explicit"), t,
                                 small);
        QFAIL("expected a JsonFieldError");
    } catch (const JsonFieldError& e) {
        QCOMPARE(QString::fromStdString(e.path().toString()), QString("explicit.links"));
        QVERIFY(QString(e.what()).contains("at most 0 entries"));
    }
    QByteArray huge(int(kMaxTopologyFileBytes) + 1, ' ');
    QVERIFY_THROWS_EXCEPTION(InputException, parseTopologyText(huge, "huge.json"));
    // Parameters asking for more GPUs than the reader allows are refused before generating.
    const QByteArray params = R"({"format": "clusterscope-topology", "version": 1, "generator":
        {"name": "s", "clusters": [{"name": "c", "pods": 2, "racksPerPod": 2,
                                    "hostsPerRack": 2, "gpusPerHost": 8}]}})";
    QCOMPARE(parseTopologyText(params, "p.json", 64).topology.gpus.size(), size_t(64));
    try {
        parseTopologyText(params, "p.json", 63);
        QFAIL("64 GPUs read with a limit of 63");
    } catch (const InputException& e) {
        QCOMPARE(QString::fromStdString(e.error().field), QString("generator.clusters"));
        QVERIFY2(QString(e.what()).contains("64 GPUs; at most 63"), e.what());
    }
}

void TestTopologyFile::saveIsAtomic() {
    QTemporaryDir dir;
    const QString path = dir.filePath("t.json");
    writeFileAtomically(path, explicitFile());
    // Writing into a directory that does not exist fails and leaves nothing behind.
    QVERIFY_THROWS_EXCEPTION(std::runtime_error,
                             writeFileAtomically(dir.filePath("no/such/dir/t.json"), "x"));
    const LoadedTopology back = loadTopologyFile(path);
    QCOMPARE(back.topology.hosts.size(), size_t(1));
    try {
        loadTopologyFile(dir.filePath("missing.json"));
        QFAIL("expected an InputException");
    } catch (const InputException& e) {
        QVERIFY(QString(e.what()).contains("missing.json"));
        QVERIFY(QString(e.what()).contains("cannot open"));
    }
}

void TestTopologyFile::shippedExamplesLoad() {
    const LoadedTopology t = loadTopologyFile(CS_SOURCE_DIR "/resources/examples/custom-clos.json");
    QVERIFY(t.params.has_value());
    QCOMPARE(t.topology.gpus.size(), size_t(4 * 32 * 2 * 8));
    QCOMPARE(t.topology.name, std::string("custom-clos-2k"));
}

QTEST_APPLESS_MAIN(TestTopologyFile)
#include "tst_topology_file.moc"
