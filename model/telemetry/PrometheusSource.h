#pragma once
// Telemetry from a Prometheus-compatible server (Prometheus, Thanos, Mimir, VictoriaMetrics):
// the metrics the importer can place, asked through /api/v1/query_range at the server's
// step, in time chunks that keep each answer bounded (at most 10,000 points per series), each
// answer handed on as Prometheus range-query JSON. Transient failures (timeouts, 5xx) are
// retried; HTTP errors, answers that are not Prometheus's and servers that cannot be reached
// are InputExceptions that say which.
#include "TelemetryImporter.h"

#include <QUrl>

#include <functional>
#include <string>
#include <vector>

namespace cs {

struct PrometheusQuery {
    QUrl server; // http://host:9090 (a path prefix is kept)
    int64_t startS = 0, endS = 0;
    double stepS = 15;
    double timeoutS = 30; // per request
    int retries = 2;      // per request, after transient failures
};

// The metric names the importer maps onto the topology (DCGM fields, NIC and switch port
// byte counters), asked one by one.
const std::vector<std::string>& placeableMetrics();

class PrometheusSource {
public:
    // `progress` gets the fraction of requests done.
    PrometheusSource(PrometheusQuery query, std::function<void(double)> progress = {});
    // The next answer, as text the importer parses; false when every request was made.
    bool next(TelemetryText& out);

private:
    QByteArray get(const QUrl& url) const;
    PrometheusQuery q_;
    std::function<void(double)> progress_;
    size_t metric_ = 0;
    int64_t chunkStartS_ = 0;
    long long done_ = 0, total_ = 0;
};

// Imports [start, end] of every placeable metric from the server into a run.
ImportReport importPrometheus(const TopologyDocument& doc, const PrometheusQuery& query,
                              const ImportOptions& options, RunStore& store,
                              std::function<void(double)> progress = {});

} // namespace cs
