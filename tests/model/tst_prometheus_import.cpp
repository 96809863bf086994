// Import from a real Prometheus server (Debian's `prometheus`), started by the test on
// 127.0.0.1 at a free port over a TSDB that promtool backfills from generated OpenMetrics,
// and stopped by it. The import through the server must give the same run as importing the
// file directly, frame by frame.
#include "InputError.h"
#include "PrometheusLive.h"
#include "PrometheusServer.h"
#include "PrometheusSource.h"
#include "RunReader.h"
#include "TelemetryGenerator.h"
#include "TelemetryImporter.h"
#include "TopologyDocument.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>

using namespace cs;

class TestPrometheusImport : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void serverImportEqualsFileImport_data();
    void serverImportEqualsFileImport();
    void liveRecordingEqualsFileImport();
    void unreachableAndWrongServersAreNamed();

private:
    QTemporaryDir dir_;
    PrometheusServer server_;
    QUrl url_;
    QString telemetry_;
    std::unique_ptr<TopologyDocument> doc_;
    TelemetryGeneratorParams params_;
};

void TestPrometheusImport::initTestCase() {
    doc_ = openTopology("small-256", {});
    params_.durationS = 600;
    params_.intervalS = 15;
    params_.maxHosts = 4;
    params_.openMetrics = true;
    const QByteArray text = generatePrometheusTelemetry(doc_->topology(), params_);
    QVERIFY2(server_.start(text, dir_.path()), qPrintable(server_.error()));
    url_ = server_.url();
    telemetry_ = dir_.filePath("telemetry.om"); // the file the server was backfilled from
}

