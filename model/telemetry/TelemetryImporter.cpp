#include "TelemetryImporter.h"

#include "SlurmAccounting.h"

#include "BoundedFileRead.h"

#include "InputError.h"
#include "SeriesMapper.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTimeZone>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <unordered_map>

namespace cs {

bool isDcgmSentinel(double v) {
    return v >= 9223372036854775792.0 || v == 140737488355328.0;
}

std::vector<std::pair<int64_t, double>>
countersToRates(const std::vector<std::pair<int64_t, double>>& s) {
    std::vector<std::pair<int64_t, double>> out;
    for (size_t i = 1; i < s.size(); ++i) {
        const double dt = double(s[i].first - s[i - 1].first) / 1e9;
        if (dt <= 0 || std::isnan(s[i].second) || std::isnan(s[i - 1].second)) continue;
        double d = s[i].second - s[i - 1].second;
        if (d < 0) {
            const double prev = s[i - 1].second;
            d = (prev < 4294967296.0 && prev >= 2147483648.0)
                    ? 4294967296.0 - prev + s[i].second // 32-bit wrap
                    : s[i].second;                      // reset to 0
        }
        out.emplace_back(s[i].first, d / dt);
    }
    return out;
}

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

struct Series {
    std::string metric;
    Labels labels;
    std::vector<std::pair<int64_t, double>> samples;
    std::vector<uint32_t> textOf; // per sample: which text (file, answer) it came from
};

std::string seriesKey(const RawSample& s) {
    std::string k = s.metric;
    for (const auto& [a, b] : s.labels)
        k += '\x1f' + a + '=' + b;
    return k;
}

// A series' labels as the exposition format writes them: a="x",b="y".
std::string labelsText(const Labels& labels) {
    std::string text;
    for (const auto& [k, v] : labels)
        text += (text.empty() ? "" : ",") + k + "=\"" + v + "\"";
    return text;
}

// importTelemetryTexts' steps, in order: every text parsed into series, each series mapped
// onto the topology, the tick chosen, the samples binned into frames per tick, the run
// written. Each refusal comes before anything is written.
class TelemetryImport {
public:
    TelemetryImport(const TopologyDocument& doc, const ImportOptions& options)
        : doc_(doc), t_(doc.topology()), options_(options), append_(options.append) {}

    ImportReport run(const std::function<bool(TelemetryText&)>& next, RunStore& store) {
        readTexts(next);
        if (series_.empty() && append_) return report_; // nothing new on the server yet
        if (series_.empty()) refuseNoSamples();
        mapSeries();
        if (mapped_.empty()) refuseNothingMapped();
        checkCountersHaveRates();
        chooseTick();
        binFrames();
        if (append_ && frames_.empty()) return report_; // every sample was stored before
        refuseSpansTooLong();
        writeRun(store);
        return report_;
    }

private:
    struct Mapped {
        SeriesTarget target;
        std::vector<std::pair<int64_t, double>> values;
        std::string metric; // the telemetry's name, for messages
    };

    // Texts handed over one at a time, each parsed and dropped before the next.
    void readTexts(const std::function<bool(TelemetryText&)>& next) {
        TelemetryText in;
        while (next(in))
            readText(in);
        report_.rejectedCount = (long long)rejected_.size();
        rejected_.resize(std::min<size_t>(rejected_.size(), 100));
        report_.rejected = rejected_;
        report_.series = (long long)series_.size();
    }

