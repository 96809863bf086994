#include "RunReader.h"

#include "TopologyFingerprint.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <set>

namespace cs {
namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// A downsampled bucket: its minimum, and its maximum when that differs.
void appendBucket(Series& out, int64_t tsNs, double lo, double hi) {
    out.tsNs.push_back(tsNs);
    out.value.push_back(lo);
    if (hi != lo) {
        out.tsNs.push_back(tsNs);
        out.value.push_back(hi);
    }
}

std::optional<EntityKind> parseEntityKind(const std::string& s) {
    for (int k = 0; k <= int(EntityKind::Link); ++k)
        if (s == toString(EntityKind(k))) return EntityKind(k);
    return std::nullopt;
}

} // namespace

struct RunReader::Stream {
    int64_t metric = 0;
    int32_t pattern = 0;
    size_t entities = 0;
    std::vector<int64_t> offsetNs; // per frame
    std::vector<int32_t> keyOf;    // per frame: the key frame it builds on
    std::vector<FrameStats> stats; // loaded on first use
    // The frame decoded last: playback asks for the next one, a few changes away.
    int32_t cachedFrame = -1;
    std::vector<float> cached;
    // Composed traffic (ComposedTraffic.h) instead of stored frames.
    std::unique_ptr<ComposedTraffic> composed;
    std::vector<std::vector<float>> weights; // per frame
};

// A piecewise-constant series on a pattern's time axis, with its overall range.
struct RunReader::ChangeList {
    std::vector<int64_t> atNs;
    std::vector<float> value;
    double min = NAN, max = NAN;
    void finish() {
        for (float v : value)
            if (!std::isnan(v)) {
                min = std::isnan(min) ? v : std::min(min, double(v));
                max = std::isnan(max) ? v : std::max(max, double(v));
            }
    }
};

RunReader::RunReader(const QString& path, const Topology& t, std::optional<int64_t> run)
    : t_(t), store_(RunStore::openForReading(path)) {
    std::string problem;
    if (!store_.quickCheckOk(&problem))
        throw InputException({path.toStdString(), 0, 0, {}, "damaged: " + problem});
    load(run);
}

std::vector<RunInfo> RunReader::runsIn(const QString& path) {
    RunStore store = RunStore::openForReading(path);
    std::string problem;
    if (!store.quickCheckOk(&problem))
        throw InputException({path.toStdString(), 0, 0, {}, "damaged: " + problem});
    std::vector<RunInfo> infos;
    for (const StoredRun& r : store.runs())
        infos.push_back({r.id,
                         r.kind,
                         r.name,
                         r.topology,
                         r.wallStartNs,
                         r.endNs,
                         r.paramsJson,
                         r.summaryJson,
                         {},
                         r.fingerprint});
    if (infos.empty()) throw InputException({path.toStdString(), 0, 0, {}, "holds no runs"});
    return infos;
}

bool RunReader::refresh() {
    const int64_t endNs = info_.endNs;
    const size_t segments = timeline_.size(), events = events_.size();
    load(info_.run);
    return info_.endNs != endNs || timeline_.size() != segments || events_.size() != events;
}

