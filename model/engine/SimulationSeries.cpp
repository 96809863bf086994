#include "SimulationSeries.h"

#include "TopologyFile.h"

#include "RankPlacement.h"
#include "RunOptions.h"
#include "RunSpecJson.h"
#include "RunSummaryJson.h"
#include "SitePower.h"
#include "StageGantt.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>
#include <cmath>
#include <limits>

namespace cs {
namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

int64_t toNs(double s) {
    return int64_t(std::llround(s * 1e9));
}

// Time of [t0, t1) covered by sorted, disjoint intervals; `from` walks forward with t0.
double covered(const std::vector<Interval>& iv, size_t& from, double t0, double t1) {
    while (from < iv.size() && iv[from].toS <= t0)
        ++from;
    double sum = 0;
    for (size_t i = from; i < iv.size() && iv[i].fromS < t1; ++i)
        sum += std::max(0.0, std::min(t1, iv[i].toS) - std::max(t0, iv[i].fromS));
    return sum;
}

double total(const std::vector<Interval>& iv) {
    double sum = 0;
    for (const Interval& i : iv)
        sum += i.toS - i.fromS;
    return sum;
}

// Bytes per edge a class moved over [t0, t1), from its rate segments (sorted, disjoint);
// `from` walks forward with t0.
double moved(const std::vector<RateSegment>& seg, size_t& from, double t0, double t1) {
    while (from < seg.size() && seg[from].toS <= t0)
        ++from;
    double sum = 0;
    for (size_t i = from; i < seg.size() && seg[i].fromS < t1; ++i)
        sum +=
            seg[i].bytesPerS * std::max(0.0, std::min(t1, seg[i].toS) - std::max(t0, seg[i].fromS));
    return sum;
}

// One traffic source of the step (a stage's DP collectives, one direction of a boundary's
// sends, a stage's CP rings). Its link directions carry `traffic.rates` times the source's
// weight in a frame: for transfers the weight is the bytes per edge they moved per second
// in the frame, at the rates the event engine gave them (so a collective slowed by another
// shows slower); for CP, the fraction of the frame its stage computes.
struct Source {
    TrafficSource traffic;
    std::vector<Interval> active;                         // CP: when it is on
    std::vector<const std::vector<RateSegment>*> classes; // transfers: their rates
    std::vector<size_t> cursors;
    size_t cursor = 0;
    double tierBps[kTierCount] = {0, 0, 0};
    double weight(double t0, double t1) {
        const double width = std::max(1e-12, t1 - t0);
        if (classes.empty()) return covered(active, cursor, t0, t1) / width;
        double bytes = 0;
        for (size_t i = 0; i < classes.size(); ++i)
            bytes += moved(*classes[i], cursors[i], t0, t1);
        return bytes / width;
    }
};

void setRates(Source& s, const Topology& t, const std::vector<float>& bytes, double per) {
    if (per <= 0) return;
    for (size_t r = 0; r < bytes.size(); ++r) {
        if (bytes[r] <= 0) continue;
        const auto rate = float(bytes[r] / per);
        s.traffic.rates.emplace_back(uint32_t(r), rate);
        const int tier = tierOfLink(t, int32_t(r / 2));
        if (tier >= 0) s.tierBps[tier] += rate;
    }
}

// Transfers: link bytes per byte moved on an edge, weighted by the classes' rates.
Source transferSource(const Topology& t, const std::vector<float>& bytes,
                      std::vector<const std::vector<RateSegment>*> classes) {
    Source s;
    double perEdge = 0;
    for (const auto* seg : classes)
        for (const RateSegment& x : *seg)
            perEdge += x.bytesPerS * (x.toS - x.fromS);
    s.classes = std::move(classes);
    s.cursors.assign(s.classes.size(), 0);
    setRates(s, t, bytes, perEdge);
    return s;
}

// CP rings: the stage's bytes over its compute time, while it computes.
Source sourceOf(const Topology& t, const std::vector<float>& bytes, std::vector<Interval> active) {
    Source s;
    std::sort(active.begin(), active.end(), [](auto& a, auto& b) { return a.fromS < b.fromS; });
    s.active = std::move(active);
    setRates(s, t, bytes, total(s.active));
    return s;
}

struct Pause {
    int64_t fromNs, toNs;
    int kind; // 0 checkpoint, 1 down
};

// Down intervals (merged) win over checkpoints that overlap them.
std::vector<Pause> pauses(const RunSpec& spec, const RunResult& r, int64_t endNs) {
    std::vector<Pause> down;
    for (const Interruption& x : r.interruptions)
        down.push_back({toNs(x.atS), std::min(endNs, toNs(x.atS + x.lostS)), 1});
    std::sort(down.begin(), down.end(), [](auto& a, auto& b) { return a.fromNs < b.fromNs; });
    std::vector<Pause> merged;
    for (const Pause& d : down) {
        if (d.toNs <= d.fromNs) continue;
        if (!merged.empty() && d.fromNs <= merged.back().toNs)
            merged.back().toNs = std::max(merged.back().toNs, d.toNs);
        else
            merged.push_back(d);
    }
    std::vector<Pause> out;
    const int64_t every = toNs(spec.checkpointIntervalS), lasts = toNs(r.checkpointS);
    size_t m = 0;
    for (int64_t c = every; every > 0 && lasts > 0 && c < endNs; c += every) {
        while (m < merged.size() && merged[m].toNs <= c) {
            out.push_back(merged[m]);
            ++m;
        }
        const int64_t cEnd = std::min(endNs, c + lasts);
        if (m < merged.size() && merged[m].fromNs < cEnd) continue; // a failure takes it over
        if (!out.empty() && out.back().toNs > c) continue;
        out.push_back({c, cEnd, 0});
    }
    for (; m < merged.size(); ++m)
        out.push_back(merged[m]);
    return out;
}

// writeRunSeries' steps, in the order the run store receives them: the step's traffic
// sources, the step, checkpoint and down patterns, the timeline, its events, the summary.
class RunSeriesWriter {
public:
    RunSeriesWriter(const TopologyDocument& doc, const RunSpec& spec, const RunResult& r,
                    RunStore& store, const ProgressFn& progress)
        : t_(doc.topology()), params_(doc.params()), spec_(spec), r_(r), e_(r.step),
          sched_(*r.step.schedule), progress_(progress),
          // The run file of the run is its parameters: it runs again as it is.
          w_(store, t_,
             {"simulated", spec.model + " on " + t_.name,
              QJsonDocument(runSpecToJson(spec)).toJson(QJsonDocument::Compact).toStdString(), 0}),
          stageOfGpu_(t_.gpus.size(), -1), idleLinks_(t_.links.size(), kNaN), busy_(t_.gpus.size()),
          power_(sitePowerModel(t_)) {
        if (power_) power_ = power_->withGpuLimit(spec.parallel.gpuPowerLimitW);
        for (size_t rank = 0; rank < e_.gpuOfRank.size(); ++rank)
            stageOfGpu_[size_t(e_.gpuOfRank[rank])] = coordOf(spec.parallel, int(rank)).p;
        // Backend cables carry the stored traffic; NVLink and PCIe hold no value.
        for (size_t l = 0; l < t_.links.size(); ++l) {
            const LinkMedium m = t_.links[l].medium;
            if (m == LinkMedium::Fibre || m == LinkMedium::CopperDac) idleLinks_[l] = 0;
        }
    }

