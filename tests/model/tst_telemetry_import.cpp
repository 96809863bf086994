// Importers on real-looking fixtures (tests/fixtures/telemetry): formats, malformed lines,
// counters that reset or wrap, DCGM sentinels, unmapped hosts, the mapping file.
#include "FrameValues.h"
#include "RunReader.h"
#include "SeriesMapping.h"
#include "TelemetryGenerator.h"
#include "TelemetryImporter.h"
#include "TelemetryParsers.h"

#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <QTimeZone>

#include <algorithm>
#include <cmath>
#include <tuple>

using namespace cs;

namespace {
const QString kFixtures = QStringLiteral(CS_SOURCE_DIR "/tests/fixtures/telemetry/");

struct Imported {
    ImportReport report;
    std::unique_ptr<RunReader> reader;
};

Imported importFiles(const TopologyDocument& doc, const QStringList& files, const QString& dir,
                     const QString& map = {}) {
    ImportOptions o;
    o.mapFile = map;
    RunStore w = RunStore::openForWriting(dir + "/run.sqlite");
    Imported out;
    out.report = importTelemetry(doc, files, o, w);
    out.reader = std::make_unique<RunReader>(dir + "/run.sqlite", doc.topology());
    return out;
}

float frameValue(RunReader& r, const char* metric, int64_t tsNs, size_t index) {
    const auto m = metricByName(metric);
    if (!m || !r.has(*m)) return -1;
    const std::vector<float> f = r.frame(*m, tsNs);
    return index < f.size() ? f[index] : -1;
}

int32_t linkOfNic(const TopologyDocument& doc, const char* nic) {
    for (int32_t l : doc.index().linksOf(*doc.index().find(nic)))
        if (doc.topology().links[size_t(l)].medium != LinkMedium::Pcie) return l;
    return -1;
}
} // namespace

class TestTelemetryImport : public QObject {
    Q_OBJECT
private slots:
    void jobLabelsNameTheJobs_data();
    void jobLabelsNameTheJobs();
    void initTestCase() { doc_ = openTopology("small-256", {}); }
    void singleCounterScrapeHasNoRate();
    void detectsFormats_data();
    void detectsFormats();
    void prometheusText();
    void mappingFileMapsOtherNames();
    void switchPortsMatchByFullName();
    void mappingFileNamesLabelsUuidsDevicesAndPatterns();
    void openMetricsSecondsAndEof();
    void longOpenMetricsIsDetectedByItsEnd();
    void openMetricsExemplarsAreAccepted();
    void promJsonRangeQuery();
    void promJsonReadsAsEventsWhatADocumentReads_data();
    void promJsonReadsAsEventsWhatADocumentReads();
    void longCsv();
    void nvidiaSmiWideCsv();
    void realNvidiaSmiCaptureLandsOnItsHost();
    void rawScrapeLandsOnTheHostItsFileIsNamedAfter();
    void nicCountersLandOnTheirOwnCable();
    void untimedScrapesAndDuplicatesAreSaid();
    void migInstancesCombineOnTheirGpu();
    void countersToRatesHandlesResetsAndWraps();
    void generatedTelemetryImportsWhole();
    void nothingToImportIsAnError();
    void timesOutsideTheEpochAreRefused_data();
    void timesOutsideTheEpochAreRefused();
    void dcgmFieldsLandInTheCatalogueUnits();
    void mappingFileErrorsAreLocated_data();
    void mappingFileErrorsAreLocated();
    void impossibleValuesAreDroppedAndSaid();
    void impossibleValuesInsideATickAreCounted();

private:
    std::unique_ptr<TopologyDocument> doc_;
};

void TestTelemetryImport::detectsFormats_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("format");
    QTest::newRow("prometheus") << "dcgm-node-snmp.prom" << int(TelemetryFormat::Prometheus);
    QTest::newRow("openmetrics") << "dcgm.openmetrics" << int(TelemetryFormat::OpenMetrics);
    QTest::newRow("json") << "range-query.json" << int(TelemetryFormat::PromJson);
    QTest::newRow("csv") << "long.csv" << int(TelemetryFormat::Csv);
    QTest::newRow("nvidia-smi") << "demo.pod0.rack1.host0.csv"
                                << int(TelemetryFormat::NvidiaSmiCsv);
}

void TestTelemetryImport::detectsFormats() {
    QFETCH(QString, file);
    QFETCH(int, format);
    QFile f(kFixtures + file);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(int(detectFormat(f.readAll())), format);
}

// One scrape of a counter is one sample: no rate. Alone, the import refuses and says so;
// beside a gauge, the gauge imports and the report warns of the counter.
void TestTelemetryImport::singleCounterScrapeHasNoRate() {
    QTemporaryDir dir;
    const QByteArray counter =
        "# TYPE node_infiniband_port_data_transmitted_bytes_total counter\n"
        "node_infiniband_port_data_transmitted_bytes_total{device=\"mlx5_3\","
        "instance=\"demo.pod0.rack0.host0:9100\",port=\"1\"} 1000000000000 1717200000000\n";
    const QByteArray gauge =
        "# TYPE DCGM_FI_DEV_GPU_UTIL gauge\n"
        "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",Hostname=\"demo.pod0.rack0.host0\"} 97 1717200000000\n";
    auto write = [&](const char* name, const QByteArray& text) {
        QFile f(dir.filePath(name));
        f.open(QIODevice::WriteOnly);
        f.write(text);
        return f.fileName();
    };
    const QString alone = write("counter.prom", counter);
    try {
        RunStore w = RunStore::openForWriting(dir.filePath("a.sqlite"));
        importTelemetry(*doc_, {alone}, {}, w);
        QFAIL("imported a rate from one sample");
    } catch (const InputException& e) {
        QVERIFY2(
            QString(e.what()).contains("counters read once have no rate") &&
                QString(e.what()).contains("node_infiniband_port_data_transmitted_bytes_total"),
            e.what());
        QVERIFY(QString(e.what()).contains("counter.prom"));
    }
    const QString both = write("both.prom", gauge + counter);
    const Imported r = importFiles(*doc_, {both}, dir.path());
    QVERIFY(r.reader->has(Metric::GpuBusy));
    bool warned = false;
    for (const std::string& w : r.report.warnings)
        warned |= QString::fromStdString(w).contains("counters read once have no rate");
    QVERIFY(warned);
}

