#include "PrometheusLive.h"

#include <algorithm>
#include <cmath>

namespace cs {

PrometheusLive::PrometheusLive(const TopologyDocument& doc, PrometheusQuery query,
                               ImportOptions options, const QString& storePath)
    : doc_(doc), query_(std::move(query)), options_(std::move(options)),
      store_(RunStore::openForWriting(storePath)) {
    options_.append.reset();
}

ImportReport PrometheusLive::start(std::function<void(double)> progress) {
    const ImportReport r = importPrometheus(doc_, query_, options_, store_, std::move(progress));
    run_ = r.run;
    wallStartNs_ = r.firstNs;
    tickNs_ = r.tickNs;
    endNs_ = r.endNs;
    return r;
}

ImportReport PrometheusLive::poll(int64_t nowS) {
    if (run_ == 0) throw std::logic_error("PrometheusLive::poll before start");
    // From two ticks before the run's end: counters need the sample before their first new
    // rate; what is stored already is skipped by the importer.
    const int64_t endAbsNs = wallStartNs_ + endNs_;
    PrometheusQuery q = query_;
    const double stepS = double(tickNs_) / 1e9;
    q.stepS = stepS;
    // The server evaluates at start + k * step: start on the run's own grid.
    const int64_t fromTick = std::max<int64_t>(0, endNs_ / tickNs_ - 2);
    const int64_t fromNs = wallStartNs_ + fromTick * tickNs_;
    if (fromNs % 1'000'000'000 != 0 || tickNs_ % 1'000'000'000 != 0) {
        // The query's times are whole seconds; a grid off them cannot be asked for.
        throw InputException({query_.server.toString().toStdString(), 0, 0, "--step",
                              "live recording needs a whole-second step and start"});
    }
    q.startS = fromNs / 1'000'000'000;
    q.endS = nowS;
    ImportReport none;
    none.run = run_;
    none.tickNs = tickNs_;
    if (nowS * 1'000'000'000 < endAbsNs) return none; // nothing can be new yet
    ImportOptions o = options_;
    o.append = ImportAppend{run_, wallStartNs_, tickNs_, endNs_};
    const ImportReport r = importPrometheus(doc_, q, o, store_);
    if (r.frames > 0) endNs_ = r.endNs;
    return r;
}

} // namespace cs
