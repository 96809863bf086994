#include "RunWriter.h"

#include "TopologyFingerprint.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace cs {
namespace {

bool sameBits(float a, float b) {
    return std::memcmp(&a, &b, sizeof a) == 0;
}

struct Change {
    uint32_t entity;
    float value;
};
static_assert(sizeof(Change) == 8);

struct HistoryEntry {
    uint32_t entity;
    int32_t frame;
    float value;
};

} // namespace

struct RunWriter::Stream {
    int64_t metric = 0;
    int32_t pattern = 0;
    size_t entities = 0;
    bool percentiles = false;
    std::vector<float> previous;
    int32_t frame = 0; // next frame index
    int64_t lastOffsetNs = -1;
    size_t bytesSinceKey = 0;
    int framesSinceKey = 0;
    std::vector<HistoryEntry> chunk; // this chunk's entries, in frame order
};

FrameStats statsOf(const std::vector<float>& values, bool percentiles) {
    FrameStats s;
    std::vector<float> present;
    if (percentiles) present.reserve(values.size());
    double sum = 0, lo = INFINITY, hi = -INFINITY;
    for (float v : values) {
        if (std::isnan(v)) continue;
        ++s.count;
        sum += v;
        lo = std::min(lo, double(v));
        hi = std::max(hi, double(v));
        if (percentiles) present.push_back(v);
    }
    if (s.count == 0) {
        s.mean = s.min = s.max = s.p5 = s.p95 = NAN;
        return s;
    }
    s.sum = sum;
    s.mean = sum / double(s.count);
    s.min = lo;
    s.max = hi;
    s.p5 = s.p95 = NAN;
    if (percentiles) {
        const size_t a = present.size() / 20,
                     b = std::min(present.size() - 1, present.size() * 19 / 20);
        std::nth_element(present.begin(), present.begin() + long(a), present.end());
        s.p5 = present[a];
        std::nth_element(present.begin(), present.begin() + long(b), present.end());
        s.p95 = present[b];
    }
    return s;
}

RunWriter::RunWriter(RunStore& store, const Topology& t, const RunHeader& h)
    : store_(store), t_(t) {
    if (h.kind != "simulated" && h.kind != "recorded")
        throw std::invalid_argument("run kind: simulated or recorded");
    store_.begin();
    StoredRun r;
    r.kind = h.kind;
    r.name = h.name;
    r.topology = t.name;
    r.fingerprint = topologyFingerprint(t);
    r.wallStartNs = h.wallStartNs;
    r.paramsJson = h.paramsJson;
    run_ = store_.addRun(r);
}

RunWriter::RunWriter(RunStore& store, const Topology& t, int64_t existingRun)
    : store_(store), t_(t), run_(existingRun) {
    std::optional<StoredRun> found;
    for (const StoredRun& r : store_.runs())
        if (r.id == existingRun) found = r;
    if (!found)
        throw InputException(
            {store_.path(), 0, 0, {}, "has no run " + std::to_string(existingRun)});
    if (found->topology != t.name || found->fingerprint != topologyFingerprint(t))
        throw InputException({store_.path(),
                              0,
                              0,
                              {},
                              "run " + std::to_string(existingRun) +
                                  " was recorded on topology \"" + found->topology +
                                  "\", not on \"" + t.name + "\""});
    store_.begin();
    for (const StoredMetric& m : store_.metrics(run_))
        if (const auto metric = metricByName(m.name)) metricIds_[*metric] = m.id;
    // Ids continue after the highest stored, known to this build or not.
    for (const StoredMetric& m : store_.metrics(run_))
        nextMetricId_ = std::max(nextMetricId_, m.id + 1);
    for (const StoredPattern& p : store_.patterns(run_))
        patterns_ = std::max(patterns_, p.pattern + 1);
}

RunWriter::~RunWriter() {
    if (finished_) return;
    try {
        store_.rollback();
    } catch (...) { // a destructor must not throw; the store rolls back when closed anyway
    }
}