void TestTelemetryImport::prometheusText() {
    QTemporaryDir dir;
    const Imported r = importFiles(*doc_, {kFixtures + "dcgm-node-snmp.prom"}, dir.path());
    const ImportReport& rep = r.report;
    QCOMPARE(rep.rejectedCount, 2LL); // a value that is no number, an unterminated label
    QCOMPARE(rep.rejected[0].line, 13LL);
    QVERIFY(QString::fromStdString(rep.rejected[0].reason).contains("number"));
    QCOMPARE(rep.rejected[1].line, 14LL);
    QCOMPARE(rep.missingValues, 2LL);  // the two DCGM sentinels
    QCOMPARE(rep.unmappedSeries, 2LL); // gpu-node-17 (no map given) and login-node-1
    QCOMPARE(rep.unmappedByMetric.at("DCGM_FI_DEV_GPU_UTIL"), 2LL);
    QCOMPARE(rep.unmappedWhy.at("DCGM_FI_DEV_GPU_UTIL").begin()->first,
             std::string("no host label names a host of the topology (a mapping file can rename "
                         "them)"));
    QCOMPARE(rep.tickNs, 15'000'000'000LL);
    const int32_t gpu0 = doc_->index().find("demo.pod0.rack0.host0.gpu0")->index;
    QCOMPARE(frameValue(*r.reader, "gpu_busy", 0, size_t(gpu0)), 0.97f);
    QCOMPARE(frameValue(*r.reader, "gpu_busy", 15'000'000'000, size_t(gpu0)), 0.12f);
    // Sentinels are no data: never a value of 9.2e18 or 1.4e14 degrees. The temperature
    // reported nothing else, so the run holds no temperature at all (its metrics are what it
    // holds), rather than a metric of missing values.
    QVERIFY(!r.reader->has(Metric::GpuTemperatureC));
    QVERIFY(r.reader->has(Metric::GpuBusy));
    // The NIC counter: 450 GB in 15 s, then a reset (the host rebooted).
    const int32_t nicLink = linkOfNic(*doc_, "demo.pod0.rack0.host0.be3");
    QCOMPARE(frameValue(*r.reader, "link_bytes_per_s", 15'000'000'000, size_t(nicLink)), 30e9f);
    QCOMPARE(frameValue(*r.reader, "link_bytes_per_s", 30'000'000'000, size_t(nicLink)), 20e9f);
    // The switch port's 32-bit counter wrapped: 967,296 + 1,000,000 bytes in 15 s.
    const Endpoint rtsw = *doc_->index().find("demo.pod0.rack0.rtsw");
    int32_t uplink = -1;
    for (int32_t l : doc_->index().linksOf(rtsw)) {
        const Link& k = doc_->topology().links[size_t(l)];
        if ((k.a == rtsw && k.portA == 17) || (k.b == rtsw && k.portB == 17)) uplink = l;
    }
    QCOMPARE(frameValue(*r.reader, "link_bytes_per_s", 15'000'000'000, size_t(uplink)),
             float(1967296.0 / 15));
    // Frames for the views: utilisation of capacity.
    const FrameValues v = fractionsOfCapacity(r.reader->frameAt(15'000'000'000), doc_->topology());
    QCOMPARE(v.link[size_t(nicLink)], 30e9f / 50e9f);
}

void TestTelemetryImport::mappingFileMapsOtherNames() {
    QTemporaryDir dir;
    const Imported r = importFiles(*doc_, {kFixtures + "dcgm-node-snmp.prom"}, dir.path(),
                                   kFixtures + "names.map.json");
    QCOMPARE(r.report.unmappedSeries, 1LL); // only the login node is left
    const int32_t gpu = doc_->index().find("demo.pod1.rack5.host0.gpu0")->index;
    QCOMPARE(frameValue(*r.reader, "gpu_busy", 0, size_t(gpu)), 0.88f);
    // A mapping file that is no JSON names its place.
    QFile bad(dir.filePath("bad.json"));
    QVERIFY(bad.open(QIODevice::WriteOnly));
    bad.write("{\"names\": {\"a\": 3}}");
    bad.close();
    RunStore w = RunStore::openForWriting(dir.filePath("other.sqlite"));
    ImportOptions o;
    o.mapFile = bad.fileName();
    try {
        importTelemetry(*doc_, {kFixtures + "dcgm-node-snmp.prom"}, o, w);
        QFAIL("expected an InputException");
    } catch (const InputException& e) {
        QCOMPARE(QString::fromStdString(e.error().field), QString("names.a"));
        QCOMPARE(e.error().line, 1);
    }
}

void TestTelemetryImport::switchPortsMatchByFullName() {
    // Four interfaces that all end in 17: only "Ethernet17" is port 17 by its name; a
    // breakout port ("Ethernet1/17") needs the mapping file's ports; "Management17" is none.
    const Topology& t = doc_->topology();
    const Endpoint sw = *doc_->index().find("demo.pod0.rack0.rtsw");
    int32_t on17 = -1, onOther = -1, other = -1;
    for (int32_t l : doc_->index().linksOf(sw)) {
        const Link& k = t.links[size_t(l)];
        const int port = k.a == sw ? k.portA : k.portB;
        if (port == 17)
            on17 = l;
        else if (other < 0 && port > 0)
            other = port, onOther = l;
    }
    QVERIFY(on17 >= 0 && onOther >= 0);
    QTemporaryDir dir;
    const QString path = dir.filePath("snmp.prom");
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    for (const char* name : {"Ethernet17", "Ethernet1/17", "Ethernet2/17", "Management17"})
        for (int k = 0; k < 2; ++k)
            f.write(
                QString("ifHCOutOctets{ifName=\"%1\",instance=\"demo.pod0.rack0.rtsw\"} %2 %3\n")
                    .arg(name)
                    .arg(1e9 + k * 15e9, 0, 'f', 0)
                    .arg(1717200000000LL + k * 15000)
                    .toUtf8());
    f.close();
    const Imported plain = importFiles(*doc_, {path}, dir.path());
    QCOMPARE(plain.report.mappedSeries, 1LL);
    QCOMPARE(plain.report.unmappedSeries, 3LL);
    QCOMPARE(frameValue(*plain.reader, "link_bytes_per_s", 15'000'000'000, size_t(on17)), 1e9f);
    // With the breakout port named in the mapping file, it lands on its own port.
    QTemporaryDir dir2;
    QFile map(dir2.filePath("ports.json"));
    QVERIFY(map.open(QIODevice::WriteOnly));
    map.write(QString("{\"ports\": {\"Ethernet1/17\": %1}}").arg(other).toUtf8());
    map.close();
    const Imported mapped = importFiles(*doc_, {path}, dir2.path(), map.fileName());
    QCOMPARE(mapped.report.mappedSeries, 2LL);
    QCOMPARE(frameValue(*mapped.reader, "link_bytes_per_s", 15'000'000'000, size_t(onOther)), 1e9f);
    // A port that is no number is refused with its place.
    QVERIFY(map.open(QIODevice::WriteOnly | QIODevice::Truncate));
    map.write("{\"ports\": {\"Ethernet1/17\": \"two\"}}");
    map.close();
    RunStore w = RunStore::openForWriting(dir2.filePath("other.sqlite"));
    ImportOptions o;
    o.mapFile = map.fileName();
    try {
        importTelemetry(*doc_, {path}, o, w);
        QFAIL("expected an InputException");
    } catch (const InputException& e) {
        QCOMPARE(QString::fromStdString(e.error().field), QString("ports.Ethernet1/17"));
        QCOMPARE(e.error().line, 1);
    }
}

void TestTelemetryImport::mappingFileNamesLabelsUuidsDevicesAndPatterns() {
    QTemporaryDir dir;
    auto write = [&](const QString& name, const QByteArray& text) {
        QFile f(dir.filePath(name));
        if (f.open(QIODevice::WriteOnly)) f.write(text);
        return f.fileName();
    };
    const QString scrape =
        write("s.prom",
              // The exporter's address in instance, the node in `node` (a pattern renames it).
              "DCGM_FI_DEV_GPU_UTIL{gpu=\"1\",instance=\"10.0.0.5:9400\",node=\"gpu-node-1\"} 70 "
              "1717200000000\n"
              // Two host labels that disagree: the default order takes Hostname.
              "DCGM_FI_DEV_GPU_UTIL{gpu=\"2\",Hostname=\"demo.pod0.rack0.host0\","
              "node=\"demo.pod0.rack0.host1\"} 20 1717200000000\n"
              // A GPU by its UUID.
              "DCGM_FI_DEV_POWER_USAGE{gpu=\"0\",UUID=\"GPU-1234\",Hostname=\"elsewhere\"} 500 "
              "1717200000000\n"
              // An HCA whose number is not its rail.
              "node_infiniband_port_data_received_bytes_total{device=\"mlx5_9\",port=\"1\","
              "instance=\"demo.pod0.rack0.host0:9100\"} 0 1717200000000\n"
              "node_infiniband_port_data_received_bytes_total{device=\"mlx5_9\",port=\"1\","
              "instance=\"demo.pod0.rack0.host0:9100\"} 30000000000 1717200015000\n");
    const QString map =
        write("map.json", R"json({"patterns": [["gpu-node-(\\d+)", "demo.pod0.rack0.host\\1"]],
 "uuids": {"GPU-1234": "demo.pod0.rack0.host0.gpu5"}, "devices": {"mlx5_9": 2}})json");
    const Imported r = importFiles(*doc_, {scrape}, dir.path(), map);
    QCOMPARE(r.report.unmappedSeries, 0LL);
    auto gpu = [&](const char* id) { return size_t(doc_->index().find(id)->index); };
    QCOMPARE(frameValue(*r.reader, "gpu_busy", 0, gpu("demo.pod0.rack0.host1.gpu1")), 0.7f);
    QCOMPARE(frameValue(*r.reader, "gpu_busy", 0, gpu("demo.pod0.rack0.host0.gpu2")), 0.2f);
    QCOMPARE(frameValue(*r.reader, "gpu_power_w", 0, gpu("demo.pod0.rack0.host0.gpu5")), 500.f);
    const auto be2 = size_t(linkOfNic(*doc_, "demo.pod0.rack0.host0.be2"));
    QCOMPARE(frameValue(*r.reader, "link_bytes_per_s", 15'000'000'000, be2), 2e9f);
    // hostLabel: that label, and only it.
    QTemporaryDir dir2;
    const QString byNode = write("node.json", R"({"hostLabel": "node"})");
    const Imported n = importFiles(*doc_, {scrape}, dir2.path(), byNode);
    QCOMPARE(frameValue(*n.reader, "gpu_busy", 0, gpu("demo.pod0.rack0.host1.gpu2")), 0.2f);
    QVERIFY(std::isnan(frameValue(*n.reader, "gpu_busy", 0, gpu("demo.pod0.rack0.host0.gpu2"))));
    // Each field checked, with its place.
    const struct {
        const char* text;
        const char* field;
    } bad[] = {{R"({"patterns": [["(", "x"]]})", "patterns[0]"},
               {R"({"devices": {"mlx5_9": -1}})", "devices.mlx5_9"},
               {R"({"uuids": {"GPU-1": 5}})", "uuids.GPU-1"},
               {R"({"hostLabel": 3})", "hostLabel"},
               {R"({"nmes": {}})", "nmes"}};
    for (const auto& b : bad) {
        ImportOptions o;
        o.mapFile = write("bad.json", b.text);
        RunStore w = RunStore::openForWriting(dir2.filePath("bad.sqlite"));
        try {
            importTelemetry(*doc_, {scrape}, o, w);
            QFAIL(b.text);
        } catch (const InputException& e) {
            QCOMPARE(QString::fromStdString(e.error().field), QString(b.field));
            QCOMPARE(e.error().line, 1);
        }
    }
}

void TestTelemetryImport::openMetricsSecondsAndEof() {
    QTemporaryDir dir;
    const Imported r = importFiles(*doc_, {kFixtures + "dcgm.openmetrics"}, dir.path());
    QCOMPARE(r.report.samples, 4LL); // what follows "# EOF" is not read
    QCOMPARE(r.report.tickNs, 10'000'000'000LL);
    const int32_t gpu = doc_->index().find("demo.pod1.rack3.host1.gpu2")->index;
    // No DCGM_FI_DEV_GPU_UTIL here: engine activity stands for busy.
    QCOMPARE(frameValue(*r.reader, "gpu_busy", 0, size_t(gpu)), 0.91f);
    QCOMPARE(frameValue(*r.reader, "gpu_busy", 10'000'000'000, size_t(gpu)), 0.42f);
    const int32_t nicLink = linkOfNic(*doc_, "demo.pod1.rack3.host1.be2");
    QCOMPARE(frameValue(*r.reader, "link_bytes_per_s", 10'000'000'000, size_t(nicLink)), 25e9f);
}

void TestTelemetryImport::longOpenMetricsIsDetectedByItsEnd() {
    // A 600 s OpenMetrics capture of about 1 MB, "# EOF" on its last line only: read as
    // seconds (600 s), not as Prometheus milliseconds (0.6 s).
    QTemporaryDir dir;
    const QString path = dir.filePath("long.om");
    QByteArray text = "# TYPE DCGM_FI_DEV_GPU_UTIL gauge\n";
    for (int k = 0; k <= 1200; ++k) // every half second, in seconds as OpenMetrics has them
        for (int g = 0; g < 8; ++g)
            text += QByteArray("DCGM_FI_DEV_GPU_UTIL{gpu=\"") + QByteArray::number(g) +
                    "\",Hostname=\"demo.pod0.rack0.host0\"} 50 " +
                    QByteArray::number(1717200000 + k / 2) + (k % 2 ? ".5" : "") + "\n";
    text += "# EOF\n";
    QVERIFY(text.size() > 700'000);
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
    f.close();
    QCOMPARE(int(detectFormat(text)), int(TelemetryFormat::OpenMetrics));
    const Imported r = importFiles(*doc_, {path}, dir.path());
    QCOMPARE(r.report.lastNs - r.report.firstNs, 600'000'000'000LL);
}

void TestTelemetryImport::openMetricsExemplarsAreAccepted() {
    // The exposition format allows an exemplar after a sample (OpenMetrics 1.0, "Exemplars").
    const QByteArray text = "# TYPE foo counter\n"
                            "foo_total 17.0 1520879607.789 # {trace_id=\"KOO5S4vxi0o\"} 0.67\n"
                            "foo_total 18.0 # {trace_id=\"oHg5SJYRHA0\"} 9.8 1520879607.789\n"
                            "# EOF\n";
    std::vector<RawSample> samples;
    std::vector<RejectedLine> rejected;
    std::vector<std::string> counters;
    parseExposition(
        text, true, "t", {}, [&](RawSample&& s) { samples.push_back(std::move(s)); }, rejected,
        counters);
    QVERIFY(rejected.empty());
    QCOMPARE(samples.size(), size_t(2));
    QCOMPARE(samples[0].value, 17.0);
    QVERIFY(std::llabs(samples[0].tsNs - 1520879607'789'000'000LL) < 1000); // a double's ulp
    QCOMPARE(samples[1].value, 18.0);
    QVERIFY(!samples[1].hasTimestamp);
}

void TestTelemetryImport::promJsonRangeQuery() {
    QTemporaryDir dir;
    const Imported r = importFiles(*doc_, {kFixtures + "range-query.json"}, dir.path());
    QCOMPARE(r.report.rejectedCount, 1LL); // the series without a name
    QCOMPARE(r.report.unmappedSeries, 1LL);
    QCOMPARE(r.report.missingValues, 1LL); // "NaN"
    const int32_t gpu = doc_->index().find("demo.pod0.rack2.host1.gpu5")->index;
    QCOMPARE(frameValue(*r.reader, "gpu_busy", 30'000'000'000, size_t(gpu)), 0.40f);
}

namespace {
// The reader before answers were read as events: one QJsonDocument of the whole answer. The
// oracle for the event reader: the same samples, in the same order, and the same rejections.
struct Parsed {
    std::vector<std::tuple<std::string, Labels, double, int64_t>> samples;
    std::vector<std::pair<long long, std::string>> rejected;
};

Parsed byDocument(const QByteArray& text) {
    Parsed out;
    const QJsonDocument doc = QJsonDocument::fromJson(text);
    const QJsonObject data = doc.object().value("data").toObject();
    if (doc.isNull() || doc.object().value("status").toString() != "success" ||
        data.value("resultType").toString() != "matrix") {
        out.rejected.push_back({0, doc.isNull() ? "not valid JSON" : "expected"});
        return out;
    }
    const QJsonArray result = data.value("result").toArray();
    for (qsizetype r = 0; r < result.size(); ++r) {
        const QJsonObject series = result[r].toObject();
        Labels labels;
        std::string name;
        const QJsonObject metric = series.value("metric").toObject();
        for (auto it = metric.begin(); it != metric.end(); ++it)
            if (it.key() == "__name__")
                name = it.value().toString().toStdString();
            else
                labels.emplace_back(it.key().toStdString(), it.value().toString().toStdString());
        std::sort(labels.begin(), labels.end());
        if (name.empty()) {
            out.rejected.push_back({r + 1, "series without __name__"});
            continue;
        }
        for (const QJsonValue& pair : series.value("values").toArray()) {
            const QJsonArray p = pair.toArray();
            bool ok = false;
            const double v = p.at(1).toString().toDouble(&ok);
            if (p.size() != 2 || !p.at(0).isDouble() || !p.at(1).isString() ||
                (!ok && p.at(1).toString() != "NaN")) {
                out.rejected.push_back({r + 1, "expected [seconds"});
                continue;
            }
            out.samples.emplace_back(name, labels, p.at(1).toString() == "NaN" ? std::nan("") : v,
                                     int64_t(std::llround(p.at(0).toDouble() * 1e9)));
        }
    }
    return out;
}

Parsed byEvents(const QByteArray& text) {
    Parsed out;
    std::vector<RejectedLine> rejected;
    parsePromJson(
        text, "answer", {},
        [&](RawSample&& s) { out.samples.emplace_back(s.metric, s.labels, s.value, s.tsNs); },
        rejected);
    for (const RejectedLine& r : rejected)
        out.rejected.push_back({r.line, r.reason});
    return out;
}
} // namespace

void TestTelemetryImport::promJsonReadsAsEventsWhatADocumentReads_data() {
    QTest::addColumn<QByteArray>("answer");
    QFile fixture(kFixtures + "range-query.json");
    QVERIFY(fixture.open(QIODevice::ReadOnly));
    QTest::newRow("the fixture: a series without a name, NaN") << fixture.readAll();
    QTest::newRow("keys in another order")
        << QByteArray(R"({"data":{"result":[{"values":[[1717200000,"1.5"],[1717200015.5,"2"]],)"
                      R"("metric":{"gpu":"3","__name__":"DCGM_FI_DEV_GPU_UTIL"}}],)"
                      R"("resultType":"matrix"},"status":"success"})");
    QTest::newRow("escapes in labels")
        << QByteArray(R"({"status":"success","data":{"resultType":"matrix","result":[{"metric":)"
                      R"({"__name__":"m","host":"café "a"\b
"},"values":[[1717200000,"7"]]}]}})");
    QTest::newRow("other keys walked past") << QByteArray(
        R"({"status":"success","warnings":["w"],"stats":{"timings":{"a":[1,{"b":null}]}},)"
        R"("data":{"resultType":"matrix","result":[{"metric":{"__name__":"m"},)"
        R"("value":[1,"9"],"histograms":[[1,{"count":"2"}]],"values":[[1717200000,"3"]]}]}})");
    QTest::newRow("malformed pairs")
        << QByteArray(R"({"status":"success","data":{"resultType":"matrix","result":[{"metric":)"
                      R"({"__name__":"m"},"values":[[1717200000,"1"],[1717200000],"x",[true,"2"],)"
                      R"({"a":1},[1717200030,2],[1717200060,"3",4],[1717200090,"4"]]}]}})");
    QTest::newRow("cut short") << QByteArray(
        R"({"status":"success","data":{"resultType":"matrix","result":[{"metric":)"
        R"({"__name__":"m"},"values":[[1717200000,"1"],[17172)");
    QTest::newRow("an error answer")
        << QByteArray(R"({"status":"error","errorType":"bad_data","error":"parse error"})");
    QTest::newRow("an instant vector")
        << QByteArray(R"({"status":"success","data":{"resultType":"vector","result":[]}})");
    QByteArray deep = R"({"status":"success","warnings":)";
    deep += QByteArray(200, '[') + QByteArray(200, ']');
    deep +=
        R"(,"data":{"resultType":"matrix","result":[{"metric":{"__name__":"m"},"values":[[1717200000,"5"]]}]}})";
    QTest::newRow("200 arrays deep") << deep;
}

// Answers read as events (nlohmann's SAX, no document) give the samples and rejections that a
// whole JSON document gave, in the same order, whatever order the keys come in.
void TestTelemetryImport::promJsonReadsAsEventsWhatADocumentReads() {
    QFETCH(QByteArray, answer);
    // A text of brackets alone is refused at the depth limit, before it costs memory.
    const Parsed brackets = byEvents(QByteArray(10'000'000, '['));
    QVERIFY(brackets.samples.empty());
    QCOMPARE(brackets.rejected.size(), size_t(1));
    QVERIFY(brackets.rejected[0].second.find("nested deeper than 512") != std::string::npos);
    const Parsed want = byDocument(answer), got = byEvents(answer);
    QCOMPARE(got.samples.size(), want.samples.size());
    for (size_t i = 0; i < want.samples.size(); ++i) {
        const auto& [m, labels, v, tsNs] = got.samples[i];
        const auto& [wm, wlabels, wv, wtsNs] = want.samples[i];
        QCOMPARE(m, wm);
        QVERIFY(labels == wlabels);
        QVERIFY((std::isnan(v) && std::isnan(wv)) || v == wv);
        QVERIFY(std::llabs(tsNs - wtsNs) < 1000);
    }
    QCOMPARE(got.rejected.size(), want.rejected.size());
    for (size_t i = 0; i < want.rejected.size(); ++i) {
        QCOMPARE(got.rejected[i].first, want.rejected[i].first);
        QVERIFY2(got.rejected[i].second.find(want.rejected[i].second) != std::string::npos ||
                     (want.rejected[i].second == "not valid JSON" &&
                      got.rejected[i].second.starts_with("not valid JSON at byte")),
                 got.rejected[i].second.c_str());
    }
}

void TestTelemetryImport::longCsv() {
    QTemporaryDir dir;
    const Imported r = importFiles(*doc_, {kFixtures + "long.csv"}, dir.path());
    QCOMPARE(r.report.rejectedCount, 2LL);
    QCOMPARE(r.report.rejected[0].line, 4LL);
    QVERIFY(QString::fromStdString(r.report.rejected[0].reason).contains("5 fields"));
    QCOMPARE(r.report.rejected[1].line, 5LL);
    QVERIFY(QString::fromStdString(r.report.rejected[1].reason).contains("ts"));
    QCOMPARE(r.report.unmappedSeries, 0LL);
}

void TestTelemetryImport::nvidiaSmiWideCsv() {
    QTemporaryDir dir;
    const Imported r = importFiles(*doc_, {kFixtures + "demo.pod0.rack1.host0.csv"}, dir.path());
    QCOMPARE(r.report.rejectedCount, 2LL); // a short row, a timestamp that is not one
    QCOMPARE(r.report.rejected[0].line, 6LL);
    QCOMPARE(r.report.rejected[1].line, 7LL);
    QCOMPARE(r.report.missingValues, 2LL);  // [N/A], [Not Supported]
    QCOMPARE(r.report.unmappedSeries, 0LL); // the host is the file's name
    QCOMPARE(r.report.tickNs, 5'000'000'000LL);
    const int32_t gpu = doc_->index().find("demo.pod0.rack1.host0.gpu0")->index;
    QCOMPARE(frameValue(*r.reader, "gpu_busy", 5'000'000'000, size_t(gpu)), 0.40f);
    QCOMPARE(frameValue(*r.reader, "gpu_power_w", 0, size_t(gpu)), 655.31f);
}

void TestTelemetryImport::realNvidiaSmiCaptureLandsOnItsHost() {
    // A real capture (nvidia_gpu_exporter's H100 under load): 212 columns, most of them text
    // (driver version, name, "Enabled"), the hostname column "[N/A]". Saved as one file per
    // host, it lands on the host the file is named after, and no line is rejected.
    QTemporaryDir dir;
    const QString file = dir.filePath("demo.pod0.rack0.host0.csv");
    QVERIFY(QFile::copy(QStringLiteral(CS_SOURCE_DIR
                                       "/tests/fixtures/real/"
                                       "nvsmi__linux-x86_64__nvidia-h100-80gb-hbm3__590.48.01__"
                                       "load.csv"),
                        file));
    const Imported r = importFiles(*doc_, {file}, dir.path());
    QCOMPARE(r.report.rejectedCount, 0LL);
    QVERIFY(r.report.mappedSeries >= 4);
    const size_t gpu = size_t(doc_->index().find("demo.pod0.rack0.host0.gpu0")->index);
    QCOMPARE(frameValue(*r.reader, "gpu_busy", 0, gpu), 1.0f);           // "100 %"
    QCOMPARE(frameValue(*r.reader, "gpu_power_w", 0, gpu), 631.95f);     // "631.95 W"
    QCOMPARE(frameValue(*r.reader, "gpu_sm_clock_hz", 0, gpu), 1.98e9f); // "1980 MHz"
}

void TestTelemetryImport::nicCountersLandOnTheirOwnCable() {
    // node_exporter: eth0's byte counters are the frontend NIC's; its speed, MTU and "up" are
    // no throughput. RDMA devices: mlx5_1 port 1 is rail 1's backend NIC; a port 2 is not
    // in this topology.
    QTemporaryDir dir;
    const QString path = dir.filePath("node.prom");
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    const char* h = "instance=\"demo.pod0.rack0.host0:9100\"";
    for (int k = 0; k < 2; ++k) {
        const QByteArray ts = QByteArray::number(1717200000000LL + k * 15000);
        const QByteArray bytes = QByteArray::number(1e12 + k * 15 * 2e9, 'f', 0); // 2 GB/s
        f.write(QString("node_network_receive_bytes_total{device=\"eth0\",%1} %2 %3\n")
                    .arg(h, bytes, ts)
                    .toUtf8());
        f.write(QString("node_network_speed_bytes{device=\"eth0\",%1} 12500000000 %2\n")
                    .arg(h, ts)
                    .toUtf8());
        f.write(
            QString("node_network_mtu_bytes{device=\"eth0\",%1} 9000 %2\n").arg(h, ts).toUtf8());
        f.write(QString("node_network_up{device=\"eth0\",%1} 1 %2\n").arg(h, ts).toUtf8());
        f.write(QString("node_infiniband_port_data_received_bytes_total{device=\"mlx5_1\",port="
                        "\"1\",%1} %2 %3\n")
                    .arg(h, bytes, ts)
                    .toUtf8());
        f.write(QString("node_infiniband_port_data_received_bytes_total{device=\"mlx5_1\",port="
                        "\"2\",%1} %2 %3\n")
                    .arg(h, bytes, ts)
                    .toUtf8());
    }
    f.close();
    const Imported r = importFiles(*doc_, {path}, dir.path());
    QCOMPARE(r.report.mappedSeries, 2LL);
    QCOMPARE(r.report.unmappedSeries, 4LL); // speed, MTU, up, port 2
    // Each says why, per metric: a report of thousands of series stays a few lines.
    const auto& why = r.report.unmappedWhy;
    QCOMPARE(why.at("node_network_mtu_bytes").begin()->first,
             std::string("not a byte counter (speed, MTU, flags or packets)"));
    QCOMPARE(why.at("node_infiniband_port_data_received_bytes_total").begin()->first,
             std::string("not a backend NIC's first port (mlx5_N port 1)"));
    QCOMPARE(r.report.mappedByMetric.at("node_infiniband_port_data_received_bytes_total"), 1LL);
    const QString text = QString::fromStdString(r.report.toText());
    QCOMPARE(text.count("unmapped: "), 4);
    const auto fe = size_t(linkOfNic(*doc_, "demo.pod0.rack0.host0.fe0"));
    const auto be1 = size_t(linkOfNic(*doc_, "demo.pod0.rack0.host0.be1"));
    const auto be0 = size_t(linkOfNic(*doc_, "demo.pod0.rack0.host0.be0"));
    QCOMPARE(frameValue(*r.reader, "link_bytes_per_s", 15'000'000'000, fe), 2e9f);
    QCOMPARE(frameValue(*r.reader, "link_bytes_per_s", 15'000'000'000, be1), 2e9f);
    QVERIFY(std::isnan(frameValue(*r.reader, "link_bytes_per_s", 15'000'000'000, be0)));
    // The Network chart's tiers, as a simulated run has them: each tier the sum of its links'
    // counters, none where no link of the tier reported.
    std::vector<float> expected(kTierCount, std::numeric_limits<float>::quiet_NaN());
    for (const size_t l : {fe, be1})
        if (const int q = tierOfLink(doc_->topology(), int32_t(l)); q >= 0)
            expected[size_t(q)] =
                std::isnan(expected[size_t(q)]) ? 2e9f : expected[size_t(q)] + 2e9f;
    QVERIFY(!std::isnan(expected[0])); // the backend NIC's cable is the first tier
    for (int q = 0; q < kTierCount; ++q) {
        const float got = frameValue(*r.reader, "tier_bytes_per_s", 15'000'000'000, size_t(q));
        QVERIFY2(std::isnan(expected[size_t(q)]) ? std::isnan(got) : got == expected[size_t(q)],
                 qPrintable(QString("tier %1: %2").arg(q).arg(got)));
    }
}

void TestTelemetryImport::untimedScrapesAndDuplicatesAreSaid() {
    QTemporaryDir dir;
    auto write = [&](const QString& name, const QByteArray& text, qint64 mtimeS) {
        QFile f(dir.filePath(name));
        if (!f.open(QIODevice::WriteOnly)) return QString();
        f.write(text);
        f.close();
        QFile touch(f.fileName());
        if (!touch.open(QIODevice::ReadWrite) ||
            !touch.setFileTime(QDateTime::fromSecsSinceEpoch(mtimeS, QTimeZone::utc()),
                               QFileDevice::FileModificationTime))
            return QString();
        return f.fileName();
    };
    const QByteArray gpu0 = "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",Hostname=\"demo.pod0.rack0.host0\"}";
    // Two untimed scrapes: each at its file's modification time, 15 s apart, both said.
    const QString a = write("a.prom", gpu0 + " 40\n", 1717200000),
                  b = write("b.prom", gpu0 + " 80\n", 1717200015);
    QVERIFY(!a.isEmpty() && !b.isEmpty());
    const Imported untimed = importFiles(*doc_, {a, b}, dir.path());
    QCOMPARE(untimed.report.untimedSamples, 2LL);
    QCOMPARE(untimed.report.lastNs - untimed.report.firstNs, 15'000'000'000LL);
    QCOMPARE(untimed.report.firstNs, 1717200000'000'000'000LL);
    QCOMPARE(untimed.report.warnings.size(), size_t(2));
    QVERIFY(QString::fromStdString(untimed.report.warnings[0]).contains("modification time"));
    const size_t g = size_t(doc_->index().find("demo.pod0.rack0.host0.gpu0")->index);
    QCOMPARE(frameValue(*untimed.reader, "gpu_busy", 15'000'000'000, g), 0.8f);
    // Two files with a sample of one series at one time: one kept (the later file's), and a
    // warning naming both files.
    const QString c = write("c.prom", gpu0 + " 30 1717200000000\n", 0),
                  d = write("d.prom", gpu0 + " 60 1717200000000\n", 0);
    QTemporaryDir dir2;
    const Imported twice = importFiles(*doc_, {c, d}, dir2.path());
    QCOMPARE(twice.report.duplicateSamples, 1LL);
    QCOMPARE(twice.report.warnings.size(), size_t(1));
    const QString w = QString::fromStdString(twice.report.warnings[0]);
    QVERIFY2(w.contains("c.prom") && w.contains("d.prom"), qPrintable(w));
    QCOMPARE(frameValue(*twice.reader, "gpu_busy", 0, g), 0.6f);
    // --at places untimed samples at the given instant.
    ImportOptions o;
    o.untimedAtNs = 1800000000'000'000'000LL;
    QTemporaryDir dir3;
    RunStore store = RunStore::openForWriting(dir3.filePath("run.sqlite"));
    const ImportReport at = importTelemetry(*doc_, {a}, o, store);
    QCOMPARE(at.firstNs, 1800000000'000'000'000LL);
    QVERIFY(QString::fromStdString(at.warnings.at(0)).contains("--at"));
}

void TestTelemetryImport::migInstancesCombineOnTheirGpu() {
    // dcgm-exporter under MIG: one series per GPU instance (GPU_I_ID), engine activity and
    // no GPU_UTIL. GPU 0's two instances: busy is their mean, memory used their sum. GPU 1
    // reports GPU_UTIL and keeps it; GPU 2 has engine activity only and gets it.
    QTemporaryDir dir;
    const QString path = dir.filePath("mig.prom");
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    const char* h = "Hostname=\"demo.pod0.rack0.host0\"";
    f.write(QString("DCGM_FI_PROF_GR_ENGINE_ACTIVE{gpu=\"0\",GPU_I_ID=\"1\",%1} 0.2 1717200000000\n"
                    "DCGM_FI_PROF_GR_ENGINE_ACTIVE{gpu=\"0\",GPU_I_ID=\"2\",%1} 0.6 1717200000000\n"
                    "DCGM_FI_DEV_FB_USED{gpu=\"0\",GPU_I_ID=\"1\",%1} 1000 1717200000000\n"
                    "DCGM_FI_DEV_FB_USED{gpu=\"0\",GPU_I_ID=\"2\",%1} 3000 1717200000000\n"
                    "DCGM_FI_DEV_GPU_UTIL{gpu=\"1\",%1} 90 1717200000000\n"
                    "DCGM_FI_PROF_GR_ENGINE_ACTIVE{gpu=\"1\",%1} 0.1 1717200000000\n"
                    "DCGM_FI_PROF_GR_ENGINE_ACTIVE{gpu=\"2\",%1} 0.7 1717200000000\n")
                .arg(h)
                .toUtf8());
    f.close();
    const Imported r = importFiles(*doc_, {path}, dir.path());
    QCOMPARE(r.report.series, 7LL); // the instances stay separate series
    QCOMPARE(r.report.mappedSeries, 7LL);
    auto gpu = [&](int local) {
        return size_t(doc_->index()
                          .find(("demo.pod0.rack0.host0.gpu" + std::to_string(local)).c_str())
                          ->index);
    };
    QCOMPARE(frameValue(*r.reader, "gpu_busy", 0, gpu(0)), 0.4f);
    QCOMPARE(frameValue(*r.reader, "gpu_memory_used_bytes", 0, gpu(0)), 4000.0f * 1024 * 1024);
    QCOMPARE(frameValue(*r.reader, "gpu_busy", 0, gpu(1)), 0.9f);
    QCOMPARE(frameValue(*r.reader, "gpu_busy", 0, gpu(2)), 0.7f);
}

void TestTelemetryImport::rawScrapeLandsOnTheHostItsFileIsNamedAfter() {
    // dcgm-exporter's README sample, as `curl localhost:9400/metrics` prints it: no host
    // label, no times, and a "..." line. Saved as one file per host, it lands on that host.
    QTemporaryDir dir;
    const QString file = dir.filePath("demo.pod0.rack0.host0.prom");
    QVERIFY(QFile::copy(
        QStringLiteral(CS_SOURCE_DIR "/tests/fixtures/real/dcgm-exporter-README-quickstart.prom"),
        file));
    const Imported r = importFiles(*doc_, {file}, dir.path());
    QCOMPARE(r.report.rejectedCount, 1LL); // "..."
    QCOMPARE(r.report.untimedSamples, r.report.samples);
    const size_t gpu = size_t(doc_->index().find("demo.pod0.rack0.host0.gpu0")->index);
    QCOMPARE(frameValue(*r.reader, "gpu_sm_clock_hz", 0, gpu), 139e6f); // 139 MHz
}

void TestTelemetryImport::countersToRatesHandlesResetsAndWraps() {
    const auto rates = countersToRates({{0, 100},
                                        {1'000'000'000, 300},
                                        {2'000'000'000, 50},
                                        {3'000'000'000, 4294967000.0},
                                        {4'000'000'000, 200},
                                        {4'000'000'000, 500}});
    QCOMPARE(rates.size(), size_t(4)); // the repeated timestamp gives no rate
    QCOMPARE(rates[0].second, 200.0);
    QCOMPARE(rates[1].second, 50.0);              // reset: counted from zero
    QCOMPARE(rates[2].second, 4294967000.0 - 50); // plain increase
    QCOMPARE(rates[3].second, 296.0 + 200);       // 32-bit wrap
    QVERIFY(isDcgmSentinel(9223372036854775794.0));
    QVERIFY(isDcgmSentinel(140737488355328.0));
    QVERIFY(!isDcgmSentinel(650.0));
}

void TestTelemetryImport::generatedTelemetryImportsWhole() {
    TelemetryGeneratorParams p;
    p.durationS = 120;
    p.maxHosts = 4;
    QTemporaryDir dir;
    QFile f(dir.filePath("gen.prom"));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(generatePrometheusTelemetry(doc_->topology(), p));
    f.close();
    const Imported r = importFiles(*doc_, {f.fileName()}, dir.path());
    QCOMPARE(r.report.rejectedCount, 0LL);
    QCOMPARE(r.report.unmappedSeries, 1LL); // the login node, on purpose
    QCOMPARE(r.report.unmappedByMetric.count("DCGM_FI_DEV_GPU_UTIL"), size_t(1));
    QCOMPARE(r.report.missingValues, 9LL); // the one temperature sensor that is "not supported"
    QVERIFY(r.report.mappedSeries > 4 * 8 * 3);
}

void TestTelemetryImport::timesOutsideTheEpochAreRefused_data() {
    QTest::addColumn<QString>("format");
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<int>("line"); // the line refused; the one before it is fine
    QTest::newRow("prometheus ms 1e300")
        << "prometheus" << QByteArray("m{a=\"b\"} 1 1717200000000\nm{a=\"b\"} 1 1e300\n") << 2;
    QTest::newRow("prometheus ms negative")
        << "prometheus" << QByteArray("m 1 1717200000000\nm 1 -9300000000000\n") << 2;
    QTest::newRow("openmetrics s 1e12")
        << "openmetrics" << QByteArray("m 1 1717200000\nm 1 1e12\n# EOF\n") << 2;
    QTest::newRow("csv s 9.3e9") << "csv"
                                 << QByteArray("ts,metric,entity,labels,value\n"
                                               "1717200000,m,h,,1\n9300000000,m,h,,1\n")
                                 << 3;
    QTest::newRow("csv s -9.3e9") << "csv"
                                  << QByteArray("ts,metric,entity,labels,value\n"
                                                "1717200000,m,h,,1\n-9300000000,m,h,,1\n")
                                  << 3;
    QTest::newRow("nvidia-smi year 2300")
        << "nvidia-smi"
        << QByteArray("timestamp, index, utilization.gpu [%]\n2024/06/01 12:00:00.000, 0, 97 %\n"
                      "2300/06/01 12:00:00.000, 0, 97 %\n")
        << 3;
}

void TestTelemetryImport::timesOutsideTheEpochAreRefused() {
    // 64-bit nanoseconds since the epoch end in 2262: later (or negative) times are refused
    // with their line, never wrapped into a wrong time.
    QFETCH(QString, format);
    QFETCH(QByteArray, text);
    QFETCH(int, line);
    std::vector<RawSample> samples;
    std::vector<RejectedLine> rejected;
    std::vector<std::string> counters;
    const auto keep = [&](RawSample&& s) { samples.push_back(std::move(s)); };
    if (format == "prometheus" || format == "openmetrics")
        parseExposition(text, format == "openmetrics", "t", {}, keep, rejected, counters);
    else if (format == "csv")
        parseLongCsv(text, "t", {}, keep, rejected);
    else
        parseNvidiaSmiCsv(text, "t", "demo.pod0.rack0.host0", {}, keep, rejected);
    QCOMPARE(rejected.size(), size_t(1));
    QCOMPARE(rejected[0].line, (long long)line);
    QVERIFY2(QString::fromStdString(rejected[0].reason).contains("1970"),
             rejected[0].reason.c_str());
    QVERIFY(!samples.empty());
    for (const RawSample& x : samples)
        QVERIFY(x.tsNs > 0);
}

void TestTelemetryImport::nothingToImportIsAnError() {
    QTemporaryDir dir;
    QFile f(dir.filePath("empty.prom"));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("# nothing here\n");
    f.close();
    RunStore w = RunStore::openForWriting(dir.filePath("run.sqlite"));
    QVERIFY_THROWS_EXCEPTION(InputException, importTelemetry(*doc_, {f.fileName()}, {}, w));
    QVERIFY(w.runs().empty());
    auto messageOf = [&](const QByteArray& text) {
        QFile g(dir.filePath("case.prom"));
        if (!g.open(QIODevice::WriteOnly)) return QString();
        g.write(text);
        g.close();
        try {
            importTelemetry(*doc_, {g.fileName()}, {}, w);
        } catch (const InputException& e) {
            return QString::fromStdString(e.error().message);
        }
        return QString();
    };
    // Nothing parses: the parser's own first reasons, with their lines.
    const QString garbage = messageOf("garbage line one\n{{\n");
    QVERIFY2(garbage.contains("line 1: expected a number") && garbage.contains("line 2"),
             qPrintable(garbage));
    // Everything parses, nothing maps: refused (no run stored), with what was found.
    const QString unmapped =
        messageOf("DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",Hostname=\"gpu-node-17\"} 50\n");
    QVERIFY2(unmapped.contains("no series maps") && unmapped.contains("DCGM_FI_DEV_GPU_UTIL") &&
                 unmapped.contains("Hostname=\"gpu-node-17\""),
             qPrintable(unmapped));
    QVERIFY(w.runs().empty());
    // Samples of 1971 and 2200 (each a valid time) span more than a run holds: refused.
    const QString span = messageOf(
        "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",Hostname=\"demo.pod0.rack0.host0\"} 50 31536000000\n"
        "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",Hostname=\"demo.pod0.rack0.host0\"} 50 7258118400000\n");
    QVERIFY2(span.contains("a run holds at most 146 years"), qPrintable(span));
    QVERIFY(w.runs().empty());
}

void TestTelemetryImport::dcgmFieldsLandInTheCatalogueUnits() {
    QTemporaryDir dir;
    QFile f(dir.filePath("fields.prom"));
    QVERIFY(f.open(QIODevice::WriteOnly));
    // GPU 0 reports utilisation and engine activity, GPU 1 engine activity only.
    f.write("DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",Hostname=\"demo.pod0.rack0.host0\"} 40 1000\n"
            "DCGM_FI_PROF_GR_ENGINE_ACTIVE{gpu=\"0\",Hostname=\"demo.pod0.rack0.host0\"} 0.9 1000\n"
            "DCGM_FI_PROF_GR_ENGINE_ACTIVE{gpu=\"1\",Hostname=\"demo.pod0.rack0.host0\"} 0.7 1000\n"
            "DCGM_FI_DEV_FB_USED{gpu=\"1\",Hostname=\"demo.pod0.rack0.host0\"} 2048 1000\n"
            "DCGM_FI_DEV_SM_CLOCK{gpu=\"1\",Hostname=\"demo.pod0.rack0.host0\"} 1980 1000\n"
            "DCGM_FI_DEV_POWER_USAGE{gpu=\"1\",Hostname=\"demo.pod0.rack0.host0\"} 612.5 1000\n"
            "DCGM_FI_DEV_GPU_TEMP{gpu=\"1\",Hostname=\"demo.pod0.rack0.host0\"} 71 1000\n");
    f.close();
    const Imported r = importFiles(*doc_, {f.fileName()}, dir.path());
    const auto gpu = [&](int k) {
        return size_t(doc_->index().find("demo.pod0.rack0.host0.gpu" + std::to_string(k))->index);
    };
    QCOMPARE(frameValue(*r.reader, "gpu_busy", 0, gpu(0)), 0.4f); // utilisation wins
    QCOMPARE(frameValue(*r.reader, "gpu_busy", 0, gpu(1)), 0.7f); // engine activity stands in
    QCOMPARE(frameValue(*r.reader, "gpu_memory_used_bytes", 0, gpu(1)), 2048.f * 1024 * 1024);
    QCOMPARE(frameValue(*r.reader, "gpu_sm_clock_hz", 0, gpu(1)), 1980e6f);
    QCOMPARE(frameValue(*r.reader, "gpu_power_w", 0, gpu(1)), 612.5f);
    QCOMPARE(frameValue(*r.reader, "gpu_temperature_c", 0, gpu(1)), 71.f);
}

void TestTelemetryImport::mappingFileErrorsAreLocated_data() {
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<int>("line");
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("message");
    const QString empty = "expected {\"names\": {\"telemetry name\": \"topology id\"}} or another "
                          "mapping field";
    QTest::newRow("name not a string")
        << QByteArray(R"({"names": {"a": 3}})") << 1 << 17 << "names.a"
        << "expected a topology id (a string)";
    QTest::newRow("names not an object") << QByteArray(R"({"names": [1]})") << 1 << 11 << "names"
                                         << "expected an object";
    QTest::newRow("pattern not a pair")
        << QByteArray("{\n \"names\": {\"x\": \"y\"},\n \"patterns\": [[\"a\", \"b\"], 3]}") << 3
        << 27 << "patterns[1]"
        << "expected [\"regex\", \"replacement\"]";
    QTest::newRow("bad regex") << QByteArray(R"({"patterns": [["(", "x"]]})") << 1 << 15
                               << "patterns[0]"
                               << "not a valid regular expression: missing closing parenthesis";
    QTest::newRow("patterns not a list")
        << QByteArray(R"({"patterns": {"a": 1}})") << 1 << 14 << "patterns"
        << "expected a list of [regex, replacement]";
    QTest::newRow("empty host label")
        << QByteArray(R"({"hostLabel": ""})") << 1 << 15 << "hostLabel"
        << "expected a label name";
    QTest::newRow("port fraction") << QByteArray(R"({"ports": {"a": 1.5}})") << 1 << 17 << "ports.a"
                                   << "expected a port number from 1 to 65535";
    QTest::newRow("rail negative")
        << QByteArray(R"({"devices": {"mlx5_9": -1}})") << 1 << 24 << "devices.mlx5_9"
        << "expected a rail (the backend NIC's index, 0 to 1023)";
    QTest::newRow("uuid not a string")
        << QByteArray(R"({"uuids": {"GPU-1": 5}})") << 1 << 21 << "uuids.GPU-1"
        << "expected a GPU id (a string)";
    QTest::newRow("unknown field first")
        << QByteArray(R"({"nmes": {}, "names": 3})") << 1 << 10 << "nmes"
        << "unknown field: a mapping file has names, ports, "
           "hostLabel, devices, uuids and patterns";
    QTest::newRow("nothing in it") << QByteArray("{}") << 1 << 1 << "names" << empty;
    QTest::newRow("a list") << QByteArray("\n\n  []") << 1 << 1 << "names" << empty;
    QTest::newRow("not JSON") << QByteArray(R"({"names": {"x": "y"}, )") << 1 << 23 << ""
                              << "not valid JSON: unterminated object";
    QTest::newRow("nested repetition")
        << QByteArray(R"({"patterns": [["x", "y"], ["gpu-(a+)+$", "x"]]})") << 1 << 27
        << "patterns[1]"
        << "a repeated group that itself ends in + or * (like (a+)+) can take exponential time; "
           "write it without the nesting (a+ for (a+)+)";
    QByteArray many = R"({"patterns": [)";
    for (int i = 0; i < 1001; ++i)
        many += QByteArray(i ? "," : "") + R"(["a", "b"])";
    QTest::newRow("too many patterns") << many + "]}" << 1 << 14 << "patterns"
                                       << "expected at most 1000 patterns, got 1001";
}

void TestTelemetryImport::mappingFileErrorsAreLocated() {
    QFETCH(QByteArray, text);
    QFETCH(int, line);
    QFETCH(int, column);
    QFETCH(QString, field);
    QFETCH(QString, message);
    try {
        parseSeriesMapping(text, "map.json");
        QFAIL("expected a refusal");
    } catch (const InputException& e) {
        QCOMPARE(QString::fromStdString(e.error().file), QString("map.json"));
        QCOMPARE(e.error().line, line);
        QCOMPARE(e.error().column, column);
        QCOMPARE(QString::fromStdString(e.error().field), field);
        QCOMPARE(QString::fromStdString(e.error().message), message);
    }
}

void TestTelemetryImport::impossibleValuesInsideATickAreCounted() {
    // Two readings 5 s apart in one 15 s tick, the impossible one first: it is counted and
    // said, not hidden because the tick keeps its last reading.
    QTemporaryDir dir;
    const QString file = dir.filePath("in-a-tick.prom");
    QFile f(file);
    QVERIFY(f.open(QIODevice::WriteOnly));
    const QByteArray series = "DCGM_FI_DEV_GPU_UTIL{gpu=\"4\",Hostname=\"demo.pod0.rack0.host0\"} ";
    f.write(series + "-Inf 1717200000000\n" + series + "60 1717200005000\n");
    f.close();
    ImportOptions o;
    o.tickNs = 15'000'000'000;
    RunStore w = RunStore::openForWriting(dir.filePath("run.sqlite"));
    const ImportReport r = importTelemetry(*doc_, {file}, o, w);
    QCOMPARE(r.impossibleValues, 1LL);
    QCOMPARE(r.frames, 1LL);
}

void TestTelemetryImport::impossibleValuesAreDroppedAndSaid() {
    // Infinite or out-of-range readings (an exporter's fault, not a device's) are dropped and
    // counted, never stored as frames whose statistics come out null; the rest imports.
    QTemporaryDir dir;
    const QString file = dir.filePath("impossible.prom");
    QFile f(file);
    QVERIFY(f.open(QIODevice::WriteOnly));
    const QByteArray host = "Hostname=\"demo.pod0.rack0.host0\"";
    f.write("# TYPE DCGM_FI_DEV_GPU_UTIL gauge\n"
            "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\"," +
            host +
            "} +Inf 1717200000000\n"
            "DCGM_FI_DEV_GPU_UTIL{gpu=\"1\"," +
            host +
            "} 1e308 1717200000000\n"
            "DCGM_FI_DEV_GPU_UTIL{gpu=\"2\"," +
            host +
            "} -Inf 1717200000000\n"
            "DCGM_FI_DEV_GPU_UTIL{gpu=\"3\"," +
            host +
            "} 50 1717200000000\n"
            "# TYPE DCGM_FI_DEV_POWER_USAGE gauge\n"
            "DCGM_FI_DEV_POWER_USAGE{gpu=\"3\"," +
            host +
            "} -40 1717200000000\n"
            "DCGM_FI_DEV_POWER_USAGE{gpu=\"2\"," +
            host + "} 650 1717200000000\n");
    f.close();
    const Imported r = importFiles(*doc_, {file}, dir.path());
    // +Inf and 1e308 read as DCGM's "no value" sentinels (missing); -Inf % and -40 W are
    // impossible readings.
    QCOMPARE(r.report.missingValues, 2LL);
    QCOMPARE(r.report.impossibleValues, 2LL);
    bool said = false;
    for (const std::string& w : r.report.warnings)
        said = said || (QString::fromStdString(w).contains("-inf is outside 0 to 100") &&
                        QString::fromStdString(w).contains("demo.pod0.rack0.host0.gpu2"));
    QVERIFY(said);
    QVERIFY(QString::fromStdString(r.report.toText()).contains("impossible values 2 (dropped)"));
    QCOMPARE(r.report.toJson()["impossibleValues"].toInt(), 2);
    auto gpu = [&](int local) {
        return size_t(
            doc_->index().find("demo.pod0.rack0.host0.gpu" + std::to_string(local))->index);
    };
    const std::vector<float> busy = r.reader->frame(Metric::GpuBusy, 0);
    QCOMPARE(busy[gpu(3)], 0.5f);
    QVERIFY(std::isnan(busy[gpu(0)]) && std::isnan(busy[gpu(1)]) && std::isnan(busy[gpu(2)]));
    const std::vector<float> power = r.reader->frame(Metric::GpuPowerW, 0);
    QCOMPARE(power[gpu(2)], 650.f);
    QVERIFY(std::isnan(power[gpu(3)]));
}

void TestTelemetryImport::jobLabelsNameTheJobs_data() {
    QTest::addColumn<QString>("labelA"); // the labels of the first job's series, then the second's
    QTest::addColumn<QString>("labelB");
    QTest::addColumn<QStringList>("jobs"); // expected, by name
    QTest::newRow("hpc_job beside the scrape job")
        << R"(hpc_job="4101",job="dcgm-exporter")"
        << R"(hpc_job="4102",job="dcgm-exporter")" << QStringList{"4101", "4102"};
    QTest::newRow("Slurm ids as job") << R"(job="4101")"
                                      << R"(job="4102")" << QStringList{"4101", "4102"};
    QTest::newRow("slurm_job_id") << R"(slurm_job_id="77")"
                                  << R"(slurm_job_id="78")" << QStringList{"77", "78"};
    QTest::newRow("only the scrape job") << R"(job="dcgm-exporter")"
                                         << R"(job="dcgm-exporter")" << QStringList{};
}

void TestTelemetryImport::jobLabelsNameTheJobs() {
    QFETCH(QString, labelA);
    QFETCH(QString, labelB);
    QFETCH(QStringList, jobs);
    // Job A on two hosts of pod 0 from 0 to 60 s, job B on one host of pod 1 from 30 to 90 s,
    // a sample every 15 s.
    QTemporaryDir dir;
    QFile f(dir.filePath("two-jobs.prom"));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("# TYPE DCGM_FI_DEV_GPU_UTIL gauge\n");
    const qint64 t0 = 1717200000000;
    for (int k = 0; k <= 6; ++k)
        for (int g = 0; g < 8; ++g) {
            const QString ts = QString::number(t0 + k * 15000);
            for (int h = 0; h < 2 && k <= 4; ++h)
                f.write(
                    QString("DCGM_FI_DEV_GPU_UTIL{gpu=\"%1\",Hostname=\"demo.pod0.rack0.host%2\","
                            "%3} 95 %4\n")
                        .arg(g)
                        .arg(h)
                        .arg(labelA, ts)
                        .toUtf8());
            if (k >= 2)
                f.write(
                    QString("DCGM_FI_DEV_GPU_UTIL{gpu=\"%1\",Hostname=\"demo.pod1.rack0.host0\","
                            "%2} 80 %3\n")
                        .arg(g)
                        .arg(labelB, ts)
                        .toUtf8());
        }
    f.close();
    const Imported r = importFiles(*doc_, {f.fileName()}, dir.path());
    QCOMPARE(int(r.report.jobs.size()), int(jobs.size()));
    // As the stored run's summary gives them to the views.
    const RunInfo info = RunReader::runsIn(dir.path() + "/run.sqlite").back();
    const QJsonArray stored =
        QJsonDocument::fromJson(QByteArray::fromStdString(info.summaryJson))["jobs"].toArray();
    QCOMPARE(stored.size(), jobs.size());
    if (jobs.isEmpty()) return;
    QCOMPARE(stored[0]["name"].toString(), jobs[0]);
    QCOMPARE(stored[0]["gpus"].toInt(), 16);
    QCOMPARE(stored[0]["hosts"].toArray(),
             (QJsonArray{"demo.pod0.rack0.host0", "demo.pod0.rack0.host1"}));
    QCOMPARE(stored[0]["startS"].toDouble(), 0.0);
    QCOMPARE(stored[0]["endS"].toDouble(), 60.0);
    QCOMPARE(stored[1]["name"].toString(), jobs[1]);
    QCOMPARE(stored[1]["gpus"].toInt(), 8);
    QCOMPARE(stored[1]["hosts"].toArray(), (QJsonArray{"demo.pod1.rack0.host0"}));
    QCOMPARE(stored[1]["startS"].toDouble(), 30.0);
    QCOMPARE(stored[1]["endS"].toDouble(), 90.0);
}

QTEST_GUILESS_MAIN(TestTelemetryImport)
#include "tst_telemetry_import.moc"