void RunReader::load(std::optional<int64_t> run) {
    const Topology& t = t_;
    auto refuse = [&](const std::string& why) {
        throw InputException({store_.path(), 0, 0, {}, why});
    };
    const std::vector<StoredRun> runs = store_.runs();
    if (runs.empty()) refuse("holds no runs");
    const StoredRun* r = &runs.back();
    if (run) {
        r = nullptr;
        for (const StoredRun& x : runs)
            if (x.id == *run) r = &x;
        if (!r) refuse("has no run " + std::to_string(*run));
    }
    // Times beyond 2^62 ns (146 years) are refused: any two of them then add up inside int64.
    auto outside = [](int64_t ns) { return ns < 0 || ns > kMaxRunNs; };
    if (outside(r->endNs))
        refuse("the run's end (" + std::to_string(r->endNs) + " ns) is not from 0 to 146 years");
    if (r->topology != t.name || r->fingerprint != topologyFingerprint(t))
        refuse("the run was recorded on topology \"" + r->topology +
               "\", not on the open topology \"" + t.name +
               (r->topology == t.name ? "\" (same name, other entities)" : "\""));
    // Read everything first: a refused refresh leaves the reader as it was.
    RunInfo info{r->id,    r->kind,       r->name,        r->topology, r->wallStartNs,
                 r->endNs, r->paramsJson, r->summaryJson, {},         r->fingerprint};
    std::array<std::optional<StoredMetric>, kMetricCount> metrics;
    for (const StoredMetric& m : store_.metrics(r->id)) {
        const auto metric = metricByName(m.name);
        if (!metric)
            refuse("unknown metric \"" + m.name + "\" (this build knows " + metricNames() + ")");
        const MetricDef& d = metricDef(*metric);
        if (m.entityKind != toString(d.entity) ||
            (d.entity != MetricEntity::Run && size_t(m.entities) != entityCount(d.entity, t)))
            refuse("metric " + m.name + " holds " + std::to_string(m.entities) + " " +
                   m.entityKind + " values, the topology has " +
                   std::to_string(entityCount(d.entity, t)));
        metrics[size_t(*metric)] = m;
        info.metrics.push_back(*metric);
    }
    std::vector<StoredPattern> patterns = store_.patterns(r->id);
    for (const StoredPattern& p : patterns)
        if (outside(p.durationNs))
            refuse("pattern " + std::to_string(p.pattern) + " lasts " +
                   std::to_string(p.durationNs) + " ns, not from 0 to 146 years");
    std::vector<StoredSegment> timeline = store_.timeline(r->id);
    for (const StoredSegment& s : timeline)
        if (s.pattern < 0 || size_t(s.pattern) >= patterns.size() || s.endNs <= s.startNs ||
            s.periodNs < 0 || outside(s.startNs) || outside(s.endNs) || outside(s.periodNs))
            refuse("timeline segment at " + std::to_string(s.startNs) + " ns is malformed");
    std::vector<RunEvent> events;
    std::vector<int64_t> restarts;
    std::vector<std::pair<int64_t, Endpoint>> failures;
    for (const StoredEvent& e : store_.events(r->id, false, 1'000'000)) {
        const auto kind = parseEventKind(e.kind);
        if (!kind) refuse("unknown event kind \"" + e.kind + "\"");
        RunEvent ev{e.tsNs, *kind, std::nullopt, e.detail};
        if (const auto k = parseEntityKind(e.entityKind))
            if (e.entity >= 0 &&
                size_t(e.entity) < (*k == EntityKind::Link ? t.links.size() : t.count(*k)))
                ev.entity = Endpoint{*k, int32_t(e.entity)};
        if (*kind == EventKind::Restart) restarts.push_back(e.tsNs);
        if (*kind == EventKind::Failure && ev.entity) failures.emplace_back(e.tsNs, *ev.entity);
        events.push_back(std::move(ev));
    }
    // A part repaired later (a maintenance event on it) stays down until then, through the
    // restarts between; the rest are down until the next restart moves the job off them.
    std::map<std::pair<int, int32_t>, std::vector<int64_t>> maintenanceOf; // sorted times
    for (const RunEvent& ev : events)
        if (ev.kind == EventKind::Maintenance && ev.entity)
            maintenanceOf[{int(ev.entity->kind), ev.entity->index}].push_back(ev.tsNs);
    std::vector<Failure> downs;
    for (const auto& [atNs, part] : failures) {
        int64_t repairedNs = std::numeric_limits<int64_t>::max();
        if (const auto m = maintenanceOf.find({int(part.kind), part.index});
            m != maintenanceOf.end())
            if (const auto later = std::upper_bound(m->second.begin(), m->second.end(), atNs);
                later != m->second.end())
                repairedNs = *later;
        downs.push_back({atNs, repairedNs, part});
    }
    // Parts down for the whole run: the summary's "failedLinks" (fabric.failed).
    std::vector<Endpoint> whole;
    const QJsonObject summary =
        QJsonDocument::fromJson(QByteArray::fromStdString(info.summaryJson)).object();
    for (const QJsonValue v : summary.value("failedLinks").toArray())
        if (v.isDouble() && v.toDouble() >= 0 && v.toDouble() < double(t.links.size()))
            whole.push_back({EntityKind::Link, int32_t(v.toDouble())});
    info_ = std::move(info);
    metrics_ = metrics;
    patterns_ = std::move(patterns);
    timeline_ = std::move(timeline);
    events_ = std::move(events);
    restartsNs_ = std::move(restarts);
    failuresNs_ = std::move(downs);
    downWholeRun_ = std::move(whole);
}