int64_t RunWriter::metricId(Metric m) {
    if (auto it = metricIds_.find(m); it != metricIds_.end()) return it->second;
    const MetricDef& d = metricDef(m);
    const int64_t id = nextMetricId_++;
    store_.addMetric(run_, {id, d.name, d.unit, std::string(toString(d.entity)),
                            int64_t(entityCount(d.entity, t_))});
    metricIds_[m] = id;
    return id;
}

int32_t RunWriter::addPattern(const std::string& name, int64_t durationNs) {
    const int32_t p = patterns_++;
    store_.addPattern(run_, {p, name, durationNs});
    return p;
}

void RunWriter::addFrame(int32_t pattern, Metric m, int64_t offsetNs,
                         const std::vector<float>& values) {
    const MetricDef& d = metricDef(m);
    if (d.entity == MetricEntity::Run) throw std::invalid_argument("run-wide metric as a frame");
    if (pattern < 0 || pattern >= patterns_) throw std::invalid_argument("unknown pattern");
    auto& slot = streams_[{pattern, m}];
    if (!slot) {
        slot = std::make_unique<Stream>();
        slot->metric = metricId(m);
        slot->pattern = pattern;
        slot->entities = entityCount(d.entity, t_);
        slot->percentiles = d.aggregation == Aggregation::Mean;
    }
    Stream& s = *slot;
    if (values.size() != s.entities)
        throw std::invalid_argument(std::string(d.name) + ": frame size differs from the topology");
    if (offsetNs <= s.lastOffsetNs) throw std::invalid_argument("frame offsets must increase");
    if (s.frame > 0 && s.frame % kHistoryChunkFrames == 0) flushHistory(s);
    const bool chunkStart = s.frame % kHistoryChunkFrames == 0;

    std::vector<Change> changes;
    if (s.frame > 0)
        for (size_t i = 0; i < values.size(); ++i)
            if (!sameBits(values[i], s.previous[i])) changes.push_back({uint32_t(i), values[i]});
    // A key frame when reading the changes since the last one would cost more than a whole
    // frame: any frame is then at most two frames' bytes away.
    const size_t fullBytes = values.size() * sizeof(float);
    const size_t changeBytes = changes.size() * sizeof(Change);
    const bool key =
        s.frame == 0 || s.bytesSinceKey + changeBytes > fullBytes || s.framesSinceKey >= 255;
    const StoredFrameRef ref{s.frame, offsetNs, key};
    if (key) {
        store_.addFrame(run_, s.metric, pattern, ref, values.data(), fullBytes);
        s.bytesSinceKey = 0;
        s.framesSinceKey = 0;
        ++counts_.keyFrames;
    } else {
        store_.addFrame(run_, s.metric, pattern, ref, changes.data(), changeBytes);
        s.bytesSinceKey += changeBytes;
        ++s.framesSinceKey;
    }
    store_.addFrameStats(run_, s.metric, pattern, s.frame, statsOf(values, s.percentiles));
    // History: every entity's value at the chunk's first frame, then its changes.
    if (chunkStart) {
        for (size_t i = 0; i < values.size(); ++i)
            s.chunk.push_back({uint32_t(i), s.frame, values[i]});
    } else {
        for (const Change& c : changes)
            s.chunk.push_back({c.entity, s.frame, c.value});
    }
    counts_.changedValues += (long long)(s.frame == 0 ? values.size() : changes.size());
    ++counts_.frames;
    s.previous = values;
    s.lastOffsetNs = offsetNs;
    ++s.frame;
}

void RunWriter::flushHistory(Stream& s) {
    if (s.chunk.empty()) return;
    const int32_t chunk = s.chunk.front().frame / kHistoryChunkFrames;
    // Group by entity, keeping frame order (a counting sort).
    std::vector<uint32_t> start(s.entities + 1, 0);
    for (const HistoryEntry& e : s.chunk)
        ++start[e.entity + 1];
    for (size_t i = 0; i < s.entities; ++i)
        start[i + 1] += start[i];
    std::vector<std::pair<int32_t, float>> grouped(s.chunk.size());
    std::vector<uint32_t> next(start.begin(), start.end() - 1);
    for (const HistoryEntry& e : s.chunk)
        grouped[next[e.entity]++] = {e.frame, e.value};
    static_assert(sizeof(std::pair<int32_t, float>) == 8);
    for (size_t i = 0; i < s.entities; ++i) {
        const size_t n = start[i + 1] - start[i];
        if (n == 0) continue;
        store_.addHistory(run_, s.metric, s.pattern, int32_t(i), chunk, &grouped[start[i]],
                          n * sizeof(std::pair<int32_t, float>));
        ++counts_.historyRows;
    }
    s.chunk.clear();
}