    void readText(TelemetryText& in) {
        const QByteArray& text = in.text;
        const TelemetryFormat format = in.promAnswer ? TelemetryFormat::PromJson
                                       : in.format == TelemetryFormat::Auto ? detectFormat(text)
                                                                            : in.format;
        const std::string& name = in.name;
        if (firstName_.empty()) firstName_ = name;
        if (!in.source.empty() && !names_.contains(QString::fromStdString(in.source)))
            names_ << QString::fromStdString(in.source);
        const auto textIndex = uint32_t(textNames_.size());
        textNames_.push_back(name);
        // A scrape without times is one instant: --at, else the file's modification time.
        const int64_t untimedNs = options_.untimedAtNs ? *options_.untimedAtNs : in.untimedNs;
        long long untimed = 0;
        auto add = [&](RawSample&& s) {
            if (!in.defaultHost.empty()) nameByFile(s, in.defaultHost);
            if (!s.hasTimestamp) s.tsNs = untimedNs, ++untimed;
            ++report_.samples;
            auto& ser = series_[seriesKey(s)];
            if (ser.metric.empty()) ser.metric = s.metric, ser.labels = s.labels;
            ser.samples.emplace_back(s.tsNs, isDcgmSentinel(s.value) ? std::nan("") : s.value);
            ser.textOf.push_back(textIndex);
        };
        const ParseLimits& limits = options_.limits;
        switch (format) {
        case TelemetryFormat::PromJson:
            if (in.promAnswer)
                parsePromJson(in.promAnswer, name, limits, add, rejected_);
            else
                parsePromJson(text, name, limits, add, rejected_);
            break;
        case TelemetryFormat::Csv:
            parseLongCsv(text, name, limits, add, rejected_);
            break;
        case TelemetryFormat::NvidiaSmiCsv:
            parseNvidiaSmiCsv(text, name, in.defaultHost, limits, add, rejected_);
            break;
        default:
            parseExposition(text, format == TelemetryFormat::OpenMetrics, name, limits, add,
                            rejected_, counterTypes_);
        }
        in.text.clear(); // one text in memory at a time
        in.promAnswer = {};
        if (untimed > 0) {
            report_.untimedSamples += untimed;
            report_.warnings.push_back(
                name + ": " + std::to_string(untimed) + " samples without a time, placed at " +
                QDateTime::fromMSecsSinceEpoch(untimedNs / 1'000'000, QTimeZone::utc())
                    .toString(Qt::ISODateWithMs)
                    .toStdString() +
                (options_.untimedAtNs ? " (--at)" : " (the file's modification time)"));
        }
    }

    // A raw scrape names no host or switch (node_exporter, snmp_exporter and dcgm-exporter as
    // curl shows them): it is the file's, by the file's name.
    static void nameByFile(RawSample& s, const std::string& host) {
        static const char* const kNaming[] = {"instance", "Hostname", "hostname", "node",
                                              "host",     "entity",   "target",   "switch"};
        for (const auto& [k, v] : s.labels)
            for (const char* n : kNaming)
                if (k == n) return;
        s.labels.emplace_back("instance", host);
        std::sort(s.labels.begin(), s.labels.end());
    }

    // Nothing parsed: say why, with the parser's own first reasons.
    [[noreturn]] void refuseNoSamples() const {
        std::string why = "no samples to import";
        for (size_t i = 0; i < rejected_.size() && i < 3; ++i)
            why += (i == 0 ? ": line " : "; line ") + std::to_string(rejected_[i].line) + ": " +
                   rejected_[i].reason;
        if (report_.rejectedCount > 3)
            why += " (" + std::to_string(report_.rejectedCount) + " lines rejected in all)";
        throw InputException({firstName_, 0, 0, {}, why});
    }

