#include "SimulationRun.h"

#include "SimulationMemory.h"

#include "RankPlacement.h"
#include "RunOptions.h"
#include "SimulationSeries.h"
#include "StepSchedule.h"
#include "TrainingEfficiency.h"
#include "TrainingEnumNames.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>
#include <cmath>
#include <limits>

namespace cs {

std::optional<ModelSpec> modelOf(const RunSpec& spec) {
    if (spec.customModel) return spec.customModel;
    return findModel(spec.model);
}

RunResult simulateRun(const TopologyDocument& doc, const RunSpec& spec, RunStore* store,
                      const ProgressFn& progress) {
    validateRunSpec(spec); // model and GPU known, steps or span, values in range
    const auto model = modelOf(spec);
    const auto gpu = findGpu(spec.gpu);
    const Topology& t = doc.topology();
    checkSimulationMemory(t, spec, store != nullptr); // before anything big is allocated
    if (progress) progress(0.0);

    RunResult r;
    r.step = estimateStep(t, doc.index(), *model, *gpu, spec.parallel);
    const StepEstimate& e = r.step;
    if (progress) progress(0.3);
    // Checkpoint: the sharded training state (bf16 weights, fp32 master, Adam m and v:
    // 16 bytes per parameter) to Tectonic, limited by the storage fabric.
    r.checkpointBytes = 16.0 * model->parameters();
    // The writes go over the frontend fabric to the storage servers: at the sustained rate, or
    // what the network gives, if that is less.
    std::vector<int32_t> hosts;
    for (int32_t gpu : e.gpuOfRank)
        hosts.push_back(t.gpus[size_t(gpu)].host);
    std::sort(hosts.begin(), hosts.end());
    hosts.erase(std::unique(hosts.begin(), hosts.end()), hosts.end());
    r.checkpointFlows =
        checkpointFlows(doc, hosts, spec.storage.sustainedBytesPerS, efficiency::kFabricGoodput);
    r.checkpointS =
        r.checkpointBytes / (r.checkpointFlows.totalBps > 0 ? r.checkpointFlows.totalBps
                                                            : spec.storage.sustainedBytesPerS);

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

    if (store) writeRunSeries(doc, spec, r, *store, progress);
    if (progress) progress(1.0);
    return r;
}

QJsonObject runSummaryJson(const RunResult& r, const RunSpec& spec) {
    const StepEstimate& e = r.step;
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
    if (spec.parallel.zeroStage == 0)
        o.insert("dpAllReduce",
                 QString::fromStdString(
                     enumName(e.dpTree ? AllReduceAlgorithm::Tree : AllReduceAlgorithm::Ring)));
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
    o.insert("config", runSpecToJson(spec)); // the run file that runs it again
    return o;
}

QByteArray chromeTraceOfStep(const RunResult& r, const RunSpec& spec) {
    const StepEstimate& e = r.step;
    const ParallelConfig& c = spec.parallel;
    QJsonArray events;
    auto slice = [&](int pid, int tid, const QString& name, double startS, double durS,
                     const QString& cat, const QJsonObject& args = {}) {
        if (durS <= 0) return;
        QJsonObject o{{"ph", "X"},  {"name", name},       {"cat", cat},       {"pid", pid},
                      {"tid", tid}, {"ts", startS * 1e6}, {"dur", durS * 1e6}};
        if (!args.isEmpty()) o.insert("args", args);
        events.append(o);
    };
    auto meta = [&](const char* what, int pid, int tid, const QString& name) {
        QJsonObject o{
            {"ph", "M"}, {"name", what}, {"pid", pid}, {"args", QJsonObject{{"name", name}}}};
        if (tid >= 0) o.insert("tid", tid);
        events.append(o);
    };
    // One process per pipeline stage and sampled DP replica (replica 0, the middle one and the
    // last: TP rank 0, CP rank 0), with threads: compute (passes, and the layers in them), TP
    // collectives as they ran (beside compute where they overlap it), the CP time each layer
    // leaves exposed, PP sends, DP collectives. The engine runs one
    // replica's schedule and the others by symmetry, so the sampled replicas show the same
    // times on their own GPUs; comm slices name the peer GPUs.
    const ScheduleResult& sched = *e.schedule;
    const double members = double(c.dp) * c.cp;
    enum Thread { Compute, Tp, Cp, Pp, Dp };
    std::vector<int> replicas{0};
    for (int d : {c.dp / 2, c.dp - 1})
        if (d > 0 && std::find(replicas.begin(), replicas.end(), d) == replicas.end())
            replicas.push_back(d);
    auto gpuOf = [&](RankCoord x) { return e.gpuOfRank[size_t(rankOf(c, x))]; };
    auto gpus = [](const std::vector<int32_t>& ids) {
        QJsonArray a;
        for (int32_t g : ids)
            a.append(g);
        return a;
    };
    using Kind = TransferRecord::Kind;
    for (int d : replicas) {
        for (int s = 0; s < c.pp && s < int(sched.passes.size()); ++s) {
            const int pid = d * c.pp + s; // replica 0's stages keep pids 0 .. pp-1
            const int gpu = gpuOf({0, 0, s, d});
            meta(
                "process_name", pid, -1,
                d == 0
                    ? QStringLiteral("PP stage %1 (GPU %2)").arg(s).arg(gpu)
                    : QStringLiteral("PP stage %1, DP replica %2 (GPU %3)").arg(s).arg(d).arg(gpu));
            meta("thread_name", pid, Compute, "compute");
            if (c.tp > 1) meta("thread_name", pid, Tp, "TP");
            if (c.cp > 1) meta("thread_name", pid, Cp, "CP");
            meta("thread_name", pid, Pp, "PP");
            meta("thread_name", pid, Dp, "DP");
            std::vector<int32_t> tpPeers, cpPeers, dpPeers;
            for (int t = 1; t < c.tp; ++t)
                tpPeers.push_back(gpuOf({t, 0, s, d}));
            for (int k = 1; k < c.cp; ++k)
                cpPeers.push_back(gpuOf({0, k, s, d}));
            // The DP group's first few other members (all of it would be thousands of ids).
            for (int k = 0; k < c.cp && dpPeers.size() < 8; ++k)
                for (int r = 0; r < c.dp && dpPeers.size() < 8; ++r)
                    if (r != d || k != 0) dpPeers.push_back(gpuOf({0, k, s, r}));
            // Passes with their layers inside, as the engine ran them; a chunk holding only
            // the embedding or the head has one slot and no layer.
            size_t layerAt = 0;
            const auto& layerSpans = sched.layers[size_t(s)];
            for (const PassRecord& p : sched.passes[size_t(s)]) {
                slice(pid, Compute,
                      QStringLiteral("%1 mb %2 chunk %3")
                          .arg(p.forward ? "F" : "B")
                          .arg(p.micro)
                          .arg(p.chunk),
                      p.fromS, p.toS - p.fromS, p.forward ? "forward" : "backward",
                      {{"microBatch", p.micro}, {"virtualStage", p.chunk}});
                const int layers = e.layersPerChunk[size_t(s)][size_t(p.chunk)];
                for (int l = 0; l < std::max(1, layers) && layerAt < layerSpans.size();
                     ++l, ++layerAt)
                    if (layers > 0)
                        slice(pid, Compute, QStringLiteral("layer %1").arg(l),
                              layerSpans[layerAt].fromS,
                              layerSpans[layerAt].toS - layerSpans[layerAt].fromS, "layer");
            }
            for (const Interval& x : sched.cpExposed[size_t(s)])
                slice(pid, Cp, "CP K/V exchange (exposed)", x.fromS, x.toS - x.fromS, "cp",
                      {{"bytes", e.cpBytesLayer / 2},
                       {"peers", c.cp - 1},
                       {"peerGpus", gpus(cpPeers)}});
            slice(pid, Compute, "optimizer", e.stepS - e.optimizerS, e.optimizerS, "compute");
            for (const TransferRecord& x : sched.transfers) {
                if (x.stage != s) continue;
                const bool send = x.kind == Kind::SendForward || x.kind == Kind::SendBackward;
                if (x.kind == Kind::Tp)
                    slice(pid, Tp,
                          QStringLiteral("TP %1 mb %2 chunk %3 layer %4")
                              .arg(x.forward ? "forward" : "backward")
                              .arg(x.micro)
                              .arg(x.chunk)
                              .arg(x.layer),
                          x.fromS, x.toS - x.fromS, "tp",
                          {{"bytes", x.bytes}, {"peers", c.tp - 1}, {"peerGpus", gpus(tpPeers)}});
                else if (send)
                    slice(pid, Pp,
                          QStringLiteral("send %1 mb %2 chunk %3 to stage %4")
                              .arg(x.kind == Kind::SendForward ? "activations" : "gradients")
                              .arg(x.micro)
                              .arg(x.chunk)
                              .arg(x.target),
                          x.fromS, x.toS - x.fromS, "pp",
                          {{"bytes", x.bytes},
                           {"peers", QStringLiteral("stages %1 and %2").arg(x.stage).arg(x.target)},
                           {"peerGpus", gpus({gpuOf({0, 0, x.target, d})})}});
                else
                    slice(pid, Dp,
                          QStringLiteral("%1 chunk %2 layer %3")
                              .arg(x.kind == Kind::Gather ? "DP all-gather"
                                   : c.zeroStage == 0     ? (e.dpTree ? "DP all-reduce (tree)"
                                                                      : "DP all-reduce (ring)")
                                                          : "DP reduce-scatter")
                              .arg(x.chunk)
                              .arg(x.layer),
                          x.fromS, x.toS - x.fromS, "dp",
                          {{"bytes", x.bytes},
                           {"peers", members - 1},
                           {"peerGpusSample", gpus(dpPeers)}});
            }
        }
    }
    return QJsonDocument(QJsonObject{{"traceEvents", events}, {"displayTimeUnit", "ms"}})
        .toJson(QJsonDocument::Compact);
}

} // namespace cs
