// Import from a real Prometheus server (Debian's `prometheus`), started by the test on
// 127.0.0.1 at a free port over a TSDB that promtool backfills from generated OpenMetrics,
// and stopped by it. The import through the server must give the same run as importing the
// file directly, frame by frame.
#include "InputError.h"
#include "PrometheusSource.h"
#include "RunReader.h"
#include "TelemetryGenerator.h"
#include "TelemetryImporter.h"
#include "TopologyDocument.h"

#include <QEventLoop>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <cmath>

using namespace cs;

namespace {
int freePort() {
    QTcpServer probe;
    if (!probe.listen(QHostAddress::LocalHost, 0)) return -1;
    return probe.serverPort(); // closed when probe goes: free for the server to take
}

bool ready(const QUrl& url) {
    QNetworkAccessManager net;
    QNetworkRequest request(url);
    request.setTransferTimeout(1000);
    QNetworkReply* reply = net.get(request);
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    loop.exec();
    const bool ok = reply->error() == QNetworkReply::NoError;
    reply->deleteLater();
    return ok;
}
} // namespace

class TestPrometheusImport : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void serverImportEqualsFileImport();
    void unreachableAndWrongServersAreNamed();

private:
    QTemporaryDir dir_;
    QProcess server_;
    QUrl url_;
    QString telemetry_;
    std::unique_ptr<TopologyDocument> doc_;
    TelemetryGeneratorParams params_;
};

void TestPrometheusImport::initTestCase() {
    const QString prometheus = QStandardPaths::findExecutable("prometheus"),
                  promtool = QStandardPaths::findExecutable("promtool");
    QVERIFY2(!prometheus.isEmpty() && !promtool.isEmpty(),
             "prometheus and promtool not found: packaging/install-deps.sh installs them");
    doc_ = openTopology("small-256", {});
    params_.durationS = 600;
    params_.intervalS = 15;
    params_.maxHosts = 4;
    params_.openMetrics = true;
    telemetry_ = dir_.filePath("telemetry.om");
    QFile f(telemetry_);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(generatePrometheusTelemetry(doc_->topology(), params_));
    f.close();
    const QString tsdb = dir_.filePath("tsdb");
    QProcess backfill;
    backfill.start(promtool, {"tsdb", "create-blocks-from", "openmetrics", telemetry_, tsdb});
    QVERIFY(backfill.waitForFinished(60000));
    QVERIFY2(backfill.exitCode() == 0, backfill.readAllStandardError().constData());
    QFile config(dir_.filePath("prometheus.yml"));
    QVERIFY(config.open(QIODevice::WriteOnly));
    config.write("global:\n  scrape_interval: 15s\n"); // nothing scraped: the backfill only
    config.close();
    const int port = freePort();
    QVERIFY(port > 0);
    server_.setProcessChannelMode(QProcess::MergedChannels);
    server_.start(prometheus, {"--config.file=" + config.fileName(), "--storage.tsdb.path=" + tsdb,
                               "--storage.tsdb.retention.time=100y", // the data is from 2024
                               "--web.listen-address=127.0.0.1:" + QString::number(port)});
    QVERIFY(server_.waitForStarted());
    url_ = QUrl(QString("http://127.0.0.1:%1").arg(port));
    QVERIFY2(QTest::qWaitFor([&] { return ready(url_.resolved(QUrl("/-/ready"))); }, 30000),
             server_.readAll().constData());
}

void TestPrometheusImport::cleanupTestCase() {
    if (server_.state() == QProcess::NotRunning) return;
    server_.terminate();
    if (!server_.waitForFinished(10000)) server_.kill();
    server_.waitForFinished();
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
    const QString refused = messageOf(QUrl(QString("http://127.0.0.1:%1").arg(freePort())));
    QVERIFY2(refused.contains("refused", Qt::CaseInsensitive), qPrintable(refused));
    const QString notFound = messageOf(url_.resolved(QUrl("/no/such/prefix")));
    QVERIFY2(notFound.contains("HTTP 404"), qPrintable(notFound));
    const QString notHttp = messageOf(QUrl("ftp://127.0.0.1/"));
    QVERIFY2(notHttp.contains("http://"), qPrintable(notHttp));
}

QTEST_GUILESS_MAIN(TestPrometheusImport)
#include "tst_prometheus_import.moc"