RunReader::~RunReader() = default;

bool RunReader::has(Metric m) const {
    return metrics_[size_t(m)].has_value();
}

std::optional<RunReader::Position> RunReader::locate(int64_t tsNs) const {
    auto it = std::upper_bound(timeline_.begin(), timeline_.end(), tsNs,
                               [](int64_t t, const StoredSegment& s) { return t < s.startNs; });
    if (it == timeline_.begin()) return std::nullopt;
    const StoredSegment& s = *--it;
    // The run's last instant belongs to the last segment.
    if (tsNs >= s.endNs && !(std::next(it) == timeline_.end() && tsNs == s.endNs))
        return std::nullopt;
    const int64_t into = tsNs - s.startNs;
    return Position{s.pattern, s.periodNs > 0 ? into % s.periodNs : into};
}

RunReader::Stream* RunReader::stream(Metric m, int32_t pattern) {
    auto& kept = streams_[{m, pattern}];
    if (!kept) {
        // Built aside: a stream refused half-way is not kept, so asking again refuses again.
        auto slot = std::make_unique<Stream>();
        slot->metric = metrics_[size_t(m)]->id;
        slot->pattern = pattern;
        slot->entities = entityCount(metricDef(m).entity, t_);
        int32_t key = -1;
        const std::vector<StoredFrameRef> refs = store_.frameRefs(info_.run, slot->metric, pattern);
        if (refs.empty()) loadComposed(m, *slot);
        for (const StoredFrameRef& f : refs) {
            if (f.frame != int32_t(slot->offsetNs.size()))
                throw InputException(
                    {store_.path(), 0, 0, {}, "damaged: frames are not contiguous"});
            if (f.key) key = f.frame;
            if (key < 0)
                throw InputException(
                    {store_.path(), 0, 0, {}, "damaged: a pattern starts without a key frame"});
            slot->offsetNs.push_back(f.offsetNs);
            slot->keyOf.push_back(key);
        }
        kept = std::move(slot);
    }
    return kept.get();
}

void RunReader::loadComposed(Metric m, Stream& s) {
    std::vector<RunStore::ComposedFrame> frames =
        store_.composedFrames(info_.run, s.metric, s.pattern);
    if (frames.empty()) return;
    auto traffic = std::make_unique<ComposedTraffic>();
    store_.readComposedSources(
        info_.run, s.metric, s.pattern, [&](int32_t source, bool, const void* data, size_t bytes) {
            const auto* p = static_cast<const unsigned char*>(data);
            auto damaged = [&](const std::string& what) {
                throw InputException(
                    {store_.path(), 0, 0, "composed_sources",
                     "damaged: traffic source " + std::to_string(source) + " " + what});
            };
            // Sorted, in range, whole entries: readers search them and index by them. Slots:
            // link directions for link traffic, else the metric's entities.
            const bool links = m == Metric::LinkBytesPerS;
            const size_t entities = s.entities, slotCount = links ? 2 * t_.links.size() : entities;
            if (source < 0) {
                if (bytes % 4 != 0) damaged("holds " + std::to_string(bytes) + " bytes");
                traffic->noData.resize(bytes / 4);
                if (bytes > 0) std::memcpy(traffic->noData.data(), p, bytes);
                for (size_t i = 0; i < traffic->noData.size(); ++i)
                    if (traffic->noData[i] >= entities ||
                        (i > 0 && traffic->noData[i] <= traffic->noData[i - 1]))
                        damaged("names entities out of order or range");
                return;
            }
            if (source != int32_t(traffic->sources.size()))
                throw InputException(
                    {store_.path(), 0, 0, {}, "damaged: traffic sources are not contiguous"});
            if (bytes % 8 != 0) damaged("holds " + std::to_string(bytes) + " bytes");
            TrafficSource src;
            src.rates.resize(bytes / 8);
            if (bytes > 0) std::memcpy(src.rates.data(), p, bytes);
            for (size_t i = 0; i < src.rates.size(); ++i)
                if (src.rates[i].first >= slotCount ||
                    (i > 0 && src.rates[i].first <= src.rates[i - 1].first))
                    damaged("has slots out of order or range");
            traffic->sources.push_back(std::move(src));
        });
    for (RunStore::ComposedFrame& f : frames) {
        if (f.weights.size() != traffic->sources.size())
            throw InputException({store_.path(),
                                  0,
                                  0,
                                  {},
                                  "damaged: a composed frame's weights do not match its sources"});
        s.offsetNs.push_back(f.offsetNs);
        s.keyOf.push_back(int32_t(s.weights.size()));
        s.weights.push_back(std::move(f.weights));
    }
    s.composed = std::move(traffic);
}