void TestPrometheusImport::serverImportEqualsFileImport_data() {
    QTest::addColumn<qlonglong>("maxPoints");
    QTest::addColumn<int>("minAnswers"); // range answers at least, besides the series counts
    // 32 GPUs' series: one answer per metric the server holds, or answers of 3 points a series.
    QTest::newRow("an answer per metric") << qlonglong(500'000) << 6;
    QTest::newRow("small answers") << qlonglong(100) << 6 * 41 / 3;
}

void TestPrometheusImport::serverImportEqualsFileImport() {
    QFETCH(qlonglong, maxPoints);
    QFETCH(int, minAnswers);
    const QString viaServer = dir_.filePath(QString("server-%1.sqlite").arg(maxPoints)),
                  viaFile = dir_.filePath(QString("file-%1.sqlite").arg(maxPoints));
    PrometheusQuery q;
    q.server = url_;
    q.startS = params_.startMs / 1000;
    q.endS = q.startS + int64_t(params_.durationS);
    q.stepS = params_.intervalS;
    q.maxPointsPerAnswer = maxPoints;
    int progressCalls = 0;
    double lastProgress = 0;
    bool monotonic = true;
    ImportReport server, file;
    {
        RunStore store = RunStore::openForWriting(viaServer);
        server = importPrometheus(*doc_, q, {}, store, [&](double f) {
            ++progressCalls;
            monotonic = monotonic && f >= lastProgress && f <= 1;
            lastProgress = f;
        });
    }
    QVERIFY(monotonic);
    QCOMPARE(lastProgress, 1.0);
    QVERIFY2(progressCalls >= minAnswers, qPrintable(QString::number(progressCalls)));
    {
        RunStore store = RunStore::openForWriting(viaFile);
        file = importTelemetry(*doc_, {telemetry_}, {}, store);
    }
    QCOMPARE(server.samples, file.samples);
    QCOMPARE(server.mappedSeries, file.mappedSeries);
    QCOMPARE(server.firstNs, file.firstNs);
    QCOMPARE(server.tickNs, file.tickNs);
    RunReader a(viaServer, doc_->topology()), b(viaFile, doc_->topology());
    long long compared = 0, differences = 0;
    for (const MetricDef& m : metricCatalogue()) {
        QCOMPARE(a.has(m.metric), b.has(m.metric));
        if (!a.has(m.metric)) continue;
        for (int64_t at = 0; at <= file.lastNs - file.firstNs; at += file.tickNs) {
            const std::vector<float> x = a.frame(m.metric, at), y = b.frame(m.metric, at);
            QCOMPARE(x.size(), y.size());
            for (size_t i = 0; i < x.size(); ++i, ++compared)
                differences += !(x[i] == y[i] || (std::isnan(x[i]) && std::isnan(y[i])));
        }
    }
    QVERIFY(compared > 10000);
    QCOMPARE(differences, 0LL);
}

// Counts the frames of two runs that differ at the ticks of [0, endNs].
static long long differingValues(const QString& a, const QString& b, const Topology& t,
                                 int64_t endNs, int64_t tickNs, long long* compared) {
    RunReader x(a, t), y(b, t);
    long long differences = 0;
    for (const MetricDef& m : metricCatalogue()) {
        if (x.has(m.metric) != y.has(m.metric)) return -1;
        if (!x.has(m.metric)) continue;
        for (int64_t at = 0; at <= endNs; at += tickNs) {
            const std::vector<float> u = x.frame(m.metric, at), v = y.frame(m.metric, at);
            if (u.size() != v.size()) return -1;
            for (size_t i = 0; i < u.size(); ++i, ++*compared)
                differences += !(u[i] == v[i] || (std::isnan(u[i]) && std::isnan(v[i])));
        }
    }
    return differences;
}

void TestPrometheusImport::liveRecordingEqualsFileImport() {
    // Live: the first two minutes, then polls as "now" moves on (a tick at a time, nothing
    // new, several ticks at once) up to the end of the data. The run recorded so must hold
    // what a file import of the whole range holds.
    const QString live = dir_.filePath("live.sqlite"), viaFile = dir_.filePath("file2.sqlite");
    const int64_t startS = params_.startMs / 1000, endS = startS + int64_t(params_.durationS);
    PrometheusQuery q;
    q.server = url_;
    q.startS = startS;
    q.endS = startS + 120;
    q.stepS = params_.intervalS;
    ImportReport file;
    {
        RunStore store = RunStore::openForWriting(viaFile);
        file = importTelemetry(*doc_, {telemetry_}, {}, store);
    }
    {
        PrometheusLive recording(*doc_, q, {}, live);
        const ImportReport first = recording.start();
        QCOMPARE(first.endNs, 135'000'000'000LL); // 9 ticks of 15 s
        QCOMPARE(recording.endNs(), first.endNs);
        // A reader opened while recording follows the run as it grows.
        RunReader watching(live, doc_->topology());
        QCOMPARE(recording.poll(startS + 120).frames, 0LL); // nothing new yet
        QVERIFY(!watching.refresh());
        long long appended = 0;
        int64_t now = startS + 135;
        for (; now <= startS + 300; now += 15) {
            const ImportReport r = recording.poll(now);
            QVERIFY2(r.frames > 0, qPrintable(QString::number(now - startS)));
            QCOMPARE(recording.endNs(), (now - startS) * 1'000'000'000 + 15'000'000'000LL);
            appended += r.frames;
            QVERIFY(watching.refresh());
            QCOMPARE(watching.info().endNs, recording.endNs());
            const std::vector<float> power =
                watching.frame(Metric::GpuPowerW, recording.endNs() - 1);
            QVERIFY(std::any_of(power.begin(), power.end(), [](float v) { return v > 0; }));
        }
        QCOMPARE(recording.poll(now - 15).frames, 0LL);       // asked again: nothing new
        QVERIFY(recording.poll(endS).frames > appended / 12); // 20 ticks at once
        QCOMPARE(recording.endNs(), file.endNs);
        // The store is readable while the recording holds it open for writing.
        RunReader reader(live, doc_->topology());
        QCOMPARE(reader.info().endNs, file.endNs);
        QCOMPARE(reader.info().wallStartNs, file.firstNs);
    }
    long long compared = 0;
    QCOMPARE(differingValues(live, viaFile, doc_->topology(), file.endNs - file.tickNs, file.tickNs,
                             &compared),
             0LL);
    QVERIFY(compared > 10000);
    RunReader a(live, doc_->topology()), b(viaFile, doc_->topology());
    QCOMPARE(a.events().size(), b.events().size());
    for (const MetricDef& m : metricCatalogue()) {
        if (!a.has(m.metric) || metricDef(m.metric).entity == MetricEntity::Run) continue;
        // Charts read the same: the per-frame mean over the whole run.
        const Series x = a.statHistory(m.metric, FrameStat::Mean, 0, file.endNs, 100000),
                     y = b.statHistory(m.metric, FrameStat::Mean, 0, file.endNs, 100000);
        QCOMPARE(x.tsNs, y.tsNs);
        QCOMPARE(x.value.size(), y.value.size());
    }
}

void TestPrometheusImport::unreachableAndWrongServersAreNamed() {
    auto messageOf = [&](const QUrl& server) {
        PrometheusQuery q;
        q.server = server;
        q.startS = params_.startMs / 1000;
        q.endS = q.startS + 60;
        q.timeoutS = 5;
        RunStore store = RunStore::openForWriting(dir_.filePath("bad.sqlite"));
        try {
            importPrometheus(*doc_, q, {}, store);
        } catch (const InputException& e) {
            return QString::fromStdString(e.error().file + ": " + e.error().message);
        }
        return QString();
    };
    const QString refused =
        messageOf(QUrl(QString("http://127.0.0.1:%1").arg(PrometheusServer::freePort())));
    QVERIFY2(refused.contains("refused", Qt::CaseInsensitive), qPrintable(refused));
    const QString notFound = messageOf(url_.resolved(QUrl("/no/such/prefix")));
    QVERIFY2(notFound.contains("HTTP 404"), qPrintable(notFound));
    const QString notHttp = messageOf(QUrl("ftp://127.0.0.1/"));
    QVERIFY2(notHttp.contains("http://"), qPrintable(notHttp));
    // A range the server has nothing in: the server and the range are named.
    PrometheusQuery q;
    q.server = url_;
    q.startS = params_.startMs / 1000 - 86400 * 30;
    q.endS = q.startS + 600;
    RunStore store = RunStore::openForWriting(dir_.filePath("empty.sqlite"));
    try {
        importPrometheus(*doc_, q, {}, store);
        QFAIL("an empty range imported");
    } catch (const InputException& e) {
        const QString m = QString::fromStdString(e.error().file + ": " + e.error().message);
        QVERIFY2(m.startsWith(url_.toString()) && m.contains("holds none of the metrics") &&
                     m.contains("2024-05-02T00:00:00Z"),
                 qPrintable(m));
    }
}

QTEST_GUILESS_MAIN(TestPrometheusImport)
#include "tst_prometheus_import.moc"
