#include "PrometheusServer.h"

#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTest>

namespace {
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

int PrometheusServer::freePort() {
    QTcpServer probe;
    if (!probe.listen(QHostAddress::LocalHost, 0)) return -1;
    return probe.serverPort(); // closed when probe goes: free for the server to take
}

bool PrometheusServer::start(const QByteArray& openMetrics, const QString& workDir) {
    const QString prometheus = QStandardPaths::findExecutable("prometheus"),
                  promtool = QStandardPaths::findExecutable("promtool");
    if (prometheus.isEmpty() || promtool.isEmpty()) {
        error_ = "prometheus and promtool not found: packaging/install-deps.sh installs them";
        return false;
    }
    const QDir dir(workDir);
    const QString data = dir.filePath("telemetry.om"), tsdb = dir.filePath("tsdb"),
                  config = dir.filePath("prometheus.yml");
    QFile f(data), c(config);
    if (!f.open(QIODevice::WriteOnly) || !c.open(QIODevice::WriteOnly)) {
        error_ = "cannot write in " + workDir;
        return false;
    }
    f.write(openMetrics);
    f.close();
    c.write("global:\n  scrape_interval: 15s\n"); // nothing scraped: the backfill only
    c.close();
    QProcess backfill;
    QElapsedTimer took;
    took.start();
    backfill.start(promtool, {"tsdb", "create-blocks-from", "openmetrics", data, tsdb});
    const bool finished = backfill.waitForFinished(backfillTimeoutMs_);
    backfillS_ = double(took.elapsed()) / 1000;
    if (!finished || backfill.exitCode() != 0) {
        error_ = "promtool: " + QString::fromUtf8(backfill.readAllStandardError());
        return false;
    }
    const int port = freePort();
    server_.setProcessChannelMode(QProcess::MergedChannels);
    server_.start(prometheus, {"--config.file=" + config, "--storage.tsdb.path=" + tsdb,
                               "--storage.tsdb.retention.time=100y", // old data stays
                               "--web.listen-address=127.0.0.1:" + QString::number(port)});
    if (port <= 0 || !server_.waitForStarted()) {
        error_ = "prometheus did not start";
        return false;
    }
    url_ = QUrl(QString("http://127.0.0.1:%1").arg(port));
    if (!QTest::qWaitFor([&] { return ready(url_.resolved(QUrl("/-/ready"))); }, 30000)) {
        error_ = "prometheus not ready: " + QString::fromUtf8(server_.readAll());
        return false;
    }
    return true;
}

PrometheusServer::~PrometheusServer() {
    if (server_.state() == QProcess::NotRunning) return;
    server_.terminate();
    if (!server_.waitForFinished(10000)) server_.kill();
    server_.waitForFinished();
}