    void write() {
        addTrafficSources();
        ComposedTraffic traffic;
        for (const Source& src : sources_)
            traffic.sources.push_back(src.traffic);
        for (size_t l = 0; l < t_.links.size(); ++l)
            if (std::isnan(idleLinks_[l])) traffic.noData.push_back(uint32_t(l));
        const int32_t step = writeStep(traffic);
        const int32_t checkpoint = writeCheckpoint(traffic.noData);
        const int32_t down = writeDown();
        const int64_t endNs = std::max<int64_t>(1, toNs(r_.simulatedS));
        writeTimeline(endNs, step, checkpoint, down);
        writeEvents(endNs);
        if (progress_) progress_(0.9);
        w_.finish(endNs,
                  QJsonDocument(storedSummary()).toJson(QJsonDocument::Compact).toStdString());
    }

private:
    // The summary, and the design the run was made on when the topology has one (generator
    // parameters): a comparison or a re-run can then rebuild the topology from the store.
    QJsonObject storedSummary() const {
        QJsonObject summary = runSummaryJson(r_, spec_);
        summary.insert("trafficSources", sourceNames_);
        // The slowest stage's step part by part, for the timeline's phase bands.
        QJsonArray segments;
        if (!e_.breakdown.segments.empty())
            for (const StepSegment& x : e_.breakdown.segments[size_t(e_.breakdown.slowestStage)])
                segments.append(QJsonArray{x.fromS, x.toS, int(x.part)});
        summary.insert("stepSegments",
                       QJsonObject{{"stage", e_.breakdown.slowestStage}, {"segments", segments}});
        // Each stage's passes and collectives, for the inspector's Gantt of a GPU; 1/2000 of
        // the step is finer than a pixel of it.
        summary.insert("stageGantt",
                       ganttJson(ganttOfStep(sched_, e_.breakdown, sched_.stepS / 2000)));
        if (params_)
            summary.insert("design", QJsonDocument::fromJson(
                                         paramsTopologyDocument(t_.name, *params_, t_.description))
                                         .object());
        return summary;
    }

