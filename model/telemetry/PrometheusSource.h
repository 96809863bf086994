#pragma once
// Telemetry from a Prometheus-compatible server (Prometheus, Thanos, Mimir, VictoriaMetrics):
// the metrics the importer can place, asked through /api/v1/query_range at the server's
// step, in time chunks that keep each answer bounded: the series of a metric are counted
// first (an instant `count(last_over_time(...))`), and a chunk holds at most
// maxPointsPerAnswer points over all of them and 10,000 per series (Prometheus's own limit
// is 11,000). Metrics the server does not hold are skipped. Each answer is handed on to be
// read as it arrives (memory for its samples, not its bytes). Every request is bounded:
// silence past timeoutS, a whole answer past requestDeadlineS or maxAnswerBytes, the import
// past deadlineS. Transient
// failures (timeouts, connections closed early, 429, 5xx) are retried after waits that double from
// retryBackoffS; HTTP errors, answers that are not Prometheus's, series counts that are no count
// and servers that cannot be reached are InputExceptions that say which.
#include "PromAnswerReader.h"
#include "TelemetryImporter.h"

#include <QUrl>

#include <functional>
#include <istream>
#include <string>
#include <vector>

namespace cs {

struct PrometheusQuery {
    QUrl server; // http://host:9090 (a path prefix is kept)
    int64_t startS = 0, endS = 0;
    double stepS = 15;
    double timeoutS = 30;                   // per request: silence this long ends it
    double requestDeadlineS = 300;          // per request, however slowly the answer comes
    double deadlineS = 3600;                // the whole import
    int retries = 2;                        // per request, after transient failures
    double retryBackoffS = 0.5;             // the first wait; doubled each retry, at most 8 s
    long long maxPointsPerAnswer = 500'000; // about 15 MB of JSON
    qint64 maxAnswerBytes = 256LL << 20;    // an answer past this is refused, not parsed
};

// The most points one series may have in the range asked ((end - start) / step): a larger
// range is refused before any request, with the numbers and how to narrow it.
constexpr long long kMaxPointsPerSeries = 10'000'000;

// The metric names the importer maps onto the topology (DCGM fields, NIC and switch port
// byte counters), asked one by one.
const std::vector<std::string>& placeableMetrics();

class PrometheusSource {
public:
    // `progress` gets the fraction of requests done.
    PrometheusSource(PrometheusQuery query, std::function<void(double)> progress = {});
    // The next answer, as text the importer parses; false when every request was made.
    bool next(TelemetryText& out);

    long long requests() const { return requests_; }

private:
    // One request, its answer handed to `read` as it arrives, retried as the query says
    // (`restart` before each retry); the answer's head, or an InputException saying why not.
    PromAnswer request(const QUrl& url, const std::function<PromAnswer(std::istream&)>& read,
                       const std::function<void()>& restart = {});
    QUrl api(const char* endpoint, const QUrlQuery& query) const;
    // The number of series of a metric in the range (0: the server has none).
    long long seriesOf(const std::string& metric);
    void nextMetric();
    PrometheusQuery q_;
    std::function<void(double)> progress_;
    size_t metric_ = 0;
    double chunkStartS_ = 0, chunkS_ = 0; // on the step's grid: fractional steps stay on it
    bool counted_ = false;                // the current metric's series are counted, chunkS_ set
    long long requests_ = 0;
    qint64 startedMs_ = 0; // when the import began (QDateTime ms), for deadlineS
};

// Imports [start, end] of every placeable metric from the server into a run.
ImportReport importPrometheus(const TopologyDocument& doc, const PrometheusQuery& query,
                              const ImportOptions& options, RunStore& store,
                              std::function<void(double)> progress = {});

} // namespace cs
