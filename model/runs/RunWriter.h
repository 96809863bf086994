#pragma once
// Writes one run into a RunStore through the metric catalogue: patterns of frames (a steady
// step at full time resolution, a checkpoint, a recording), the timeline saying which
// pattern plays when, run-wide scalars and events. Frames are stored as key frames plus the
// changes since the previous frame (an event-driven run changes few values per 10 ms), with
// per-frame statistics and per-entity history chunks for the charts. One transaction:
// nothing is visible until finish(); a writer destroyed before it leaves the file as it was.
#include "ComposedTraffic.h"
#include "MetricCatalogue.h"
#include "RunStore.h"

#include <map>
#include <memory>
#include <optional>

namespace cs {

struct RunHeader {
    std::string kind = "simulated"; // or "recorded"
    std::string name;
    std::string paramsJson = "{}";
    int64_t wallStartNs = 0; // recorded runs: the absolute time of t = 0
};

class RunWriter {
public:
    RunWriter(RunStore& store, const Topology& t, const RunHeader& h);
    // Continues a run already in the store (a live recording growing poll by poll): new
    // patterns and segments after the ones stored, the run's metrics kept. Throws
    // InputException when the store has no such run or it belongs to another topology.
    RunWriter(RunStore& store, const Topology& t, int64_t existingRun);
    ~RunWriter();
    RunWriter(const RunWriter&) = delete;
    RunWriter& operator=(const RunWriter&) = delete;

    int64_t run() const { return run_; }
    // A new pattern; its frames have offsets in [0, durationNs).
    int32_t addPattern(const std::string& name, int64_t durationNs);
    // One frame of a pattern: one value per entity of the metric's kind, in the metric's unit
    // (NaN = no data); offsets increase per pattern and metric. A value holds until the next
    // frame. Throws std::invalid_argument on a wrong size or order (a programming error).
    void addFrame(int32_t pattern, Metric m, int64_t offsetNs, const std::vector<float>& values);
    // A metric of a pattern as sources and per-frame weights (ComposedTraffic.h): link
    // traffic (Metric::LinkBytesPerS, slots are link directions) or a per-entity metric (slots
    // are the entities: a GPU's busy). The sources once, then a frame of weights per offset.
    void setComposedTraffic(int32_t pattern, Metric m, const ComposedTraffic& traffic);
    void addComposedFrame(int32_t pattern, Metric m, int64_t offsetNs,
                          const std::vector<float>& weights);
    // From startNs to endNs the pattern plays, restarting every periodNs (0: once).
    void addSegment(int64_t startNs, int64_t endNs, int32_t pattern, int64_t periodNs = 0);
    void addScalar(Metric m, int64_t tsNs, double value);
    void addEvent(int64_t tsNs, EventKind kind, std::optional<Endpoint> entity,
                  const std::string& detail);
    // Flushes, records the end and the summary, commits.
    void finish(int64_t endNs, const std::string& summaryJson);

    struct Counts {
        long long frames = 0, keyFrames = 0, changedValues = 0, historyRows = 0;
    };
    const Counts& counts() const { return counts_; }

private:
    struct Stream;
    int64_t metricId(Metric m);
    void flushHistory(Stream& s);

    RunStore& store_;
    const Topology& t_;
    int64_t run_ = 0;
    bool finished_ = false;
    int32_t patterns_ = 0;
    std::map<Metric, int64_t> metricIds_;
    int64_t nextMetricId_ = 1;
    std::map<std::pair<int32_t, Metric>, std::unique_ptr<Stream>> streams_;
    struct Composed {
        ComposedTraffic traffic;
        int32_t frame = 0;
        int64_t lastOffsetNs = -1;
    };
    std::map<std::pair<int32_t, Metric>, Composed> composed_;
    Counts counts_;
};

// Statistics of one frame (NaN values skipped); percentiles only where asked (they sort).
FrameStats statsOf(const std::vector<float>& values, bool percentiles);

} // namespace cs