    // Traffic sources of the stepped schedule: each stage's DP collectives, each boundary's
    // sends, the TP rings that cross the fabric, the CP rings.
    void addTrafficSources() {
        const ScheduleClasses& classes = sched_.classes;
        const auto& rates = sched_.rates;
        for (int st = 0; st < int(e_.dpLinkBytes.size()) && st < classes.stages; ++st) {
            sources_.push_back(transferSource(
                t_, e_.dpLinkBytes[size_t(st)],
                {&rates[size_t(classes.gather(st))], &rates[size_t(classes.reduce(st))]}));
            nameSource("DP", QStringLiteral("DP collectives of stage %1").arg(st));
        }
        for (int b = 0; b < classes.boundaries; ++b) {
            const int next = (b + 1) % classes.stages; // the last boundary wraps to stage 0
            sources_.push_back(transferSource(t_, e_.ppLinkBytes[size_t(b)],
                                              {&rates[size_t(classes.sendForward(b))]}));
            // DualPipe: each way carries one direction's activations and the other's gradients.
            const bool dual = sched_.dualPipe;
            nameSource("PP", (dual ? QStringLiteral("PP sends, stage %1 to %2")
                                   : QStringLiteral("PP activations, stage %1 to %2"))
                                 .arg(b)
                                 .arg(next));
            sources_.push_back(transferSource(t_, e_.ppLinkBytes[size_t(classes.boundaries + b)],
                                              {&rates[size_t(classes.sendBackward(b))]}));
            nameSource("PP", (dual ? QStringLiteral("PP sends, stage %1 to %2")
                                   : QStringLiteral("PP gradients, stage %1 to %2"))
                                 .arg(next)
                                 .arg(b));
        }
        // TP rings that cross the fabric (a placement spreading TP groups over hosts).
        for (int st = 0; st < int(e_.tpLinkBytes.size()) && st < classes.stages; ++st) {
            sources_.push_back(
                transferSource(t_, e_.tpLinkBytes[size_t(st)], {&rates[size_t(classes.tp(st))]}));
            nameSource("TP", QStringLiteral("TP collectives of stage %1").arg(st));
        }
        // CP collectives run inside each layer's passes: spread over the stage's compute.
        for (size_t st = 0; st < e_.cpLinkBytes.size() && st < sched_.compute.size(); ++st) {
            sources_.push_back(sourceOf(t_, e_.cpLinkBytes[st], sched_.compute[st]));
            nameSource("CP", QStringLiteral("CP ring of stage %1").arg(st));
        }
        // Expert all-to-alls: bursts while each MoE layer's exposed all-to-all runs; overlapped
        // with compute, spread over it.
        for (size_t st = 0; st < e_.epLinkBytes.size() && st < sched_.compute.size(); ++st) {
            const auto& bursts = sched_.epExposed[st];
            sources_.push_back(
                sourceOf(t_, e_.epLinkBytes[st], bursts.empty() ? sched_.compute[st] : bursts));
            nameSource("EP", QStringLiteral("EP all-to-all of stage %1").arg(st));
        }
    }

