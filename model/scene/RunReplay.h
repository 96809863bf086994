#pragma once
// A stored run opened for replay: its time range, events, and the run-wide series the charts
// show (GPU busy mean with its 5th and 95th percentiles, throughput per network tier,
// storage throughput, step time, MFU), computed once on open.
#include "RunStore.h"
#include "Topology.h"

#include <QString>

#include <memory>
#include <string>
#include <vector>

namespace cs {

struct TimeSeries {
    std::string name, unit;
    std::vector<double> tS, value; // seconds from the run's start
};

struct BandSeries {
    std::vector<double> tS, mean, low, high; // low/high: 5th and 95th percentiles
};

class RunReplay {
public:
    // Throws InputException (foreign, corrupt or newer files; another topology).
    RunReplay(const QString& path, const Topology& t);

    int64_t run() const { return run_; }
    int64_t startNs() const { return range_.first; }
    int64_t endNs() const { return range_.second; }
    const std::vector<RunStore::Event>& events() const { return events_; }
    const BandSeries& gpuBusy() const { return gpuBusy_; }
    const std::vector<TimeSeries>& tierThroughput() const { return tiers_; }
    const TimeSeries& storageThroughput() const { return storage_; }
    const TimeSeries& stepTime() const { return stepTime_; }
    const TimeSeries& mfu() const { return mfu_; }
    // One GPU's busy fraction over the run (for charting a selected GPU).
    TimeSeries gpuHistory(int32_t gpu) const;
    // One link's bytes per second over the run.
    TimeSeries linkHistory(int32_t link) const;
    // The selected entity's values at a time, for the inspector: label and text.
    std::vector<std::pair<std::string, std::string>> valuesAt(Endpoint e, int64_t tsNs) const;
    const RunStore& store() const { return store_; }
    const Topology& topology() const { return t_; }

private:
    const Topology& t_;
    RunStore store_;
    int64_t run_ = 0;
    std::pair<int64_t, int64_t> range_;
    std::vector<RunStore::Event> events_;
    BandSeries gpuBusy_;
    std::vector<TimeSeries> tiers_;
    TimeSeries storage_, stepTime_, mfu_;
};

} // namespace cs
