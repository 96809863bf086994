#pragma once
// A live recording from a Prometheus-compatible server: the first import makes a recorded
// run in the store; each poll asks the server for what it has since the run's end and
// appends it as the run's next stretch, on the run's own tick grid, so a run recorded live
// holds the same frames as one imported afterwards over the same range. Not thread-safe:
// one thread at a time (the GUI's poll thread, a test).
#include "PrometheusSource.h"

namespace cs {

class PrometheusLive {
public:
    // `query` gives the server, the first range (startS .. endS) and the step; the store is
    // opened for writing and kept open while recording.
    PrometheusLive(const TopologyDocument& doc, PrometheusQuery query, ImportOptions options,
                   const QString& storePath);
    // The first import: throws InputException as importPrometheus does.
    ImportReport start(std::function<void(double)> progress = {});
    // Appends what the server holds from the run's end up to nowS (Unix seconds);
    // report.frames is 0 when nothing new has arrived. Throws InputException on server errors
    // (the run stays as it was).
    ImportReport poll(int64_t nowS);

    int64_t run() const { return run_; }
    int64_t wallStartNs() const { return wallStartNs_; }
    int64_t endNs() const { return endNs_; } // from the run's t = 0
    int64_t tickNs() const { return tickNs_; }
    const PrometheusQuery& query() const { return query_; }
    const std::string& storePath() const { return store_.path(); }

private:
    const TopologyDocument& doc_;
    PrometheusQuery query_;
    ImportOptions options_;
    RunStore store_;
    int64_t run_ = 0, wallStartNs_ = 0, endNs_ = 0, tickNs_ = 0;
};

} // namespace cs