const std::vector<float>& RunReader::decoded(Metric m, Stream& s, int32_t frame) {
    if (s.cachedFrame == frame) return s.cached;
    if (s.composed) {
        if (m == Metric::LinkBytesPerS)
            composeLinkFrame(t_, *s.composed, s.weights[size_t(frame)], s.cached);
        else
            composeEntityFrame(s.entities, *s.composed, s.weights[size_t(frame)], s.cached);
        s.cachedFrame = frame;
        return s.cached;
    }
    const int32_t key = s.keyOf[size_t(frame)];
    const bool onward = s.cachedFrame >= key && s.cachedFrame < frame;
    const int32_t from = onward ? s.cachedFrame + 1 : key;
    s.cached.resize(s.entities);
    auto damaged = [&](const char* what) {
        s.cachedFrame = -1;
        throw InputException(
            {store_.path(), 0, 0, metricDef(m).name,
             std::string("damaged: ") + what + " in frame " + std::to_string(frame)});
    };
    int32_t expected = from;
    store_.readFrames(info_.run, s.metric, s.pattern, from, frame,
                      [&](int32_t f, bool isKey, const void* data, size_t bytes) {
                          if (f != expected++) damaged("a missing frame");
                          if (isKey) {
                              if (bytes != s.entities * sizeof(float))
                                  damaged("a key frame of the wrong size");
                              if (bytes) std::memcpy(s.cached.data(), data, bytes);
                              return;
                          }
                          if (bytes % 8 != 0) damaged("a change list of the wrong size");
                          const auto* p = static_cast<const unsigned char*>(data);
                          for (size_t i = 0; i < bytes; i += 8) {
                              uint32_t entity;
                              float v;
                              std::memcpy(&entity, p + i, 4);
                              std::memcpy(&v, p + i + 4, 4);
                              if (entity >= s.entities) damaged("a change to an unknown entity");
                              s.cached[entity] = v;
                          }
                      });
    if (expected != frame + 1) damaged("a missing frame");
    s.cachedFrame = frame;
    return s.cached;
}

std::vector<float> RunReader::frame(Metric m, int64_t tsNs) {
    if (!has(m) || metricDef(m).entity == MetricEntity::Run) return {};
    const size_t n = entityCount(metricDef(m).entity, t_);
    const auto pos = locate(tsNs);
    if (!pos) return std::vector<float>(n, kNaN);
    Stream* s = stream(m, pos->pattern);
    const auto it = std::upper_bound(s->offsetNs.begin(), s->offsetNs.end(), pos->offsetNs);
    if (it == s->offsetNs.begin()) return std::vector<float>(n, kNaN); // before its first frame
    return decoded(m, *s, int32_t(it - s->offsetNs.begin()) - 1);
}

RunFrame RunReader::frameAt(int64_t tsNs) {
    RunFrame f;
    f.tsNs = tsNs;
    for (Metric m : info_.metrics)
        if (metricDef(m).entity != MetricEntity::Run) f.values[size_t(m)] = frame(m, tsNs);
    return f;
}

