#pragma once
// The one code that reads a run store. Opened for one run and the topology it is shown on
// (checked by name and fingerprint); hands out plain values: the frame at a time, one
// entity's history over a range at a point budget, per-frame statistics over a range, events,
// the entities failed at a time, the summary. Not thread-safe: one thread owns a reader (the
// app's reader thread, a command, a test), and its results are plain structs that travel.
#include "ComposedTraffic.h"
#include "LinkUse.h"
#include "MetricCatalogue.h"
#include "RunStore.h"

#include <QString>

#include <array>
#include <map>
#include <memory>
#include <optional>

namespace cs {

struct RunInfo {
    int64_t run = 0;
    std::string kind, name, topology;
    int64_t wallStartNs = 0;
    int64_t endNs = 0; // a run's time goes from 0 to endNs
    std::string paramsJson, summaryJson;
    std::vector<Metric> metrics; // what the run holds
    uint64_t fingerprint = 0;    // of the topology it was recorded on (topologyFingerprint)
};

// Values of all of a run's per-entity metrics at one time, in their units (NaN: no data).
struct RunFrame {
    int64_t tsNs = 0;
    std::array<std::vector<float>, kMetricCount> values; // empty: the run lacks the metric
    const std::vector<float>& of(Metric m) const { return values[size_t(m)]; }
};

// A series over time; downsampled series hold a bucket's minimum and maximum in turn.
struct Series {
    std::vector<int64_t> tsNs;
    std::vector<double> value;
};

enum class FrameStat : uint8_t { Mean, Min, Max, Sum, P5, P95 };

struct RunEvent {
    int64_t tsNs = 0;
    EventKind kind = EventKind::Step;
    std::optional<Endpoint> entity;
    std::string detail;
};

class RunReader {
public:
    // Opens the store's last run (or `run`). Throws InputException: foreign, damaged, older or
    // newer files, no runs, a run of another topology, frames of the wrong size.
    RunReader(const QString& path, const Topology& t, std::optional<int64_t> run = {});
    ~RunReader();

    // The runs a store holds, oldest first, without their metrics: what a comparison needs
    // before it knows the topology. Throws InputException (a foreign, damaged or empty store).
    static std::vector<RunInfo> runsIn(const QString& path);

    // Reads the run's end, timeline, metrics and events again (a live recording grew); what
    // was stored before is unchanged, so frames already read stay valid. True when the run
    // changed. Throws InputException as the constructor does, keeping the reader as it was.
    bool refresh();

    const RunInfo& info() const { return info_; }
    const Topology& topology() const { return t_; }
    bool has(Metric m) const;

    // One metric's values at tsNs (the frame in force then); one value per entity, NaN where
    // there is no data; empty when the run lacks the metric.
    std::vector<float> frame(Metric m, int64_t tsNs);
    RunFrame frameAt(int64_t tsNs);
    // One entity's values over [fromNs, toNs]: about maxPoints points (bucket min and max).
    Series history(Metric m, int32_t entity, int64_t fromNs, int64_t toNs, int maxPoints);
    // What crosses a link over the pattern playing at tsNs (LinkUse.h): per traffic source its
    // bytes and time on; the link's peak and time at or above `threshold` of its capacity.
    // Recorded runs have no sources, only the peak and the time above. None: no link traffic
    // stored, no such link, or tsNs outside the run.
    std::optional<LinkUse> linkUse(int32_t link, int64_t tsNs, double threshold = 0.8);
    // The `count` links with the highest peak (or the longest time at or above `threshold` of
    // capacity) over the pattern playing at tsNs, hottest first; links that carried nothing
    // are left out. One pass over the pattern's frames.
    std::vector<LinkHeat> hottestLinks(int64_t tsNs, int count, HotBy by, double threshold = 0.8);
    // A per-frame statistic of all entities over [fromNs, toNs].
    Series statHistory(Metric m, FrameStat s, int64_t fromNs, int64_t toNs, int maxPoints);
    // The mean over some entities (a job's GPUs) of each frame over [fromNs, toNs], NaN values
    // left out; empty when the run lacks the metric or an entity is out of range.
    Series meanHistory(Metric m, const std::vector<int32_t>& entities, int64_t fromNs, int64_t toNs,
                       int maxPoints);
    // The traffic of some of the link traffic's sources (a job's, ComposedTraffic.h) over the
    // network tiers, B/s (every direction); empty when the run stores link frames instead.
    Series sourcesHistory(const std::vector<int32_t>& sources, int64_t fromNs, int64_t toNs,
                          int maxPoints);
    // A run-wide series (step time, MFU).
    Series scalars(Metric m, int64_t fromNs, int64_t toNs, int maxPoints);
    // Events other than steps (checkpoints, failures, restarts), in time order.
    const std::vector<RunEvent>& events() const { return events_; }
    std::vector<RunEvent> eventsIn(int64_t fromNs, int64_t toNs) const;
    // Entities down at tsNs: hit by a failure with no restart since, or not yet repaired (a
    // maintenance event on the part after its failure), or down for the whole run (the
    // summary's "failedLinks"). O(failures before tsNs).
    std::vector<Endpoint> failedAt(int64_t tsNs) const;

    // Where a time falls: the pattern playing and the offset into it.
    struct Position {
        int32_t pattern;
        int64_t offsetNs;
    };
    std::optional<Position> locate(int64_t tsNs) const;
    const std::vector<StoredSegment>& timeline() const { return timeline_; }

private:
    struct Stream;
    struct ChangeList;
    void load(std::optional<int64_t> run);
    Stream* stream(Metric m, int32_t pattern);
    void loadComposed(Metric m, Stream& s);
    const std::vector<float>& decoded(Metric m, Stream& s, int32_t frame);
    template <class ListFn>
    Series bucketed(const ListFn& listOf, int64_t fromNs, int64_t toNs, int maxPoints);

    const Topology& t_;
    RunStore store_;
    RunInfo info_;
    std::array<std::optional<StoredMetric>, kMetricCount> metrics_;
    std::vector<StoredPattern> patterns_;
    std::vector<StoredSegment> timeline_;
    std::map<std::pair<Metric, int32_t>, std::unique_ptr<Stream>> streams_;
    std::vector<RunEvent> events_;
    std::vector<int64_t> restartsNs_; // sorted
    struct Failure {
        int64_t atNs, repairedNs; // repairedNs: INT64_MAX unless a maintenance event follows
        Endpoint part;
    };
    std::vector<Failure> failuresNs_; // sorted by time
    std::vector<Endpoint> downWholeRun_;
};

} // namespace cs
