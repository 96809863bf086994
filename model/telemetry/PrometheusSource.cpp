#include "PrometheusSource.h"

#include "InputError.h"

#include <QEventLoop>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QTimer>
#include <QUrlQuery>

#include <algorithm>
#include <cmath>

namespace cs {

namespace {
// Prometheus refuses more than 11,000 points per series in one answer.
constexpr double kPointsPerRequest = 10000;
} // namespace

const std::vector<std::string>& placeableMetrics() {
    static const std::vector<std::string> names{"DCGM_FI_DEV_GPU_UTIL",
                                                "DCGM_FI_PROF_GR_ENGINE_ACTIVE",
                                                "DCGM_FI_DEV_POWER_USAGE",
                                                "DCGM_FI_DEV_GPU_TEMP",
                                                "DCGM_FI_DEV_FB_USED",
                                                "DCGM_FI_DEV_SM_CLOCK",
                                                "DCGM_FI_DEV_XID_ERRORS",
                                                "node_infiniband_port_data_transmitted_bytes_total",
                                                "node_infiniband_port_data_received_bytes_total",
                                                "node_network_receive_bytes_total",
                                                "node_network_transmit_bytes_total",
                                                "ifHCInOctets",
                                                "ifHCOutOctets"};
    return names;
}

PrometheusSource::PrometheusSource(PrometheusQuery query, std::function<void(double)> progress)
    : q_(std::move(query)), progress_(std::move(progress)) {
    const std::string where = q_.server.toString().toStdString();
    if (!q_.server.isValid() || (q_.server.scheme() != "http" && q_.server.scheme() != "https"))
        throw InputException({where, 0, 0, "--prometheus", "expected an http:// or https:// URL"});
    if (q_.endS < q_.startS)
        throw InputException({where, 0, 0, "--end", "expected an end after the start"});
    if (!(q_.stepS >= 0.001))
        throw InputException({where, 0, 0, "--step", "expected a step of at least 1ms"});
    chunkStartS_ = q_.startS;
    const double chunkS = q_.stepS * kPointsPerRequest;
    total_ = (long long)placeableMetrics().size() *
             std::max<long long>(1, (long long)std::ceil(double(q_.endS - q_.startS + 1) / chunkS));
}

QByteArray PrometheusSource::get(const QUrl& url) const {
    const std::string where = q_.server.toString().toStdString();
    QNetworkAccessManager net;
    for (int attempt = 0;; ++attempt) {
        QNetworkRequest request(url);
        request.setTransferTimeout(int(q_.timeoutS * 1000));
        QNetworkReply* reply = net.get(request);
        QEventLoop loop;
        QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
        loop.exec();
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const QNetworkReply::NetworkError error = reply->error();
        const QByteArray body = reply->readAll();
        const QString errorText = reply->errorString();
        reply->deleteLater();
        const bool transient = error == QNetworkReply::TimeoutError ||
                               error == QNetworkReply::OperationCanceledError ||
                               error == QNetworkReply::TemporaryNetworkFailureError ||
                               status == 429 || status >= 500;
        if (transient && attempt < q_.retries) continue;
        // Prometheus answers errors as JSON with "error"; say that where there is one.
        const QJsonObject o = QJsonDocument::fromJson(body).object();
        if (o.value("status").toString() == "error")
            throw InputException(
                {where, 0, 0, "--prometheus",
                 "the server refused the query: " + o.value("error").toString().toStdString()});
        if (error != QNetworkReply::NoError)
            throw InputException(
                {where, 0, 0, "--prometheus",
                 (error == QNetworkReply::TimeoutError ||
                          error == QNetworkReply::OperationCanceledError
                      ? "no answer within " + std::to_string(int(q_.timeoutS)) + " s"
                  : status > 0 ? "HTTP " + std::to_string(status) + ": " + errorText.toStdString()
                               : errorText.toStdString())});
        if (o.value("status").toString() != "success" || !o.value("data").isObject())
            throw InputException({where, 0, 0, "--prometheus",
                                  "the answer is not a Prometheus API answer (expected JSON with "
                                  "\"status\": \"success\")"});
        return body;
    }
}

bool PrometheusSource::next(TelemetryText& out) {
    const auto& metrics = placeableMetrics();
    if (metric_ >= metrics.size()) return false;
    const double chunkS = q_.stepS * kPointsPerRequest;
    const int64_t endS = std::min<int64_t>(q_.endS, chunkStartS_ + int64_t(chunkS) - 1);
    QUrl url = q_.server;
    url.setPath(url.path().endsWith('/') ? url.path() + "api/v1/query_range"
                                         : url.path() + "/api/v1/query_range");
    QUrlQuery query;
    query.addQueryItem("query", QString::fromStdString(metrics[metric_]));
    query.addQueryItem("start", QString::number(chunkStartS_));
    query.addQueryItem("end", QString::number(endS));
    query.addQueryItem("step", QString::number(q_.stepS, 'g', 12));
    url.setQuery(query);
    out.name = url.toString().toStdString();
    out.text = get(url);
    out.format = TelemetryFormat::PromJson;
    out.defaultHost.clear();
    out.source = "prometheus " + q_.server.toString().toStdString();
    if (endS >= q_.endS) {
        ++metric_;
        chunkStartS_ = q_.startS;
    } else {
        chunkStartS_ = endS + 1;
    }
    ++done_;
    if (progress_) progress_(double(done_) / double(std::max(1LL, total_)));
    return true;
}

ImportReport importPrometheus(const TopologyDocument& doc, const PrometheusQuery& query,
                              const ImportOptions& options, RunStore& store,
                              std::function<void(double)> progress) {
    PrometheusSource source(query, std::move(progress));
    return importTelemetryTexts(
        doc, [&](TelemetryText& t) { return source.next(t); }, options, store);
}

} // namespace cs