// Buckets [fromNs, toNs] into maxPoints / 2 intervals and gives each its minimum and maximum
// over the timeline: a piece of a segment that covers a whole period takes the pattern's
// range, a shorter piece the changes inside its window.
template <class ListFn>
Series RunReader::bucketed(const ListFn& listOf, int64_t fromNs, int64_t toNs, int maxPoints) {
    Series out;
    // Inside the times a run can hold: the sums below then stay in int64.
    fromNs = std::clamp<int64_t>(fromNs, 0, kMaxRunNs);
    toNs = std::clamp<int64_t>(toNs, 0, kMaxRunNs);
    if (toNs < fromNs || timeline_.empty()) return out;
    const int buckets = std::max(1, maxPoints / 2);
    const double width = std::max(1.0, double(toNs - fromNs + 1) / buckets);
    std::map<int32_t, const ChangeList*> lists;
    auto list = [&](int32_t p) -> const ChangeList& {
        auto& l = lists[p];
        if (!l) l = &listOf(p);
        return *l;
    };
    auto window = [](const ChangeList& c, int64_t a, int64_t b, double& lo, double& hi) {
        size_t i = size_t(std::upper_bound(c.atNs.begin(), c.atNs.end(), a) - c.atNs.begin());
        auto take = [&](float v) {
            if (std::isnan(v)) return;
            lo = std::isnan(lo) ? v : std::min(lo, double(v));
            hi = std::isnan(hi) ? v : std::max(hi, double(v));
        };
        if (i > 0) take(c.value[i - 1]);
        for (; i < c.atNs.size() && c.atNs[i] < b; ++i)
            take(c.value[i]);
    };
    size_t seg =
        size_t(std::upper_bound(timeline_.begin(), timeline_.end(), fromNs,
                                [](int64_t t, const StoredSegment& s) { return t < s.startNs; }) -
               timeline_.begin());
    if (seg > 0) --seg;
    for (int b = 0; b < buckets; ++b) {
        const auto b0 = int64_t(double(fromNs) + b * width);
        const int64_t b1 = b + 1 == buckets ? toNs + 1 : int64_t(double(fromNs) + (b + 1) * width);
        if (b1 <= b0) continue;
        while (seg + 1 < timeline_.size() && timeline_[seg].endNs <= b0)
            ++seg;
        double lo = NAN, hi = NAN;
        for (size_t k = seg; k < timeline_.size() && timeline_[k].startNs < b1; ++k) {
            const StoredSegment& s = timeline_[k];
            const int64_t a = std::max(b0, s.startNs);
            // The run's last instant still belongs to its last segment.
            const int64_t e = std::min(b1, k + 1 == timeline_.size() ? s.endNs + 1 : s.endNs);
            if (e <= a) continue;
            const ChangeList& c = list(s.pattern);
            if (s.periodNs > 0 && e - a >= s.periodNs) {
                if (!std::isnan(c.min)) {
                    lo = std::isnan(lo) ? c.min : std::min(lo, c.min);
                    hi = std::isnan(hi) ? c.max : std::max(hi, c.max);
                }
                continue;
            }
            const int64_t oa = s.periodNs > 0 ? (a - s.startNs) % s.periodNs : a - s.startNs;
            const int64_t ob = oa + (e - a);
            if (s.periodNs > 0 && ob > s.periodNs) {
                window(c, oa, s.periodNs, lo, hi);
                window(c, 0, ob - s.periodNs, lo, hi);
            } else {
                window(c, oa, ob, lo, hi);
            }
        }
        if (!std::isnan(lo)) appendBucket(out, b0, lo, hi);
    }
    return out;
}

Series RunReader::history(Metric m, int32_t entity, int64_t fromNs, int64_t toNs, int maxPoints) {
    if (!has(m) || entity < 0 || size_t(entity) >= entityCount(metricDef(m).entity, t_)) return {};
    std::map<int32_t, ChangeList> lists;
    auto listOf = [&](int32_t p) -> const ChangeList& {
        ChangeList& c = lists[p];
        Stream* s = stream(m, p);
        if (s->offsetNs.empty()) return c;
        if (s->composed) { // the entity's value in each frame, from its share of every source
            const bool links = m == Metric::LinkBytesPerS;
            std::vector<std::pair<float, float>> linkRates;
            std::vector<float> rates;
            if (links)
                linkRates = ratesOfLink(*s->composed, uint32_t(entity));
            else
                rates = ratesOfEntity(*s->composed, uint32_t(entity));
            const bool noData = std::binary_search(s->composed->noData.begin(),
                                                   s->composed->noData.end(), uint32_t(entity));
            for (size_t f = 0; f < s->weights.size(); ++f) {
                const float v = links ? composedLinkValue(t_, *s->composed, linkRates,
                                                          s->weights[f], noData, uint32_t(entity))
                                      : composedEntityValue(rates, s->weights[f], noData);
                if (!c.value.empty() &&
                    (v == c.value.back() || (std::isnan(v) && std::isnan(c.value.back()))))
                    continue;
                c.atNs.push_back(s->offsetNs[f]);
                c.value.push_back(v);
            }
            c.finish();
            return c;
        }
        const auto lastChunk = int32_t((s->offsetNs.size() - 1) / kHistoryChunkFrames);
        store_.readHistory(info_.run, s->metric, p, entity, 0, lastChunk,
                           [&](int32_t, bool, const void* data, size_t bytes) {
                               const auto* q = static_cast<const unsigned char*>(data);
                               for (size_t i = 0; i + 8 <= bytes; i += 8) {
                                   int32_t f;
                                   float v;
                                   std::memcpy(&f, q + i, 4);
                                   std::memcpy(&v, q + i + 4, 4);
                                   if (f < 0 || size_t(f) >= s->offsetNs.size()) continue;
                                   c.atNs.push_back(s->offsetNs[size_t(f)]);
                                   c.value.push_back(v);
                               }
                           });
        c.finish();
        return c;
    };
    return bucketed(listOf, fromNs, toNs, maxPoints);
}