    // Time order; two samples of one series at one time (from two files, or one file twice):
    // the later text's wins, with a warning naming both.
    void sortSamples(Series& s) {
        std::vector<uint32_t> order(s.samples.size());
        for (uint32_t i = 0; i < order.size(); ++i)
            order[i] = i;
        std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
            return s.samples[a].first != s.samples[b].first
                       ? s.samples[a].first < s.samples[b].first
                       : s.textOf[a] < s.textOf[b];
        });
        std::vector<std::pair<int64_t, double>> sorted;
        sorted.reserve(order.size());
        for (size_t k = 0; k < order.size(); ++k) {
            const uint32_t i = order[k];
            if (k + 1 < order.size() && s.samples[order[k + 1]].first == s.samples[i].first) {
                ++report_.duplicateSamples;
                if (report_.warnings.size() < 50)
                    report_.warnings.push_back(
                        s.metric + "{" + labelsText(s.labels) + "} at " +
                        std::to_string(s.samples[i].first) + " ns: in " + textNames_[s.textOf[i]] +
                        " and in " + textNames_[s.textOf[order[k + 1]]] + "; the later kept");
                continue;
            }
            sorted.push_back(s.samples[i]);
        }
        s.samples = std::move(sorted);
        s.textOf.clear();
    }

    // Each series in time order, counted, and mapped to its entity (rates for counters).
    void mapSeries() {
        SeriesMapper mapper(doc_, options_.mapFile);
        std::sort(counterTypes_.begin(), counterTypes_.end());
        report_.firstNs = std::numeric_limits<int64_t>::max();
        report_.lastNs = std::numeric_limits<int64_t>::min();
        for (auto& entry : series_) {
            Series& s = entry.second;
            sortSamples(s);
            for (const auto& [ts, v] : s.samples) {
                report_.firstNs = std::min(report_.firstNs, ts);
                report_.lastNs = std::max(report_.lastNs, ts);
                if (std::isnan(v)) ++report_.missingValues;
            }
            for (size_t i = 1; i < s.samples.size() && deltas_.size() < 100000; ++i)
                if (s.samples[i].first > s.samples[i - 1].first)
                    deltas_.push_back(s.samples[i].first - s.samples[i - 1].first);
            const bool declared =
                std::binary_search(counterTypes_.begin(), counterTypes_.end(), s.metric);
            std::string why;
            std::optional<SeriesTarget> target = mapper.map(s.metric, s.labels, declared, &why);
            if (!target) {
                ++report_.unmappedSeries;
                ++report_.unmappedByMetric[s.metric];
                ++report_.unmappedWhy[s.metric][why];
                continue;
            }
            ++report_.mappedSeries;
            ++report_.mappedByMetric[s.metric];
            if (target->kind == EntityKind::Gpu) jobs_.add(s.labels, target->index, s.samples);
            mapped_.push_back(
                {*target, target->counter ? countersToRates(s.samples) : s.samples, s.metric});
        }
    }

    // A counter read once has no rate: a scrape is one sample, a rate needs two. Every
    // mapped series such: refuse, saying so; some: import the rest and warn.
    void checkCountersHaveRates() {
        // Times from the run's t = 0: the run appended to, or this recording's first sample.
        const int64_t originNs = append_ ? append_->wallStartNs : report_.firstNs;
        report_.jobs = jobs_.jobs(t_, originNs);
        if (!options_.jobsFile.isEmpty()) {
            const SlurmJobsRead slurm = loadSacct(
                options_.jobsFile, t_, doc_.index(),
                options_.mapFile.isEmpty() ? SeriesMapping{} : loadSeriesMapping(options_.mapFile),
                originNs);
            report_.jobs = slurm.jobs;
            for (const std::string& h : slurm.unknownHosts)
                if (report_.warnings.size() < 50)
                    report_.warnings.push_back(options_.jobsFile.toStdString() + ": host \"" + h +
                                               "\" is not in the topology; left out of its job");
        }
        if (append_) return; // a live recording's poll may bring one new sample: the next has more
        std::map<std::string, long long> single; // metric -> series
        long long withValues = 0;
        for (const Mapped& m : mapped_) {
            if (!m.values.empty())
                ++withValues;
            else if (m.target.counter)
                ++single[m.metric];
        }
        if (single.empty()) return;
        std::string which;
        for (const auto& [metric, n] : single)
            which += (which.empty() ? "" : ", ") + metric + " (" + std::to_string(n) + " series)";
        const std::string why = "counters read once have no rate (a rate needs two scrapes, "
                                "or a Prometheus server's range): " +
                                which;
        if (withValues == 0) throw InputException({firstName_, 0, 0, {}, why});
        if (report_.warnings.size() < 50) report_.warnings.push_back(why + "; imported the rest");
    }

    // Nothing lands: refuse before anything is written, saying what was seen.
    [[noreturn]] void refuseNothingMapped() {
        std::string why = "no series maps onto topology \"" + t_.name + "\"";
        std::map<std::string, const Series*> example;
        for (const auto& [key, s] : series_)
            example.try_emplace(s.metric, &s);
        int shown = 0;
        for (const auto& [metric, s] : example) {
            if (shown++ == 3) break;
            why += (shown == 1 ? ": " : "; ") + metric + " (" +
                   std::to_string(report_.unmappedByMetric[metric]) + " series, labels ";
            const std::string labels = labelsText(s->labels);
            why += (labels.empty() ? "none" : "{" + labels + "}") + ")";
        }
        why +=
            "; GPU and NIC series need a host label (instance, Hostname, hostname, node, host or "
            "entity, or the mapping file's hostLabel) or a GPU UUID in the mapping file, "
            "switch ports a switch label (instance, target, device or switch), naming "
            "entities of the topology (or renamed by a mapping file)";
        throw InputException({firstName_, 0, 0, {}, why});
    }

    // The run's time grid: the run appended to keeps its own; else --tick, else the median
    // scrape interval. Ticks count from the run's start: this recording's first sample, or the
    // run appended to.
    void chooseTick() {
        std::nth_element(deltas_.begin(), deltas_.begin() + long(deltas_.size() / 2),
                         deltas_.end());
        report_.tickNs = append_               ? append_->tickNs
                         : options_.tickNs > 0 ? options_.tickNs
                         : deltas_.empty()     ? 15'000'000'000LL
                                               : deltas_[deltas_.size() / 2];
        originNs_ = append_ ? append_->wallStartNs : report_.firstNs;
        storedEndNs_ = append_ ? append_->endNs : 0;
    }

    // One series' value on one entity at a tick. Several series on one entity (the MIG
    // instances of a GPU) are combined: a GPU's memory used is their sum, its busy (and power,
    // temperature, clock) their mean; a link keeps the busier of its directions.
    void put(Metric metric, int32_t index, int64_t tick, double v, bool link) {
        auto& frame = frames_[metric][tick];
        if (frame.empty()) frame.assign(entityCount(metricDef(metric).entity, t_), kNaN);
        float& slot = frame[size_t(index)];
        if (std::isnan(slot)) {
            slot = float(v);
            return;
        }
        if (link) {
            slot = std::max(slot, float(v));
            return;
        }
        const uint64_t key = (uint64_t(metric) << 56) ^ (uint64_t(tick / report_.tickNs) << 24) ^
                             uint64_t(uint32_t(index));
        uint16_t& n = merged_.try_emplace(key, uint16_t(1)).first->second;
        slot = metric == Metric::GpuMemoryUsedBytes ? slot + float(v)
                                                    : float((double(slot) * n + v) / (n + 1));
        ++n;
    }

    // Frames: per catalogue metric, per tick, one value per entity (NaN where nothing
    // reported). Within one series the tick's last sample wins. Engine activity stands for
    // busy on GPUs that report no utilisation (MIG), per GPU.
    void binFrames() {
        std::vector<bool> hasUtil(t_.gpus.size(), false);
        for (const Mapped& m : mapped_)
            if (m.target.metric == "DCGM_FI_DEV_GPU_UTIL") hasUtil[size_t(m.target.index)] = true;
        for (const Mapped& m : mapped_) {
            if (!m.target.stored) continue;
            if (m.target.metric == "DCGM_FI_PROF_GR_ENGINE_ACTIVE" &&
                hasUtil[size_t(m.target.index)])
                continue;
            const bool link = m.target.kind == EntityKind::Link;
            // Each sample checked before binning: one impossible sample among a tick's
            // others is counted, not hidden by the tick's last value.
            const MetricDef& stored = metricDef(*m.target.stored);
            const double lo = stored.possibleMin, hi = stored.possibleMax;
            std::map<int64_t, double> perTick;
            for (const auto& [ts, v] : m.values) {
                if (std::isnan(v) || ts < originNs_ + storedEndNs_) continue; // NaN: no sample
                const double x = v * m.target.scale;
                if (!(x >= lo && x <= hi)) { // infinite, or no device reads so
                    ++report_.impossibleValues;
                    if (report_.warnings.size() < 50)
                        report_.warnings.push_back(
                            m.metric + " on " + t_.nameOf({m.target.kind, m.target.index}) +
                            " at " + std::to_string(ts) +
                            " ns: " + QString::number(v, 'g', 6).toStdString() + " is outside " +
                            QString::number(lo / m.target.scale, 'g', 6).toStdString() + " to " +
                            QString::number(hi / m.target.scale, 'g', 6).toStdString() +
                            "; dropped");
                    continue;
                }
                const int64_t tick = (ts - originNs_) / report_.tickNs * report_.tickNs;
                double& slot = perTick.try_emplace(tick, x).first->second;
                // links: tx and rx land on one cable, keep the busier direction
                slot = link ? std::max(slot, x) : x;
            }
            for (const auto& [tick, x] : perTick)
                put(*m.target.stored, m.target.index, tick, x, link);
        }
    }

    // A run holds at most 2^62 ns (146 years, RunStore.h): refuse more than that, before any
    // sum can leave int64.
    void refuseSpansTooLong() const {
        const int64_t spanNs = report_.lastNs - (append_ ? originNs_ : report_.firstNs);
        if (report_.tickNs > kMaxRunNs || spanNs > kMaxRunNs - report_.tickNs)
            throw InputException({firstName_,
                                  0,
                                  0,
                                  {},
                                  "the samples span " + std::to_string(spanNs / 1'000'000'000) +
                                      " s with a tick of " +
                                      std::to_string(report_.tickNs / 1'000'000'000) +
                                      " s; a run holds at most 146 years"});
    }

    // The run's end: one tick after the last sample, or after the last frame appended.
    int64_t runEndNs() const {
        int64_t endNs = report_.lastNs - report_.firstNs + report_.tickNs;
        if (append_) {
            endNs = storedEndNs_;
            for (const auto& [metric, ticks] : frames_)
                endNs = std::max(endNs, ticks.rbegin()->first + report_.tickNs);
        }
        return endNs;
    }

    // A recording is one stretch of frames; each append adds the next stretch after it. XID
    // errors become failure events on their GPU.
    void writeRun(RunStore& store) {
        const int64_t endNs = runEndNs();
        const QJsonObject params{{"files", QJsonArray::fromStringList(names_)},
                                 {"startNs", QString::number(report_.firstNs)},
                                 {"tickNs", double(report_.tickNs)}};
        std::unique_ptr<RunWriter> writer =
            append_
                ? std::make_unique<RunWriter>(store, t_, append_->run)
                : std::make_unique<RunWriter>(
                      store, t_,
                      RunHeader{"recorded", names_.join(", ").toStdString(),
                                QJsonDocument(params).toJson(QJsonDocument::Compact).toStdString(),
                                report_.firstNs});
        RunWriter& w = *writer;
        report_.run = w.run();
        report_.endNs = endNs;
        const int32_t recording =
            w.addPattern(append_ ? "live" : "recording", endNs - storedEndNs_);
        addTierFrames();
        for (const auto& [metric, ticks] : frames_)
            for (const auto& [tick, values] : ticks) {
                w.addFrame(recording, metric, tick - storedEndNs_, values);
                ++report_.frames;
            }
        w.addSegment(storedEndNs_, endNs, recording, 0);
        addXidEvents(w);
        w.finish(endNs,
                 QJsonDocument(report_.toJson()).toJson(QJsonDocument::Compact).toStdString());
    }

    // Link counters give the Network chart its tiers, as a simulation's do: each tier's
    // throughput the sum of its links' (the busier direction of each, as stored), per tick;
    // NaN for a tier none of whose links reported.
    void addTierFrames() {
        const auto links = frames_.find(Metric::LinkBytesPerS);
        if (links == frames_.end() || frames_.count(Metric::TierBytesPerS)) return;
        std::vector<int8_t> tierOf(t_.links.size());
        for (size_t l = 0; l < t_.links.size(); ++l)
            tierOf[l] = int8_t(tierOfLink(t_, int32_t(l)));
        std::map<int64_t, std::vector<float>> tiers;
        for (const auto& [tick, values] : links->second) {
            std::vector<float> sum(kTierCount, kNaN);
            for (size_t l = 0; l < values.size() && l < tierOf.size(); ++l) {
                if (tierOf[l] < 0 || std::isnan(values[l])) continue;
                float& s = sum[size_t(tierOf[l])];
                s = std::isnan(s) ? values[l] : s + values[l];
            }
            tiers.emplace(tick, std::move(sum));
        }
        frames_.emplace(Metric::TierBytesPerS, std::move(tiers));
    }

    // DCGM_FI_DEV_XID_ERRORS holds the last XID: each new one is a failure of the GPU.
    void addXidEvents(RunWriter& w) const {
        for (const Mapped& m : mapped_) {
            if (m.target.metric != "DCGM_FI_DEV_XID_ERRORS") continue;
            double last = 0;
            for (const auto& [ts, v] : m.values) {
                if (!std::isnan(v) && v != 0 && v != last && ts >= originNs_ + storedEndNs_)
                    w.addEvent(ts - originNs_, EventKind::Failure,
                               Endpoint{EntityKind::Gpu, m.target.index},
                               "XID " + std::to_string(int64_t(v)));
                if (!std::isnan(v)) last = v;
            }
        }
    }

    const TopologyDocument& doc_;
    const Topology& t_;
    const ImportOptions& options_;
    const std::optional<ImportAppend>& append_;
    ImportReport report_;
    RecordedJobs jobs_;
    // Read from the texts.
    std::unordered_map<std::string, Series> series_;
    std::vector<std::string> counterTypes_; // metrics their text declares counters
    std::vector<RejectedLine> rejected_;
    std::vector<std::string> textNames_; // per text, for warnings
    std::string firstName_;
    QStringList names_; // the run's sources
    // Mapped, and binned into frames.
    std::vector<Mapped> mapped_;
    std::vector<int64_t> deltas_; // between a series' samples: the scrape interval
    int64_t originNs_ = 0, storedEndNs_ = 0;
    std::map<Metric, std::map<int64_t, std::vector<float>>> frames_;
    std::unordered_map<uint64_t, uint16_t> merged_; // (metric, tick, entity) -> series so far
};

} // namespace

