// Import from a real Prometheus server (Debian's `prometheus`), started by the test on
// 127.0.0.1 at a free port over a TSDB that promtool backfills from generated OpenMetrics,
// and stopped by it. The import through the server must give the same run as importing the
// file directly, frame by frame.
#include "InputError.h"
#include "PrometheusServer.h"
#include "PrometheusSource.h"
#include "RunReader.h"
#include "TelemetryGenerator.h"
#include "TelemetryImporter.h"
#include "TopologyDocument.h"

#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace cs;

class TestPrometheusImport : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void serverImportEqualsFileImport();
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

void TestPrometheusImport::serverImportEqualsFileImport() {
    const QString viaServer = dir_.filePath("server.sqlite"),
                  viaFile = dir_.filePath("file.sqlite");
    PrometheusQuery q;
    q.server = url_;
    q.startS = params_.startMs / 1000;
    q.endS = q.startS + int64_t(params_.durationS);
    q.stepS = params_.intervalS;
    int progressCalls = 0;
    ImportReport server, file;
    {
        RunStore store = RunStore::openForWriting(viaServer);
        server = importPrometheus(*doc_, q, {}, store, [&](double) { ++progressCalls; });
    }
    {
        RunStore store = RunStore::openForWriting(viaFile);
        file = importTelemetry(*doc_, {telemetry_}, {}, store);
    }
    QVERIFY(progressCalls >= int(placeableMetrics().size()));
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
}

QTEST_GUILESS_MAIN(TestPrometheusImport)
#include "tst_prometheus_import.moc"