std::optional<LinkUse> RunReader::linkUse(int32_t link, int64_t tsNs, double threshold) {
    const Metric m = Metric::LinkBytesPerS;
    if (!has(m) || link < 0 || size_t(link) >= t_.links.size()) return std::nullopt;
    const std::optional<Position> at = locate(tsNs);
    if (!at) return std::nullopt;
    Stream* s = stream(m, at->pattern);
    const auto pattern =
        std::find_if(patterns_.begin(), patterns_.end(),
                     [&](const StoredPattern& p) { return p.pattern == at->pattern; });
    if (s->offsetNs.empty() || pattern == patterns_.end()) return std::nullopt;
    LinkUse use;
    use.pattern = pattern->name;
    use.patternS = double(pattern->durationNs) / 1e9;
    use.capacityBps = capacityOf(m, t_, link);
    use.threshold = threshold;
    // Frame f holds from its offset to the next frame's (the last: to the pattern's end).
    auto durationS = [&](size_t f) {
        const int64_t end = f + 1 < s->offsetNs.size() ? s->offsetNs[f + 1] : pattern->durationNs;
        return std::max(0.0, double(end - s->offsetNs[f]) / 1e9);
    };
    auto account = [&](size_t f, float v) {
        if (std::isnan(v)) return;
        use.peakBps = std::max(use.peakBps, double(v));
        if (use.capacityBps > 0 && v >= threshold * use.capacityBps) use.aboveS += durationS(f);
    };
    if (s->composed) {
        const auto rates = ratesOfLink(*s->composed, uint32_t(link));
        const bool noData = std::binary_search(s->composed->noData.begin(),
                                               s->composed->noData.end(), uint32_t(link));
        std::vector<LinkSourceUse> perSource(rates.size());
        for (size_t f = 0; f < s->weights.size() && f < s->offsetNs.size(); ++f) {
            account(f, composedLinkValue(t_, *s->composed, rates, s->weights[f], noData,
                                         uint32_t(link)));
            for (size_t k = 0; k < rates.size() && k < s->weights[f].size(); ++k) {
                const double bps = double(s->weights[f][k]) * (rates[k].first + rates[k].second);
                if (!(bps > 0)) continue;
                perSource[k].bytes += bps * durationS(f);
                perSource[k].activeS += durationS(f);
            }
        }
        for (size_t k = 0; k < perSource.size(); ++k)
            if (perSource[k].bytes > 0) {
                perSource[k].source = int32_t(k);
                use.sources.push_back(perSource[k]);
            }
        std::sort(use.sources.begin(), use.sources.end(),
                  [](const LinkSourceUse& a, const LinkSourceUse& b) { return a.bytes > b.bytes; });
        return use;
    }
    // Stored frames (a recording): the link's value frame by frame.
    for (size_t f = 0; f < s->offsetNs.size(); ++f)
        account(f, decoded(m, *s, int32_t(f))[size_t(link)]);
    return use;
}

