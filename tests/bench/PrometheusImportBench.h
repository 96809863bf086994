#pragma once
// bench_store's Prometheus rows: a real server (Debian's prometheus) over an hour of generated
// telemetry of a whole cluster, imported through query_range beside importing the same file.
#include <QString>

// Prints the rows, or one row saying why not (no prometheus, CS_BENCH_PROMETHEUS_HOSTS=0).
void benchPrometheusImport(const QString& workDir);