    // What a traffic source is, for the summary's "trafficSources" (in the sources' order): a
    // selected link lists the sources that cross it by these names.
    void nameSource(const char* kind, const QString& name) {
        sourceNames_.append(QJsonObject{{"kind", kind}, {"name", name}});
    }

    // Storage: spread over the Tectonic servers (each at most its attachment).
    std::vector<float> storageFrame(double totalBps) const {
        std::vector<float> v(t_.storage.size(), 0.f);
        size_t tectonic = 0;
        for (const StorageServer& s : t_.storage)
            tectonic += s.kind == StorageKind::Tectonic;
        for (size_t s = 0; s < t_.storage.size(); ++s)
            if (t_.storage[s].kind == StorageKind::Tectonic && tectonic > 0)
                v[s] = float(std::min(totalBps / double(tectonic),
                                      capacityOf(Metric::StorageBytesPerS, t_, int32_t(s))));
        return v;
    }

    // One value per GPU from its stage's; GPUs outside the job hold no value.
    template <typename ValueOfStage> const std::vector<float>& gpuFrame(ValueOfStage valueOf) {
        for (size_t g = 0; g < t_.gpus.size(); ++g)
            busy_[g] = stageOfGpu_[g] < 0 ? kNaN : float(valueOf(stageOfGpu_[g]));
        return busy_;
    }

    // Each stage's GPUs at rate 1, and the GPUs outside the job with no value.
    ComposedTraffic stageSources(size_t stages) const {
        ComposedTraffic c;
        c.sources.resize(stages);
        for (size_t g = 0; g < t_.gpus.size(); ++g) {
            const int stage = stageOfGpu_[g];
            if (stage < 0 || size_t(stage) >= stages)
                c.noData.push_back(uint32_t(g));
            else
                c.sources[size_t(stage)].rates.push_back({uint32_t(g), 1.f});
        }
        return c;
    }

    // The site's power in the frame gpuFrame last filled: each GPU between idle and its limit
    // by its busy, the rest constant. Not stored for a GPU model without power figures.
    void addSitePower(int32_t pattern, int64_t offsetNs) {
        if (!power_) return;
        double busySum = 0;
        for (float b : busy_)
            if (!std::isnan(b)) busySum += b;
        w_.addFrame(pattern, Metric::SitePowerW, offsetNs, {float(power_->powerW(busySum))});
    }