void RunWriter::setComposedTraffic(int32_t pattern, Metric m, const ComposedTraffic& traffic) {
    const MetricDef& d = metricDef(m);
    if (d.entity == MetricEntity::Run) throw std::invalid_argument("run-wide metric composed");
    if (pattern < 0 || pattern >= patterns_) throw std::invalid_argument("unknown pattern");
    // Slots: a link's two directions for link traffic, else the entity itself.
    const size_t slotCount =
        m == Metric::LinkBytesPerS ? 2 * t_.links.size() : entityCount(d.entity, t_);
    for (const TrafficSource& src : traffic.sources)
        if (!src.rates.empty() && src.rates.back().first >= slotCount)
            throw std::invalid_argument("a composed source names a slot past the metric's");
    if (streams_.count({pattern, m}) || composed_.count({pattern, m}))
        throw std::invalid_argument("the pattern already has frames of this metric");
    const int64_t id = metricId(m);
    for (size_t k = 0; k < traffic.sources.size(); ++k) {
        const auto& rates = traffic.sources[k].rates;
        static_assert(sizeof(rates[0]) == 8);
        store_.addComposedSource(run_, id, pattern, int32_t(k), rates.data(), rates.size() * 8);
    }
    store_.addComposedSource(run_, id, pattern, -1, traffic.noData.data(),
                             traffic.noData.size() * sizeof(uint32_t));
    composed_[{pattern, m}].traffic = traffic;
}

void RunWriter::addComposedFrame(int32_t pattern, Metric m, int64_t offsetNs,
                                 const std::vector<float>& weights) {
    auto it = composed_.find({pattern, m});
    if (it == composed_.end()) throw std::invalid_argument("no composed traffic for the pattern");
    Composed& c = it->second;
    if (weights.size() != c.traffic.sources.size())
        throw std::invalid_argument("one weight per traffic source");
    if (offsetNs <= c.lastOffsetNs) throw std::invalid_argument("frame offsets must increase");
    const int64_t id = metricId(m);
    store_.addComposedFrame(run_, id, pattern, c.frame, offsetNs, weights.data(),
                            weights.size() * sizeof(float));
    std::vector<float> values;
    const MetricDef& d = metricDef(m);
    if (m == Metric::LinkBytesPerS)
        composeLinkFrame(t_, c.traffic, weights, values);
    else
        composeEntityFrame(entityCount(d.entity, t_), c.traffic, weights, values);
    store_.addFrameStats(run_, id, pattern, c.frame,
                         statsOf(values, d.aggregation == Aggregation::Mean));
    c.lastOffsetNs = offsetNs;
    ++c.frame;
    ++counts_.frames;
}

void RunWriter::addSegment(int64_t startNs, int64_t endNs, int32_t pattern, int64_t periodNs) {
    if (pattern < 0 || pattern >= patterns_) throw std::invalid_argument("unknown pattern");
    if (endNs <= startNs || periodNs < 0) throw std::invalid_argument("empty segment");
    store_.addSegment(run_, {startNs, endNs, pattern, periodNs});
}

void RunWriter::addScalar(Metric m, int64_t tsNs, double value) {
    store_.addScalar(run_, metricId(m), tsNs, value);
}

void RunWriter::addEvent(int64_t tsNs, EventKind kind, std::optional<Endpoint> entity,
                         const std::string& detail) {
    store_.addEvent(run_, {tsNs, std::string(toString(kind)),
                           entity ? std::string(toString(entity->kind)) : "run",
                           entity ? entity->index : 0, detail});
}

void RunWriter::finish(int64_t endNs, const std::string& summaryJson) {
    for (auto& [key, s] : streams_)
        flushHistory(*s);
    store_.finishRun(run_, endNs, summaryJson);
    store_.commit();
    finished_ = true;
}

} // namespace cs
