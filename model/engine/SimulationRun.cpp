#include "SimulationRun.h"

#include "RankPlacement.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <cmath>
#include <limits>

namespace cs {
namespace {

constexpr double kNs = 1e9;

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

bool sameFrame(const std::vector<float>& a, const std::vector<float>& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (!(a[i] == b[i] || (std::isnan(a[i]) && std::isnan(b[i])))) return false;
    return true;
}

struct SeriesWriter {
    RunStore* store;
    int64_t run = 0, gpuMetric = 0, linkMetric = 0, storageMetric = 0, stepMetric = 0,
            mfuMetric = 0, tierMetric[3]{};
};

} // namespace

RunResult simulateRun(const TopologyDocument& doc, const RunSpec& spec, RunStore* store,
                      const ProgressFn& progress) {
    const auto model = findModel(spec.model);
    if (!model)
        throw InputException({{},
                              0,
                              0,
                              "--model",
                              "unknown model \"" + spec.model +
                                  "\"; expected llama3-8b, llama3-70b or llama3-405b"});
    const auto gpu = findGpu(spec.gpu);
    if (!gpu)
        throw InputException(
            {{}, 0, 0, "--gpu", "unknown GPU \"" + spec.gpu + "\"; expected h100, h200 or a100"});
    if ((spec.steps > 0) == (spec.spanS > 0))
        throw InputException({{}, 0, 0, "--steps", "expected either --steps N or --span DURATION"});
    if (spec.steps > 1'000'000)
        throw InputException({{}, 0, 0, "--steps", "at most 1,000,000 steps"});
    if (spec.spanS > 3.2e7) throw InputException({{}, 0, 0, "--span", "at most one year"});
    const Topology& t = doc.topology();
    if (progress) progress(0.0);

    RunResult r;
    r.step = estimateStep(t, doc.index(), *model, *gpu, spec.parallel);
    const StepEstimate& e = r.step;
    if (progress) progress(0.3);
    // Checkpoint: the sharded training state (bf16 weights, fp32 master, Adam m and v:
    // 16 bytes per parameter) to Tectonic, limited by the storage fabric.
    r.checkpointBytes = 16.0 * model->parameters();
    r.checkpointS = r.checkpointBytes / spec.storage.sustainedBytesPerS;

    if (spec.steps > 0) {
        r.steps = spec.steps;
        r.simulatedS = spec.steps * e.stepS;
    } else {
        r.simulatedS = spec.spanS;
        if (spec.failures)
            r.interruptions = drawInterruptions(
                t, e.gpuOfRank, spec.spanS, spec.checkpointIntervalS, spec.seed, spec.failureTimes);
        for (const Interruption& x : r.interruptions)
            r.lostS += x.lostS;
        r.lostS = std::min(r.lostS, spec.spanS);
        const double checkpoints =
            spec.checkpointIntervalS > 0 ? std::floor(spec.spanS / spec.checkpointIntervalS) : 0;
        const double productive = std::max(0.0, spec.spanS - r.lostS - checkpoints * r.checkpointS);
        r.steps = (long long)(productive / e.stepS);
        r.effectiveTrainingTime = productive / spec.spanS;
    }

    if (store) {
        SeriesWriter w{store};
        store->begin();
        const QByteArray params = QJsonDocument(runSummaryJson(r, spec).value("config").toObject())
                                      .toJson(QJsonDocument::Compact);
        w.run =
            store->addRun("simulated", spec.model + " on " + t.name, t.name, params.toStdString());
        w.gpuMetric = store->metric({"gpu_busy", "fraction", "gauge", "gpu"});
        w.linkMetric = store->metric({"link_bytes_per_s", "B/s", "gauge", "link"});
        w.storageMetric = store->metric({"storage_load", "fraction", "gauge", "storage"});
        w.stepMetric = store->metric({"step_time", "s", "gauge", "run"});
        w.mfuMetric = store->metric({"mfu", "fraction", "gauge", "run"});
        const char* tiers[3] = {"throughput_nic_leaf", "throughput_leaf_spine",
                                "throughput_spine_core"};
        for (int k = 0; k < 3; ++k)
            w.tierMetric[k] = store->metric({tiers[k], "B/s", "gauge", "tier"});

        // Link utilisation and tier throughput: the step's bytes spread over the step.
        std::vector<float> linkUse(t.links.size(), std::numeric_limits<float>::quiet_NaN());
        double tierBps[3] = {0, 0, 0};
        for (size_t l = 0; l < t.links.size(); ++l) {
            const double bps = e.linkBytesPerStep[l] / e.stepS;
            const double cap = t.links[l].gbps * 1e9 / 8;
            if (t.links[l].medium == LinkMedium::Fibre ||
                t.links[l].medium == LinkMedium::CopperDac)
                linkUse[l] = float(std::min(1.0, bps / cap));
            int tier = -1;
            const Link& k = t.links[l];
            const bool aSw = k.a.kind == EntityKind::Switch, bSw = k.b.kind == EntityKind::Switch;
            if (aSw != bSw && (k.a.kind == EntityKind::Nic || k.b.kind == EntityKind::Nic))
                tier = 0;
            if (aSw && bSw)
                tier = std::max(tierOf(t.switches[size_t(k.a.index)].role),
                                tierOf(t.switches[size_t(k.b.index)].role)) -
                       1;
            if (tier >= 0 && tier < 3) tierBps[tier] += bps;
        }
        std::vector<int> stageOfGpu(t.gpus.size(), -1);
        for (size_t rank = 0; rank < e.gpuOfRank.size(); ++rank)
            stageOfGpu[size_t(e.gpuOfRank[rank])] = coordOf(spec.parallel, int(rank)).p;
        const double dataLoadBps = e.tokensPerS * 4; // token ids (4 bytes) read from Tectonic
        const double storageCapBps = [&] {
            double s = 0;
            for (const auto& x : t.storage)
                s += x.gbps * 1e9 / 8;
            return s;
        }();
        const double sampleS = spec.steps > 0 ? std::max(e.stepS / 16, r.simulatedS / 4096)
                                              : std::max(600.0, r.simulatedS / 2000);
        const long long samples = std::max(1LL, (long long)std::ceil(r.simulatedS / sampleS));
        size_t nextInterruption = 0;
        double downUntil = -1;
        std::vector<float> gpuBusy(t.gpus.size()), storageLoad(t.storage.size()), lastGpu,
            lastStorage;
        int lastLinkState = -1;
        long long checkpointEvents = 0;
        for (long long k = 0; k < samples; ++k) {
            const double t0 = k * sampleS, t1 = std::min(r.simulatedS, t0 + sampleS);
            const auto tsNs = int64_t(t0 * kNs);
            while (nextInterruption < r.interruptions.size() &&
                   r.interruptions[nextInterruption].atS < t1) {
                const Interruption& x = r.interruptions[nextInterruption++];
                const auto& cause = failureCauses()[size_t(x.cause)];
                store->addEvent(w.run, int64_t(x.atS * kNs),
                                cause.planned ? "maintenance" : "failure",
                                std::string(toString(x.entity.kind)), x.entity.index, cause.name);
                store->addEvent(w.run, int64_t((x.atS + x.lostS) * kNs), "restart", "run", 0,
                                cause.name);
                downUntil = std::max(downUntil, x.atS + x.lostS);
            }
            // Steps: the state at this instant of the step. Spans: averages over the sample
            // window (checkpoints every interval, time lost to interruptions).
            const bool down = t0 < downUntil;
            const double ckptFraction =
                spec.checkpointIntervalS > 0 ? r.checkpointS / spec.checkpointIntervalS : 0;
            const bool inCheckpoint = spec.steps > 0 && spec.checkpointIntervalS > 0 &&
                                      t0 >= spec.checkpointIntervalS &&
                                      std::fmod(t0, spec.checkpointIntervalS) < r.checkpointS;
            for (size_t g = 0; g < t.gpus.size(); ++g) {
                const int stage = stageOfGpu[g];
                if (stage < 0) {
                    gpuBusy[g] = std::numeric_limits<float>::quiet_NaN();
                    continue;
                }
                if (down || inCheckpoint) {
                    gpuBusy[g] = 0;
                    continue;
                }
                if (spec.steps > 0) {
                    const double a = std::fmod(t0, e.stepS), b = a + (t1 - t0);
                    gpuBusy[g] = float(
                        b <= e.stepS
                            ? stageBusy(e, spec.parallel, stage, a, b)
                            : (stageBusy(e, spec.parallel, stage, a, e.stepS) * (e.stepS - a) +
                               stageBusy(e, spec.parallel, stage, 0, b - e.stepS) * (b - e.stepS)) /
                                  (b - a));
                } else {
                    gpuBusy[g] =
                        float(stageBusy(e, spec.parallel, stage, 0, e.stepS) * (1 - ckptFraction));
                }
            }
            const double storageBps =
                down ? 0
                : inCheckpoint
                    ? spec.storage.sustainedBytesPerS
                    : dataLoadBps +
                          (spec.steps > 0 ? 0 : ckptFraction * spec.storage.sustainedBytesPerS);
            for (size_t s = 0; s < t.storage.size(); ++s)
                storageLoad[s] =
                    float(std::min(1.0, storageCapBps > 0 ? storageBps / storageCapBps : 0));
            // A frame holds until the next: write only what changed (a 54-day span is mostly
            // the same steady step).
            const int linkState = down || inCheckpoint ? 0 : 1;
            if (k == 0 || !sameFrame(gpuBusy, lastGpu))
                store->addFrame(w.run, w.gpuMetric, tsNs, lastGpu = gpuBusy);
            if (k == 0 || !sameFrame(storageLoad, lastStorage))
                store->addFrame(w.run, w.storageMetric, tsNs, lastStorage = storageLoad);
            // Spans keep the steady step's link frame (a 480 KB frame per interruption would
            // make a 54-day file gigabytes); GPUs and events show the interruptions.
            if (k == 0 || (spec.steps > 0 && linkState != lastLinkState))
                store->addFrame(w.run, w.linkMetric, tsNs,
                                linkState ? linkUse : std::vector<float>(t.links.size(), 0.f));
            lastLinkState = linkState;
            if (spec.steps == 0) { // spans: step time and MFU per sample (none while down)
                if (!down) store->addScalar(w.run, w.stepMetric, tsNs, e.stepS);
                store->addScalar(w.run, w.mfuMetric, tsNs, down ? 0.0 : e.mfu * (1 - ckptFraction));
            }
            for (int q = 0; q < 3; ++q)
                store->addScalar(w.run, w.tierMetric[q], tsNs,
                                 down || inCheckpoint ? 0 : tierBps[q]);
            const double nextCkpt = spec.checkpointIntervalS > 0
                                        ? std::ceil(std::max(t0, 1.0) / spec.checkpointIntervalS) *
                                              spec.checkpointIntervalS
                                        : 1e300;
            for (double c = nextCkpt; c < t1 && checkpointEvents < 100000;
                 c += spec.checkpointIntervalS, ++checkpointEvents)
                store->addEvent(w.run, int64_t(c * kNs), "checkpoint", "run", 0,
                                std::to_string(r.checkpointBytes / 1e12) + " TB");
            if (progress && k % 64 == 0) progress(0.3 + 0.7 * double(k) / double(samples));
        }
        const long long stepEvents = std::min<long long>(r.steps, spec.steps > 0 ? 100000 : 0);
        for (long long s = 0; s < stepEvents; ++s) {
            store->addEvent(w.run, int64_t(s * e.stepS * kNs), "step", "run", 0, std::to_string(s));
            store->addScalar(w.run, w.stepMetric, int64_t(s * e.stepS * kNs), e.stepS);
            store->addScalar(w.run, w.mfuMetric, int64_t(s * e.stepS * kNs), e.mfu);
        }
        store->buildHistory(w.run);
        store->finishRun(
            w.run, int64_t(r.simulatedS * kNs),
            QJsonDocument(runSummaryJson(r, spec)).toJson(QJsonDocument::Compact).toStdString());
        store->commit();
    }
    if (progress) progress(1.0);
    return r;
}

QJsonObject runSummaryJson(const RunResult& r, const RunSpec& spec) {
    const StepEstimate& e = r.step;
    const ParallelConfig& c = spec.parallel;
    QJsonObject o;
    o.insert("stepTimeS", e.stepS);
    o.insert("tokensPerS", e.tokensPerS);
    o.insert("tflopsPerGpu", e.tflopsPerGpu);
    o.insert("mfu", e.mfu);
    o.insert("bubbleFraction", e.bubbleFraction);
    o.insert("peakMemoryGiB", e.memory.totalGiB());
    o.insert("memoryGiB", QJsonObject{{"weights", e.memory.weightsGiB},
                                      {"gradients", e.memory.gradientsGiB},
                                      {"optimizer", e.memory.optimizerGiB},
                                      {"activations", e.memory.activationsGiB}});
    o.insert("exposedCommS", QJsonObject{{"tp", e.tpExposedS},
                                         {"cp", e.cpExposedS},
                                         {"pp", e.ppExposedS},
                                         {"dp", e.dpExposedS}});
    o.insert("computeS", e.computeS);
    o.insert("pipelineS", e.pipelineS);
    o.insert("bubbleS", e.bubbleS);
    o.insert("optimizerS", e.optimizerS);
    o.insert("dpAllGatherS", e.dpAllGatherS);
    o.insert("dpReduceScatterS", e.dpReduceScatterS);
    o.insert("microBatches", e.microBatches);
    o.insert("checkpointTimeS", r.checkpointS);
    o.insert("checkpointBytes", r.checkpointBytes);
    o.insert("simulatedS", r.simulatedS);
    o.insert("steps", double(r.steps));
    if (spec.spanS > 0) {
        QJsonObject byCause;
        for (const Interruption& x : r.interruptions) {
            const QString name = QString::fromLatin1(failureCauses()[size_t(x.cause)].name);
            byCause.insert(name, byCause.value(name).toInt() + 1);
        }
        o.insert("interruptions", int(r.interruptions.size()));
        o.insert("interruptionsByCause", byCause);
        o.insert("lostHours", r.lostS / 3600);
        o.insert("effectiveTrainingTime", r.effectiveTrainingTime);
    }
    o.insert("config",
             QJsonObject{{"model", QString::fromStdString(spec.model)},
                         {"gpu", QString::fromStdString(spec.gpu)},
                         {"gpus", double(c.gpus())},
                         {"tp", c.tp},
                         {"cp", c.cp},
                         {"pp", c.pp},
                         {"dp", c.dp},
                         {"virtualStages", c.virtualStages},
                         {"seq", c.seqLen},
                         {"batchTokens", c.batchTokens},
                         {"placement", c.placement == Placement::Linear ? "linear" : "topology"},
                         {"flowsPerPair", c.flowsPerPair},
                         {"seed", double(spec.seed)}});
    return o;
}

QByteArray chromeTraceOfStep(const RunResult& r, const RunSpec& spec) {
    const StepEstimate& e = r.step;
    const ParallelConfig& c = spec.parallel;
    QJsonArray events;
    auto slice = [&](int pid, int tid, const QString& name, double startS, double durS,
                     const QString& cat) {
        if (durS <= 0) return;
        events.append(QJsonObject{{"ph", "X"},
                                  {"name", name},
                                  {"cat", cat},
                                  {"pid", pid},
                                  {"tid", tid},
                                  {"ts", startS * 1e6},
                                  {"dur", durS * 1e6}});
    };
    // One process per pipeline stage (ranks of DP replica 0, TP rank 0, CP rank 0); thread 0
    // computes, thread 1 communicates.
    const double chunkS = (e.computePerMicroS + e.tpPerMicroS + e.cpPerMicroS) /
                          c.virtualStages; // fwd + bwd of one chunk
    const double fwdS = chunkS / 3, bwdS = chunkS * 2 / 3;
    const int chunks = int(std::llround(e.microBatches)) * c.virtualStages;
    const double sliceS = c.pp > 1 ? e.bubbleS / (c.pp - 1) : 0;
    for (int s = 0; s < c.pp; ++s) {
        const int pid = s;
        events.append(QJsonObject{
            {"ph", "M"},
            {"name", "process_name"},
            {"pid", pid},
            {"args",
             QJsonObject{{"name", QStringLiteral("PP stage %1 (GPU %2)")
                                      .arg(s)
                                      .arg(e.gpuOfRank[size_t(rankOf(c, {0, 0, s, 0}))])}}}});
        double at = e.dpExposedS / 2 + s * sliceS;
        slice(pid, 1, "FSDP all-gather (exposed)", 0, e.dpExposedS / 2, "dp");
        // 1F1B: warm-up forwards, then one forward and one backward in turn, then backwards.
        const int warmup = std::min(chunks, (c.pp - 1 - s) * 2 + (c.virtualStages - 1) * c.pp + 1);
        int f = 0, b = 0;
        for (; f < warmup; ++f, at += fwdS)
            slice(pid, 0, QStringLiteral("F%1").arg(f), at, fwdS, "compute");
        while (b < chunks) {
            slice(pid, 0, QStringLiteral("B%1").arg(b++), at, bwdS, "compute");
            at += bwdS;
            if (f < chunks) {
                slice(pid, 0, QStringLiteral("F%1").arg(f++), at, fwdS, "compute");
                at += fwdS;
            }
        }
        slice(pid, 1, "FSDP reduce-scatter (exposed)", e.stepS - e.optimizerS - e.dpExposedS / 2,
              e.dpExposedS / 2, "dp");
        slice(pid, 0, "optimizer", e.stepS - e.optimizerS, e.optimizerS, "compute");
    }
    return QJsonDocument(QJsonObject{{"traceEvents", events}, {"displayTimeUnit", "ms"}})
        .toJson(QJsonDocument::Compact);
}

} // namespace cs