std::vector<LinkHeat> RunReader::hottestLinks(int64_t tsNs, int count, HotBy by, double threshold) {
    const Metric m = Metric::LinkBytesPerS;
    const std::optional<Position> at = has(m) ? locate(tsNs) : std::nullopt;
    if (!at || count <= 0) return {};
    Stream* s = stream(m, at->pattern);
    const auto pattern =
        std::find_if(patterns_.begin(), patterns_.end(),
                     [&](const StoredPattern& p) { return p.pattern == at->pattern; });
    if (s->offsetNs.empty() || pattern == patterns_.end()) return {};
    std::vector<double> capacity(t_.links.size());
    for (size_t l = 0; l < capacity.size(); ++l)
        capacity[l] = capacityOf(m, t_, int32_t(l));
    std::vector<LinkHeat> heat(t_.links.size());
    for (size_t f = 0; f < s->offsetNs.size(); ++f) {
        const int64_t end = f + 1 < s->offsetNs.size() ? s->offsetNs[f + 1] : pattern->durationNs;
        const double durationS = std::max(0.0, double(end - s->offsetNs[f]) / 1e9);
        const std::vector<float>& v = decoded(m, *s, int32_t(f));
        for (size_t l = 0; l < heat.size() && l < v.size(); ++l) {
            if (!(v[l] > 0) || !(capacity[l] > 0)) continue;
            const double fraction = double(v[l]) / capacity[l];
            heat[l].peakFraction = std::max(heat[l].peakFraction, fraction);
            if (fraction >= threshold) heat[l].aboveS += durationS;
        }
    }
    for (size_t l = 0; l < heat.size(); ++l)
        heat[l].link = int32_t(l);
    std::erase_if(heat, [](const LinkHeat& h) { return h.peakFraction <= 0; });
    auto hotter = [by](const LinkHeat& a, const LinkHeat& b) {
        if (by == HotBy::TimeAbove && a.aboveS != b.aboveS) return a.aboveS > b.aboveS;
        if (a.peakFraction != b.peakFraction) return a.peakFraction > b.peakFraction;
        return a.aboveS > b.aboveS;
    };
    const size_t n = std::min(heat.size(), size_t(count));
    std::partial_sort(heat.begin(), heat.begin() + ptrdiff_t(n), heat.end(), hotter);
    heat.resize(n);
    return heat;
}

Series RunReader::statHistory(Metric m, FrameStat st, int64_t fromNs, int64_t toNs, int maxPoints) {
    if (!has(m)) return {};
    std::map<int32_t, ChangeList> lists;
    auto listOf = [&](int32_t p) -> const ChangeList& {
        ChangeList& c = lists[p];
        Stream* s = stream(m, p);
        if (s->stats.empty() && !s->offsetNs.empty())
            s->stats = store_.frameStats(info_.run, s->metric, p);
        for (size_t f = 0; f < s->stats.size() && f < s->offsetNs.size(); ++f) {
            const FrameStats& x = s->stats[f];
            const double v = st == FrameStat::Mean  ? x.mean
                             : st == FrameStat::Min ? x.min
                             : st == FrameStat::Max ? x.max
                             : st == FrameStat::Sum ? x.sum
                             : st == FrameStat::P5  ? x.p5
                                                    : x.p95;
            c.atNs.push_back(s->offsetNs[f]);
            c.value.push_back(float(v));
        }
        c.finish();
        return c;
    };
    return bucketed(listOf, fromNs, toNs, maxPoints);
}

Series RunReader::meanHistory(Metric m, const std::vector<int32_t>& entities, int64_t fromNs,
                              int64_t toNs, int maxPoints) {
    if (!has(m) || entities.empty()) return {};
    const size_t count = entityCount(metricDef(m).entity, t_);
    for (int32_t e : entities)
        if (e < 0 || size_t(e) >= count) return {};
    std::map<int32_t, ChangeList> lists;
    auto listOf = [&](int32_t p) -> const ChangeList& {
        ChangeList& c = lists[p];
        Stream* s = stream(m, p);
        // A few frames per point at most: a long recording's frames are not all decoded.
        const size_t frames = s->offsetNs.size();
        const size_t stride = std::max<size_t>(1, frames / size_t(std::max(1, 4 * maxPoints)));
        for (size_t f = 0; f < frames; f += stride) {
            const std::vector<float>& v = decoded(m, *s, int32_t(f));
            double sum = 0;
            size_t n = 0;
            for (int32_t e : entities)
                if (size_t(e) < v.size() && std::isfinite(v[size_t(e)])) sum += v[size_t(e)], ++n;
            c.atNs.push_back(s->offsetNs[f]);
            c.value.push_back(n ? float(sum / double(n)) : NAN);
        }
        c.finish();
        return c;
    };
    return bucketed(listOf, fromNs, toNs, maxPoints);
}