    // The stepped schedule at full resolution: GPUs busy while their stage computes (not
    // while a pass waits for its TP or CP), links loaded while the collectives and sends that
    // cross them run; data loading on the storage servers.
    int32_t writeStep(const ComposedTraffic& traffic) {
        stepNs_ = std::max<int64_t>(1, toNs(e_.stepS));
        const int64_t intervalNs = std::max(toNs(spec_.resolutionS),
                                            (stepNs_ + kMaxFramesPerStep - 1) / kMaxFramesPerStep);
        const int32_t step = w_.addPattern("step", stepNs_);
        const int frames = int((stepNs_ + intervalNs - 1) / intervalNs);
        const auto& busyOf =
            sched_.busy.size() == sched_.compute.size() ? sched_.busy : sched_.compute;
        std::vector<size_t> computeCursor(busyOf.size(), 0);
        std::vector<double> stageBusy(busyOf.size(), 0);
        w_.setComposedTraffic(step, Metric::LinkBytesPerS, traffic);
        // GPU busy the same way: one source per stage, on its GPUs, weighted by how much of
        // the frame the stage computes (every GPU of a stage is as busy as the stage).
        w_.setComposedTraffic(step, Metric::GpuBusy, stageSources(busyOf.size()));
        std::vector<float> busyWeights(busyOf.size());
        std::vector<float> weights(sources_.size());
        const std::vector<float> dataLoading = storageFrame(e_.tokensPerS * 4);
        for (int k = 0; k < frames; ++k) {
            const double t0 = double(k) * double(intervalNs) / 1e9;
            const double t1 = std::min(e_.stepS, t0 + double(intervalNs) / 1e9);
            const double width = std::max(1e-12, t1 - t0);
            for (size_t st = 0; st < busyOf.size(); ++st)
                stageBusy[st] = covered(busyOf[st], computeCursor[st], t0, t1) / width;
            gpuFrame([&](int stage) { return stageBusy[size_t(stage)]; }); // for site power
            for (size_t st = 0; st < busyOf.size(); ++st)
                busyWeights[st] = float(stageBusy[st]);
            w_.addComposedFrame(step, Metric::GpuBusy, k * intervalNs, busyWeights);
            addSitePower(step, k * intervalNs);
            // How much of each source is on in this frame; the store composes the links from it.
            std::vector<float> tiers(kTierCount, 0.f);
            for (size_t i = 0; i < sources_.size(); ++i) {
                Source& src = sources_[i];
                weights[i] = float(src.weight(t0, t1));
                for (int q = 0; q < kTierCount; ++q)
                    tiers[size_t(q)] += weights[i] * float(src.tierBps[q]);
            }
            w_.addComposedFrame(step, Metric::LinkBytesPerS, k * intervalNs, weights);
            w_.addFrame(step, Metric::TierBytesPerS, k * intervalNs, tiers);
            if (k == 0) w_.addFrame(step, Metric::StorageBytesPerS, 0, dataLoading);
            if (progress_ && k % 64 == 0) progress_(0.3 + 0.5 * double(k) / frames);
        }
        return step;
    }

    // A checkpoint: GPUs wait while the training state goes to Tectonic.
    int32_t writeCheckpoint(const std::vector<uint32_t>& noData) {
        const int64_t ckptNs = std::max<int64_t>(1, toNs(r_.checkpointS));
        const int32_t checkpoint = w_.addPattern("checkpoint", ckptNs);
        w_.addFrame(checkpoint, Metric::GpuBusy, 0, gpuFrame([](int) { return 0.0; }));
        addSitePower(checkpoint, 0);
        ComposedTraffic writes;
        writes.sources = {r_.checkpointFlows.links};
        writes.noData = noData;
        w_.setComposedTraffic(checkpoint, Metric::LinkBytesPerS, writes);
        w_.addComposedFrame(checkpoint, Metric::LinkBytesPerS, 0, {1.f});
        w_.addFrame(checkpoint, Metric::TierBytesPerS, 0, std::vector<float>(kTierCount, 0.f));
        w_.addFrame(checkpoint, Metric::StorageBytesPerS, 0,
                    r_.checkpointFlows.totalBps > 0
                        ? r_.checkpointFlows.serverBps
                        : storageFrame(spec_.storage.sustainedBytesPerS));
        return checkpoint;
    }

