#pragma once
// A real Prometheus server for tests (Debian's prometheus and promtool): a TSDB backfilled
// by promtool from OpenMetrics text, served on 127.0.0.1 at a free port, stopped on
// destruction.
#include <QProcess>
#include <QString>
#include <QUrl>

class PrometheusServer {
public:
    ~PrometheusServer();
    // False with error() set when the tools are missing or the server does not come up.
    bool start(const QByteArray& openMetrics, const QString& workDir);
    // How long promtool may take to backfill (default one minute; benchmarks load hours).
    void setBackfillTimeoutMs(int ms) { backfillTimeoutMs_ = ms; }
    double backfillSeconds() const { return backfillS_; }
    QUrl url() const { return url_; }
    QString error() const { return error_; }
    static int freePort();

private:
    QProcess server_;
    QUrl url_;
    QString error_;
    int backfillTimeoutMs_ = 60000;
    double backfillS_ = 0;
};
