#include "SimulationSeries.h"

#include "RankPlacement.h"

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

} // namespace

void writeRunSeries(const TopologyDocument& doc, const RunSpec& spec, const RunResult& r,
                    RunStore& store, const ProgressFn& progress) {
    const Topology& t = doc.topology();
    const StepEstimate& e = r.step;
    const QByteArray params = QJsonDocument(runSummaryJson(r, spec).value("config").toObject())
                                  .toJson(QJsonDocument::Compact);
    RunWriter w(store, t, {"simulated", spec.model + " on " + t.name, params.toStdString(), 0});

    std::vector<int> stageOfGpu(t.gpus.size(), -1);
    for (size_t rank = 0; rank < e.gpuOfRank.size(); ++rank)
        stageOfGpu[size_t(e.gpuOfRank[rank])] = coordOf(spec.parallel, int(rank)).p;
    // Backend cables carry the stored traffic; NVLink and PCIe hold no value.
    std::vector<float> idleLinks(t.links.size(), kNaN);
    for (size_t l = 0; l < t.links.size(); ++l) {
        const LinkMedium m = t.links[l].medium;
        if (m == LinkMedium::Fibre || m == LinkMedium::CopperDac) idleLinks[l] = 0;
    }
    // Traffic sources of the stepped schedule: each stage's DP collectives, each boundary's
    // sends.
    const ScheduleResult& sched = *e.schedule;
    std::vector<Source> sources;
    const ScheduleClasses& classes = sched.classes;
    for (int st = 0; st < int(e.dpLinkBytes.size()) && st < classes.stages; ++st)
        sources.push_back(transferSource(
            t, e.dpLinkBytes[size_t(st)],
            {&sched.rates[size_t(classes.gather(st))], &sched.rates[size_t(classes.reduce(st))]}));
    for (int b = 0; b < classes.boundaries; ++b) {
        sources.push_back(transferSource(t, e.ppLinkBytes[size_t(b)],
                                         {&sched.rates[size_t(classes.sendForward(b))]}));
        sources.push_back(transferSource(t, e.ppLinkBytes[size_t(classes.boundaries + b)],
                                         {&sched.rates[size_t(classes.sendBackward(b))]}));
    }
    // TP rings that cross the fabric (a placement spreading TP groups over hosts).
    for (int st = 0; st < int(e.tpLinkBytes.size()) && st < classes.stages; ++st)
        sources.push_back(
            transferSource(t, e.tpLinkBytes[size_t(st)], {&sched.rates[size_t(classes.tp(st))]}));
    // CP collectives run inside each layer's passes: spread over the stage's compute.
    for (size_t st = 0; st < e.cpLinkBytes.size() && st < sched.compute.size(); ++st)
        sources.push_back(sourceOf(t, e.cpLinkBytes[st], sched.compute[st]));
    ComposedTraffic traffic;
    for (const Source& src : sources)
        traffic.sources.push_back(src.traffic);
    for (size_t l = 0; l < t.links.size(); ++l)
        if (std::isnan(idleLinks[l])) traffic.noData.push_back(uint32_t(l));
    // Storage: data loading during steps, checkpoint writes, spread over the Tectonic servers
    // (each at most its attachment).
    auto storageFrame = [&](double totalBps) {
        std::vector<float> v(t.storage.size(), 0.f);
        size_t tectonic = 0;
        for (const StorageServer& s : t.storage)
            tectonic += s.kind == StorageKind::Tectonic;
        for (size_t s = 0; s < t.storage.size(); ++s)
            if (t.storage[s].kind == StorageKind::Tectonic && tectonic > 0)
                v[s] = float(std::min(totalBps / double(tectonic),
                                      capacityOf(Metric::StorageBytesPerS, t, int32_t(s))));
        return v;
    };
    std::vector<float> busy(t.gpus.size());
    auto gpuFrame = [&](auto valueOfStage) {
        for (size_t g = 0; g < t.gpus.size(); ++g)
            busy[g] = stageOfGpu[g] < 0 ? kNaN : float(valueOfStage(stageOfGpu[g]));
        return busy;
    };

    // The stepped schedule at full resolution: GPUs busy while their stage computes, links
    // loaded while the collectives and sends that cross them run.
    const int64_t stepNs = std::max<int64_t>(1, toNs(e.stepS));
    const int64_t intervalNs =
        std::max(toNs(spec.resolutionS), (stepNs + kMaxFramesPerStep - 1) / kMaxFramesPerStep);
    const int32_t step = w.addPattern("step", stepNs);
    const int frames = int((stepNs + intervalNs - 1) / intervalNs);
    // A GPU is busy while its stage computes: not while a pass waits for its TP or CP.
    const auto& busyOf = sched.busy.size() == sched.compute.size() ? sched.busy : sched.compute;
    std::vector<size_t> computeCursor(busyOf.size(), 0);
    std::vector<double> stageBusy(busyOf.size(), 0);
    w.setComposedTraffic(step, Metric::LinkBytesPerS, traffic);
    std::vector<float> weights(sources.size());
    const std::vector<float> dataLoading = storageFrame(e.tokensPerS * 4);
    for (int k = 0; k < frames; ++k) {
        const double t0 = double(k) * double(intervalNs) / 1e9;
        const double t1 = std::min(e.stepS, t0 + double(intervalNs) / 1e9);
        const double width = std::max(1e-12, t1 - t0);
        for (size_t st = 0; st < busyOf.size(); ++st)
            stageBusy[st] = covered(busyOf[st], computeCursor[st], t0, t1) / width;
        w.addFrame(step, Metric::GpuBusy, k * intervalNs,
                   gpuFrame([&](int stage) { return stageBusy[size_t(stage)]; }));
        // How much of each source is on in this frame; the store composes the links from it.
        std::vector<float> tiers(kTierCount, 0.f);
        for (size_t i = 0; i < sources.size(); ++i) {
            Source& src = sources[i];
            weights[i] = float(src.weight(t0, t1));
            for (int q = 0; q < kTierCount; ++q)
                tiers[size_t(q)] += weights[i] * float(src.tierBps[q]);
        }
        w.addComposedFrame(step, Metric::LinkBytesPerS, k * intervalNs, weights);
        w.addFrame(step, Metric::TierBytesPerS, k * intervalNs, tiers);
        if (k == 0) w.addFrame(step, Metric::StorageBytesPerS, 0, dataLoading);
        if (progress && k % 64 == 0) progress(0.3 + 0.5 * double(k) / frames);
    }
    // A checkpoint: GPUs wait while the training state goes to Tectonic.
    const int64_t ckptNs = std::max<int64_t>(1, toNs(r.checkpointS));
    const int32_t checkpoint = w.addPattern("checkpoint", ckptNs);
    w.addFrame(checkpoint, Metric::GpuBusy, 0, gpuFrame([](int) { return 0.0; }));
    ComposedTraffic writes;
    writes.sources = {r.checkpointFlows.links};
    writes.noData = traffic.noData;
    w.setComposedTraffic(checkpoint, Metric::LinkBytesPerS, writes);
    w.addComposedFrame(checkpoint, Metric::LinkBytesPerS, 0, {1.f});
    w.addFrame(checkpoint, Metric::TierBytesPerS, 0, std::vector<float>(kTierCount, 0.f));
    w.addFrame(checkpoint, Metric::StorageBytesPerS, 0,
               r.checkpointFlows.totalBps > 0 ? r.checkpointFlows.serverBps
                                              : storageFrame(spec.storage.sustainedBytesPerS));
    // Down: from a failure to the restart, nothing runs.
    const int32_t down = w.addPattern("down", 1);
    w.addFrame(down, Metric::GpuBusy, 0, gpuFrame([](int) { return 0.0; }));
    w.addFrame(down, Metric::LinkBytesPerS, 0, idleLinks);
    w.addFrame(down, Metric::TierBytesPerS, 0, std::vector<float>(kTierCount, 0.f));
    w.addFrame(down, Metric::StorageBytesPerS, 0, storageFrame(0));

    // The timeline: training stretches (a new step starts with each) between pauses.
    const int64_t endNs = std::max<int64_t>(1, toNs(r.simulatedS));
    int64_t at = 0;
    auto train = [&](int64_t until) {
        if (until <= at) return;
        w.addSegment(at, until, step, stepNs);
        w.addScalar(Metric::StepTimeS, at, e.stepS);
        w.addScalar(Metric::Mfu, at, e.mfu);
    };
    for (const Pause& p : pauses(spec, r, endNs)) {
        train(p.fromNs);
        w.addSegment(p.fromNs, p.toNs, p.kind == 0 ? checkpoint : down, 0);
        w.addScalar(Metric::Mfu, p.fromNs, 0.0);
        at = p.toNs;
    }
    train(endNs);
    for (const Interruption& x : r.interruptions) {
        const auto& cause = failureCauses()[size_t(x.cause)];
        w.addEvent(toNs(x.atS), cause.planned ? EventKind::Maintenance : EventKind::Failure,
                   x.entity, cause.name);
        w.addEvent(toNs(x.atS + x.lostS), EventKind::Restart, std::nullopt, cause.name);
    }
    const int64_t every = toNs(spec.checkpointIntervalS);
    long long checkpoints = 0;
    for (int64_t c = every; every > 0 && c < endNs && checkpoints < 100000;
         c += every, ++checkpoints)
        w.addEvent(c, EventKind::Checkpoint, std::nullopt,
                   std::to_string(r.checkpointBytes / 1e12) + " TB");
    if (spec.steps > 0)
        for (long long s = 0; s < std::min<long long>(r.steps, 100000); ++s)
            w.addEvent(s * stepNs, EventKind::Step, std::nullopt, std::to_string(s));
    if (progress) progress(0.9);
    w.finish(endNs,
             QJsonDocument(runSummaryJson(r, spec)).toJson(QJsonDocument::Compact).toStdString());
}

} // namespace cs