    // Down: from a failure to the restart, nothing runs.
    int32_t writeDown() {
        const int32_t down = w_.addPattern("down", 1);
        w_.addFrame(down, Metric::GpuBusy, 0, gpuFrame([](int) { return 0.0; }));
        addSitePower(down, 0);
        w_.addFrame(down, Metric::LinkBytesPerS, 0, idleLinks_);
        w_.addFrame(down, Metric::TierBytesPerS, 0, std::vector<float>(kTierCount, 0.f));
        w_.addFrame(down, Metric::StorageBytesPerS, 0, storageFrame(0));
        return down;
    }

    // The timeline: training stretches (a new step starts with each) between pauses.
    void writeTimeline(int64_t endNs, int32_t step, int32_t checkpoint, int32_t down) {
        int64_t at = 0;
        auto train = [&](int64_t until) {
            if (until <= at) return;
            w_.addSegment(at, until, step, stepNs_);
            w_.addScalar(Metric::StepTimeS, at, e_.stepS);
            w_.addScalar(Metric::Mfu, at, e_.mfu);
        };
        for (const Pause& p : pauses(spec_, r_, endNs)) {
            train(p.fromNs);
            w_.addSegment(p.fromNs, p.toNs, p.kind == 0 ? checkpoint : down, 0);
            w_.addScalar(Metric::Mfu, p.fromNs, 0.0);
            at = p.toNs;
        }
        train(endNs);
    }

    // Failures and restarts, checkpoints, and the steps of a stepped run (at most 100,000 of
    // each kind).
    void writeEvents(int64_t endNs) {
        for (const Interruption& x : r_.interruptions) {
            const auto& cause = failureCauses()[size_t(x.cause)];
            w_.addEvent(toNs(x.atS), cause.planned ? EventKind::Maintenance : EventKind::Failure,
                        x.entity, cause.name);
            w_.addEvent(toNs(x.atS + x.lostS), EventKind::Restart, std::nullopt, cause.name);
            if (x.degradedS > 0) // back to full speed once the part is replaced
                w_.addEvent(toNs(x.atS + x.lostS + x.degradedS), EventKind::Maintenance, x.entity,
                            "repaired; steps ran " + std::to_string(x.degradedStepS) +
                                " s instead of " + std::to_string(e_.stepS) + " s until now");
        }
        // Parts down for the whole run, there from the start.
        for (int32_t l : r_.failedLinks)
            w_.addEvent(0, EventKind::Failure, Endpoint{EntityKind::Link, l},
                        "down for the whole run (fabric.failed)");
        const int64_t every = toNs(spec_.checkpointIntervalS);
        long long checkpoints = 0;
        for (int64_t c = every; every > 0 && c < endNs && checkpoints < 100000;
             c += every, ++checkpoints)
            w_.addEvent(c, EventKind::Checkpoint, std::nullopt,
                        std::to_string(r_.checkpointBytes / 1e12) + " TB");
        if (spec_.steps > 0)
            for (long long s = 0; s < std::min<long long>(r_.steps, 100000); ++s)
                w_.addEvent(s * stepNs_, EventKind::Step, std::nullopt, std::to_string(s));
    }

    const Topology& t_;
    const std::optional<SiteParams>& params_;
    const RunSpec& spec_;
    const RunResult& r_;
    const StepEstimate& e_;
    const ScheduleResult& sched_;
    const ProgressFn& progress_;
    RunWriter w_;
    std::vector<int> stageOfGpu_;
    std::vector<float> idleLinks_; // 0 on backend cables, NaN elsewhere
    std::vector<float> busy_;      // the frame gpuFrame fills
    std::optional<SitePowerModel> power_;
    std::vector<Source> sources_;
    QJsonArray sourceNames_;
    int64_t stepNs_ = 1;
};

} // namespace

void writeRunSeries(const TopologyDocument& doc, const RunSpec& spec, const RunResult& r,
                    RunStore& store, const ProgressFn& progress) {
    RunSeriesWriter(doc, spec, r, store, progress).write();
}

} // namespace cs