ImportReport importTelemetry(const TopologyDocument& doc, const QStringList& files,
                             const ImportOptions& options, RunStore& store) {
    int i = 0;
    return importTelemetryTexts(
        doc,
        [&](TelemetryText& t) {
            if (i >= files.size()) return false;
            const QString& path = files[i++];
            t.name = path.toStdString();
            t.text = readFileBounded(path, 4LL * 1024 * 1024 * 1024); // split larger files
            t.format = options.format;
            t.defaultHost = QFileInfo(path).completeBaseName().toStdString();
            t.source = QFileInfo(path).fileName().toStdString();
            t.untimedNs = QFileInfo(path).lastModified().toMSecsSinceEpoch() * 1'000'000;
            return true;
        },
        options, store);
}

ImportReport importTelemetryTexts(const TopologyDocument& doc,
                                  const std::function<bool(TelemetryText&)>& next,
                                  const ImportOptions& options, RunStore& store) {
    return TelemetryImport(doc, options).run(next, store);
}

QJsonObject ImportReport::toJson() const {
    QJsonArray warningsJson;
    for (const std::string& w : warnings)
        warningsJson.append(QString::fromStdString(w));
    QJsonObject unmapped, mapped, why;
    for (const auto& [m, n] : unmappedByMetric)
        unmapped.insert(QString::fromStdString(m), double(n));
    for (const auto& [m, n] : mappedByMetric)
        mapped.insert(QString::fromStdString(m), double(n));
    for (const auto& [m, reasons] : unmappedWhy) {
        QJsonObject r;
        for (const auto& [reason, n] : reasons)
            r.insert(QString::fromStdString(reason), double(n));
        why.insert(QString::fromStdString(m), r);
    }
    QJsonArray rej;
    for (const RejectedLine& r : rejected)
        rej.append(QJsonObject{{"file", QString::fromStdString(r.file)},
                               {"line", double(r.line)},
                               {"reason", QString::fromStdString(r.reason)}});
    return QJsonObject{{"run", double(run)},
                       {"samples", double(samples)},
                       {"series", double(series)},
                       {"mappedSeries", double(mappedSeries)},
                       {"unmappedSeries", double(unmappedSeries)},
                       {"unmappedByMetric", unmapped},
                       {"mappedByMetric", mapped},
                       {"unmappedWhy", why},
                       {"missingValues", double(missingValues)},
                       {"frames", double(frames)},
                       {"firstNs", QString::number(firstNs)},
                       {"lastNs", QString::number(lastNs)},
                       {"tickNs", double(tickNs)},
                       {"endNs", QString::number(endNs)},
                       {"rejectedLines", double(rejectedCount)},
                       {"untimedSamples", double(untimedSamples)},
                       {"duplicateSamples", double(duplicateSamples)},
                       {"impossibleValues", double(impossibleValues)},
                       {"warnings", warningsJson},
                       {"rejected", rej},
                       {"jobs", recordedJobsJson(jobs)}};
}