Series RunReader::sourcesHistory(const std::vector<int32_t>& sources, int64_t fromNs, int64_t toNs,
                                 int maxPoints) {
    const Metric m = Metric::LinkBytesPerS;
    if (!has(m) || sources.empty()) return {};
    std::map<int32_t, ChangeList> lists;
    auto listOf = [&](int32_t p) -> const ChangeList& {
        ChangeList& c = lists[p];
        Stream* s = stream(m, p);
        if (!s->composed) return c; // stored frames: no sources to tell apart
        // Each source's bytes per second over the tiers, at weight 1.
        std::vector<std::pair<size_t, double>> rateOf;
        for (int32_t k : sources) {
            if (k < 0 || size_t(k) >= s->composed->sources.size()) continue;
            double sum = 0;
            for (const auto& [direction, rate] : s->composed->sources[size_t(k)].rates)
                if (tierOfLink(t_, int32_t(direction / 2)) >= 0) sum += rate;
            rateOf.emplace_back(size_t(k), sum);
        }
        for (size_t f = 0; f < s->weights.size() && f < s->offsetNs.size(); ++f) {
            double v = 0;
            for (const auto& [k, rate] : rateOf)
                if (k < s->weights[f].size()) v += double(s->weights[f][k]) * rate;
            if (!c.value.empty() && float(v) == c.value.back()) continue;
            c.atNs.push_back(s->offsetNs[f]);
            c.value.push_back(float(v));
        }
        c.finish();
        return c;
    };
    return bucketed(listOf, fromNs, toNs, maxPoints);
}

Series RunReader::scalars(Metric m, int64_t fromNs, int64_t toNs, int maxPoints) {
    Series out;
    if (!has(m)) return out;
    std::vector<std::pair<int64_t, double>> all =
        store_.scalars(info_.run, metrics_[size_t(m)]->id);
    std::erase_if(all, [&](const auto& p) { return p.first < fromNs || p.first > toNs; });
    const size_t buckets = size_t(std::max(1, maxPoints / 2));
    if (all.size() <= size_t(std::max(1, maxPoints))) {
        for (const auto& [ts, v] : all) {
            out.tsNs.push_back(ts);
            out.value.push_back(v);
        }
        return out;
    }
    const double width = (double(toNs) - double(fromNs) + 1) / double(buckets); // no int64 sum
    size_t i = 0;
    for (size_t b = 0; b < buckets && i < all.size(); ++b) {
        const double end = double(fromNs) + double(b + 1) * width;
        if (double(all[i].first) >= end) continue;
        double lo = all[i].second, hi = lo;
        const int64_t at = all[i].first;
        for (; i < all.size() && double(all[i].first) < end; ++i) {
            lo = std::min(lo, all[i].second);
            hi = std::max(hi, all[i].second);
        }
        appendBucket(out, at, lo, hi);
    }
    return out;
}

std::vector<RunEvent> RunReader::eventsIn(int64_t fromNs, int64_t toNs) const {
    auto lo = std::lower_bound(events_.begin(), events_.end(), fromNs,
                               [](const RunEvent& e, int64_t t) { return e.tsNs < t; });
    std::vector<RunEvent> out;
    for (; lo != events_.end() && lo->tsNs <= toNs; ++lo)
        out.push_back(*lo);
    return out;
}

std::vector<Endpoint> RunReader::failedAt(int64_t tsNs) const {
    // Parts down for the whole run; failures after the last restart at or before tsNs, up to
    // tsNs, not yet repaired; and earlier ones whose repair is still to come. In that order,
    // each once (a part down for the whole run is also a failure event at the run's start).
    const auto r = std::upper_bound(restartsNs_.begin(), restartsNs_.end(), tsNs);
    const int64_t since = r == restartsNs_.begin() ? std::numeric_limits<int64_t>::min() : *(r - 1);
    std::vector<Endpoint> out;
    std::set<std::pair<int, int32_t>> seen;
    auto add = [&](const Endpoint& e) {
        if (seen.insert({int(e.kind), e.index}).second) out.push_back(e);
    };
    for (const Endpoint& e : downWholeRun_)
        add(e);
    auto it = std::upper_bound(failuresNs_.begin(), failuresNs_.end(), since,
                               [](int64_t t, const Failure& f) { return t < f.atNs; });
    for (; it != failuresNs_.end() && it->atNs <= tsNs; ++it)
        if (tsNs < it->repairedNs) add(it->part);
    for (const Failure& f : failuresNs_) {
        if (f.atNs > since) break;
        if (f.repairedNs != std::numeric_limits<int64_t>::max() && tsNs < f.repairedNs) add(f.part);
    }
    return out;
}

} // namespace cs
