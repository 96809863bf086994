#include "PrometheusSource.h"

#include "InputError.h"
#include "PromAnswerReader.h"
#include "ReplyStream.h"

#include <QDateTime>
#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QTimeZone>
#include <QTimer>
#include <QUrlQuery>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>

namespace cs {

namespace {
// Prometheus refuses more than 11,000 points per series in one answer.
constexpr long long kPointsPerSeries = 10000;
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
    if (q_.maxPointsPerAnswer < 1)
        throw InputException({where, 0, 0, "maxPointsPerAnswer", "expected at least 1"});
    const double points = double(q_.endS - q_.startS) / q_.stepS + 1;
    if (points > double(kMaxPointsPerSeries)) {
        char msg[400];
        std::snprintf(msg, sizeof msg,
                      "the range holds %.0f points per series at a step of %g s; at most %lld are "
                      "imported: use a step of at least %g s, or a range of at most %.0f s",
                      points, q_.stepS, kMaxPointsPerSeries,
                      double(q_.endS - q_.startS) / double(kMaxPointsPerSeries - 1),
                      q_.stepS * double(kMaxPointsPerSeries - 1));
        throw InputException({where, 0, 0, "--step", msg});
    }
    chunkStartS_ = double(q_.startS);
    startedMs_ = QDateTime::currentMSecsSinceEpoch();
}

PromAnswer PrometheusSource::request(const QUrl& url,
                                     const std::function<PromAnswer(std::istream&)>& read,
                                     const std::function<void()>& restart) {
    ++requests_;
    const std::string where = q_.server.toString().toStdString();
    auto refuse = [&](const std::string& why) {
        throw InputException({where, 0, 0, "--prometheus", why});
    };
    QNetworkAccessManager net;
    double waitS = q_.retryBackoffS;
    for (int attempt = 0;; ++attempt) {
        const double elapsedS = double(QDateTime::currentMSecsSinceEpoch() - startedMs_) / 1000;
        if (elapsedS > q_.deadlineS)
            refuse("the import took longer than its deadline of " +
                   std::to_string(int(q_.deadlineS)) + " s (" + std::to_string(requests_) +
                   " requests); ask a shorter range or a larger step");
        if (attempt > 0 && restart) restart();
        QNetworkRequest request(url);
        request.setTransferTimeout(int(q_.timeoutS * 1000));
        std::unique_ptr<QNetworkReply, void (*)(QNetworkReply*)> reply(
            net.get(request), [](QNetworkReply* r) { r->deleteLater(); });
        // An answer that keeps trickling in resets the transfer timeout: the deadline ends it.
        bool pastDeadline = false, tooLarge = false;
        QTimer deadline;
        deadline.setSingleShot(true);
        QObject::connect(&deadline, &QTimer::timeout, reply.get(), [&] {
            pastDeadline = true;
            reply->abort();
        });
        deadline.start(int(std::min(q_.requestDeadlineS, q_.deadlineS - elapsedS) * 1000));
        QObject::connect(reply.get(), &QNetworkReply::downloadProgress, reply.get(),
                         [&](qint64 received, qint64 total) {
                             if (received > q_.maxAnswerBytes || total > q_.maxAnswerBytes) {
                                 tooLarge = true;
                                 reply->abort();
                             }
                         });
        // Read as the bytes arrive; what the reader left (it stopped early) is read past, so
        // that the reply ends as the server meant it to.
        ReplyStreamBuf bytes(reply.get());
        std::istream in(&bytes);
        const PromAnswer head = read(in);
        in.ignore(std::numeric_limits<std::streamsize>::max());
        deadline.stop();
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const QNetworkReply::NetworkError error = reply->error();
        const QString errorText = reply->errorString();
        if (tooLarge)
            refuse("an answer larger than " + std::to_string(q_.maxAnswerBytes >> 20) +
                   " MiB (the limit per answer); ask a shorter range or a larger step");
        const bool transient = pastDeadline || error == QNetworkReply::TimeoutError ||
                               error == QNetworkReply::OperationCanceledError ||
                               error == QNetworkReply::TemporaryNetworkFailureError ||
                               error == QNetworkReply::RemoteHostClosedError || status == 429 ||
                               status >= 500;
        if (transient && attempt < q_.retries) {
            // Back off before asking again: a struggling server gets time, not a burst.
            QEventLoop pause;
            QTimer::singleShot(int(waitS * 1000), &pause, &QEventLoop::quit);
            pause.exec();
            waitS = std::min(2 * waitS, 8.0);
            continue;
        }
        if (pastDeadline)
            refuse("no whole answer within " + QString::number(q_.requestDeadlineS).toStdString() +
                   " s (the deadline per request), after " + std::to_string(attempt + 1) +
                   " tries");
        // Prometheus answers errors as JSON with "error"; say that where there is one.
        if (head.status == "error")
            throw InputException({where, 0, 0, "--prometheus",
                                  "the server refused the query: " + head.error.substr(0, 500)});
        if (error != QNetworkReply::NoError)
            throw InputException(
                {where, 0, 0, "--prometheus",
                 (error == QNetworkReply::TimeoutError ||
                          error == QNetworkReply::OperationCanceledError
                      ? "no answer within " + std::to_string(int(q_.timeoutS)) + " s"
                  : error == QNetworkReply::RemoteHostClosedError
                      ? "the server closed the connection before its answer was whole, after " +
                            std::to_string(attempt + 1) + " tries"
                  : status > 0 ? "HTTP " + std::to_string(status) + ": " + errorText.toStdString()
                               : errorText.toStdString())});
        if (head.tokenTooLong)
            refuse("the answer holds a string, number or run of other bytes longer than " +
                   std::to_string(kMaxPromTokenBytes >> 20) +
                   " MiB (a Prometheus answer's longest is a label value)");
        if (!head.validJson || head.status != "success")
            throw InputException({where, 0, 0, "--prometheus",
                                  "the answer is not a Prometheus API answer (expected JSON with "
                                  "\"status\": \"success\")"});
        return head;
    }
}

QUrl PrometheusSource::api(const char* endpoint, const QUrlQuery& query) const {
    QUrl url = q_.server;
    url.setPath((url.path().endsWith('/') ? url.path() : url.path() + "/") + "api/v1/" + endpoint);
    url.setQuery(query);
    return url;
}

long long PrometheusSource::seriesOf(const std::string& metric) {
    // Every series with a sample in the range, counted where the range ends.
    const int64_t rangeS = q_.endS - q_.startS + std::max<int64_t>(1, int64_t(std::ceil(q_.stepS)));
    QUrlQuery query;
    query.addQueryItem(
        "query",
        QString("count(last_over_time(%1[%2s]))").arg(QString::fromStdString(metric)).arg(rangeS));
    query.addQueryItem("time", QString::number(q_.endS));
    // A count is one small series: read whole (within maxAnswerBytes), then as a document.
    QByteArray body;
    request(api("query", query), [&](std::istream& in) {
        char chunk[4096];
        while (in.read(chunk, sizeof chunk) || in.gcount() > 0)
            body.append(chunk, in.gcount());
        return readPromAnswer(body);
    });
    const QJsonObject data = QJsonDocument::fromJson(body).object().value("data").toObject();
    const QJsonArray result = data.value("result").toArray();
    if (result.isEmpty()) return 0;
    // [{"metric": {}, "value": [time, "24576"]}]
    const QString text = result.first().toObject().value("value").toArray().at(1).toString();
    bool ok = false;
    const long long n = text.toLongLong(&ok);
    if (!ok || n < 0 || n > 100'000'000)
        throw InputException({q_.server.toString().toStdString(), 0, 0, "--prometheus",
                              "the server counted \"" + text.left(40).toStdString() +
                                  "\" series of " + metric +
                                  ", which is not a count (0 to 100,000,000)"});
    return n;
}

void PrometheusSource::nextMetric() {
    ++metric_;
    chunkStartS_ = double(q_.startS);
    counted_ = false;
}

bool PrometheusSource::next(TelemetryText& out) {
    const auto& metrics = placeableMetrics();
    while (metric_ < metrics.size() && !counted_) {
        const long long series = seriesOf(metrics[metric_]);
        if (series == 0) { // not on this server: nothing to ask
            nextMetric();
            if (progress_) progress_(double(metric_) / double(metrics.size()));
            continue;
        }
        const long long points =
            std::clamp<long long>(q_.maxPointsPerAnswer / series, 1, kPointsPerSeries);
        chunkS_ = q_.stepS * double(points);
        counted_ = true;
    }
    if (metric_ >= metrics.size()) return false;
    // The answer's points sit at start + k * step: a chunk ends half a step before the next
    // one starts, which is the point after its last.
    const double endS = std::min(double(q_.endS), chunkStartS_ + chunkS_ - q_.stepS / 2);
    QUrlQuery query;
    query.addQueryItem("query", QString::fromStdString(metrics[metric_]));
    query.addQueryItem("start", QString::number(chunkStartS_, 'f', 3));
    query.addQueryItem("end", QString::number(endS, 'f', 3));
    query.addQueryItem("step", QString::number(q_.stepS, 'g', 12));
    const QUrl url = api("query_range", query);
    out.name = url.toString().toStdString();
    out.text.clear();
    // Asked when the importer reads it, and read as it arrives.
    out.promAnswer = [this, url](const std::function<bool(PromSeries &&)>& onSeries,
                                 const std::function<void()>& restart) {
        return request(
            url, [&](std::istream& in) { return readPromAnswer(in, onSeries); }, restart);
    };
    out.format = TelemetryFormat::PromJson;
    out.defaultHost.clear();
    out.source = "prometheus " + q_.server.toString().toStdString();
    const double within = (endS - double(q_.startS)) / std::max(1.0, double(q_.endS - q_.startS));
    const double done = (double(metric_) + std::clamp(within, 0.0, 1.0)) / double(metrics.size());
    if (endS >= double(q_.endS))
        nextMetric();
    else
        chunkStartS_ += chunkS_;
    if (progress_) progress_(done);
    return true;
}

ImportReport importPrometheus(const TopologyDocument& doc, const PrometheusQuery& query,
                              const ImportOptions& options, RunStore& store,
                              std::function<void(double)> progress) {
    PrometheusSource source(query, std::move(progress));
    long long answers = 0;
    bool asked = false; // every request made: the server answered them all
    try {
        return importTelemetryTexts(
            doc,
            [&](TelemetryText& t) {
                const bool more = source.next(t);
                answers += more;
                asked = !more;
                return more;
            },
            options, store);
    } catch (const InputException&) {
        if (answers > 0 || !asked) throw;
        // Nothing was asked for: say which server and range had none of the metrics.
        auto when = [](int64_t s) {
            return QDateTime::fromSecsSinceEpoch(s, QTimeZone::utc())
                .toString("yyyy-MM-dd'T'HH:mm:ss'Z'")
                .toStdString();
        };
        throw InputException({query.server.toString().toStdString(), 0, 0, "--prometheus",
                              "the server holds none of the metrics ClusterScope places (" +
                                  placeableMetrics().front() + ", ...) between " +
                                  when(query.startS) + " and " + when(query.endS)});
    }
}

} // namespace cs