std::string ImportReport::toText() const {
    std::string s = "samples " + std::to_string(samples) + ", series " + std::to_string(series) +
                    " (" + std::to_string(mappedSeries) + " mapped, " +
                    std::to_string(unmappedSeries) + " unmapped), frames " +
                    std::to_string(frames) + ", missing values " + std::to_string(missingValues) +
                    "\n";
    s += "time range " + std::to_string(double(lastNs - firstNs) / 1e9) + " s, tick " +
         std::to_string(double(tickNs) / 1e9) + " s\n";
    // One line per metric and reason, not per series: a scrape can hold thousands.
    for (const auto& [m, reasons] : unmappedWhy)
        for (const auto& [reason, n] : reasons)
            s += "  unmapped: " + m + " (" + std::to_string(n) + " series): " + reason + "\n";
    s += "rejected lines " + std::to_string(rejectedCount) + "\n";
    for (const RejectedLine& r : rejected)
        s += "  " + r.file + ":" + std::to_string(r.line) + ": " + r.reason + "\n";
    if (!jobs.empty()) {
        s += "jobs " + std::to_string(jobs.size()) + ":";
        for (size_t k = 0; k < jobs.size() && k < 20; ++k)
            s += (k ? ", " : " ") + jobs[k].name + " (" + std::to_string(jobs[k].gpus.size()) +
                 " GPUs)";
        s += jobs.size() > 20 ? ", ...\n" : "\n";
    }
    if (duplicateSamples > 0) s += "duplicate samples " + std::to_string(duplicateSamples) + "\n";
    if (impossibleValues > 0)
        s += "impossible values " + std::to_string(impossibleValues) + " (dropped)\n";
    for (const std::string& w : warnings)
        s += "  warning: " + w + "\n";
    return s;
}

} // namespace cs
