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

// Busy fraction of a pipeline stage over [t0, t1) within one step. The step runs: exposed
// FSDP gather, the pipeline (stage s waits s bubble slices at the start and pp-1-s at the
// end), exposed reduce-scatter and p2p, the optimizer.
double stageBusy(const StepEstimate& e, const ParallelConfig& c, int stage, double t0, double t1) {
    const double gather = e.dpExposedS / 2;
    const double slice = c.pp > 1 ? e.bubbleS / (c.pp - 1) : 0;
    const double busyFrom = gather + stage * slice;
    const double busyTo = gather + e.pipelineS - (c.pp - 1 - stage) * slice;
    const double optFrom = e.stepS - e.optimizerS;
    auto overlap = [&](double a, double b) {
        return std::max(0.0, std::min(b, t1) - std::max(a, t0));
    };
    const double busy = overlap(busyFrom, busyTo) + overlap(optFrom, e.stepS);
    return t1 > t0 ? busy / (t1 - t0) : 0;
}

struct Interval {
    int64_t fromNs, toNs;
    int kind; // 0 checkpoint, 1 down
};

// Down intervals (merged) win over checkpoints that overlap them.
std::vector<Interval> pauses(const RunSpec& spec, const RunResult& r, int64_t endNs) {
    std::vector<Interval> down;
    for (const Interruption& x : r.interruptions)
        down.push_back({toNs(x.atS), std::min(endNs, toNs(x.atS + x.lostS)), 1});
    std::sort(down.begin(), down.end(), [](auto& a, auto& b) { return a.fromNs < b.fromNs; });
    std::vector<Interval> merged;
    for (const Interval& d : down) {
        if (d.toNs <= d.fromNs) continue;
        if (!merged.empty() && d.fromNs <= merged.back().toNs)
            merged.back().toNs = std::max(merged.back().toNs, d.toNs);
        else
            merged.push_back(d);
    }
    std::vector<Interval> out;
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
    // The closed-form step spreads each link's bytes over the step; backend cables only.
    std::vector<float> links(t.links.size(), kNaN), idleLinks(t.links.size(), kNaN);
    std::vector<float> tiers(kTierCount, 0.f);
    for (size_t l = 0; l < t.links.size(); ++l) {
        const LinkMedium m = t.links[l].medium;
        if (m != LinkMedium::Fibre && m != LinkMedium::CopperDac) continue;
        const double ab = e.linkBytesPerStep[2 * l], ba = e.linkBytesPerStep[2 * l + 1];
        links[l] = float(std::max(ab, ba) / e.stepS); // the busier direction
        idleLinks[l] = 0;
        const int tier = tierOfLink(t, int32_t(l));
        if (tier >= 0) tiers[size_t(tier)] += float((ab + ba) / e.stepS);
    }
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

    // The steady step at full resolution.
    const int64_t stepNs = std::max<int64_t>(1, toNs(e.stepS));
    const int64_t intervalNs =
        std::max(kStepFrameIntervalNs, (stepNs + kMaxFramesPerStep - 1) / kMaxFramesPerStep);
    const int32_t step = w.addPattern("step", stepNs);
    const int frames = int((stepNs + intervalNs - 1) / intervalNs);
    for (int k = 0; k < frames; ++k) {
        const double t0 = double(k) * double(intervalNs) / 1e9;
        const double t1 = std::min(e.stepS, t0 + double(intervalNs) / 1e9);
        w.addFrame(step, Metric::GpuBusy, k * intervalNs,
                   gpuFrame([&](int stage) { return stageBusy(e, spec.parallel, stage, t0, t1); }));
        if (k == 0) {
            w.addFrame(step, Metric::LinkBytesPerS, 0, links);
            w.addFrame(step, Metric::TierBytesPerS, 0, tiers);
            w.addFrame(step, Metric::StorageBytesPerS, 0, storageFrame(e.tokensPerS * 4));
        }
        if (progress && k % 64 == 0) progress(0.3 + 0.5 * double(k) / frames);
    }
    // A checkpoint: GPUs wait while the training state goes to Tectonic.
    const int64_t ckptNs = std::max<int64_t>(1, toNs(r.checkpointS));
    const int32_t checkpoint = w.addPattern("checkpoint", ckptNs);
    w.addFrame(checkpoint, Metric::GpuBusy, 0, gpuFrame([](int) { return 0.0; }));
    w.addFrame(checkpoint, Metric::LinkBytesPerS, 0, idleLinks);
    w.addFrame(checkpoint, Metric::TierBytesPerS, 0, std::vector<float>(kTierCount, 0.f));
    w.addFrame(checkpoint, Metric::StorageBytesPerS, 0,
               storageFrame(spec.storage.sustainedBytesPerS));
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
    for (const Interval& p : pauses(spec, r, endNs)) {
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
