#include "SimulationRun.h"

#include "RankPlacement.h"
#include "RunOptions.h"
#include "SimulationSeries.h"
#include "StepSchedule.h"
#include "TrainingEfficiency.h"

#include <algorithm>

#include <QJsonArray>
#include <QJsonDocument>

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
                         {"placement", c.placement == Placement::Linear       ? "dp-innermost"
                                       : c.placement == Placement::Fragmented ? "fragmented"
                                                                              : "topology"},
                         {"sequenceParallel", c.sequenceParallel},
                         {"recompute", c.recompute == Recompute::Full        ? "full"
                                       : c.recompute == Recompute::Selective ? "selective"
                                                                             : "none"},
                         {"zeroStage", c.zeroStage},
                         {"precision", c.precision == Precision::Fp8 ? "fp8" : "bf16"},
                         {"flowsPerPair", c.flowsPerPair},
                         {"seed", double(spec.seed)}});
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
    // One process per pipeline stage (the ranks of DP replica 0, TP rank 0, CP rank 0), with
    // threads: compute (passes with their TP and CP time inside), PP sends, DP collectives.
    const ScheduleResult& sched = *e.schedule;
    const double paramsPerRank = r.checkpointBytes / 16 / (double(c.tp) * c.pp);
    const auto model = modelOf(spec);
    const double sendBytes =
        double(c.seqLen) * c.microBatchSeqs / c.cp * (model ? model->modelDim : 0) * 2 / c.tp;
    const double members = double(c.dp) * c.cp;
    for (int s = 0; s < c.pp && s < int(sched.passes.size()); ++s) {
        const int gpu = e.gpuOfRank[size_t(rankOf(c, {0, 0, s, 0}))];
        meta("process_name", s, -1, QStringLiteral("PP stage %1 (GPU %2)").arg(s).arg(gpu));
        meta("thread_name", s, 0, "compute");
        meta("thread_name", s, 1, "PP");
        meta("thread_name", s, 2, "DP");
        for (const PassRecord& p : sched.passes[size_t(s)])
            slice(s, 0,
                  QStringLiteral("%1 mb %2 chunk %3")
                      .arg(p.forward ? "F" : "B")
                      .arg(p.micro)
                      .arg(p.chunk),
                  p.fromS, p.toS - p.fromS, p.forward ? "forward" : "backward",
                  {{"microBatch", p.micro}, {"virtualStage", p.chunk}});
        // Sends across the boundary below this stage, activations or gradients.
        if (s < int(sched.sends.size()))
            for (const Interval& i : sched.sends[size_t(s)])
                slice(s, 1, "send", i.fromS, i.toS - i.fromS, "pp",
                      {{"bytes", sendBytes},
                       {"peers", QStringLiteral("stages %1 and %2").arg(s).arg(s + 1)}});
        for (const Interval& i : sched.gathers[size_t(s)])
            slice(s, 2, "DP all-gather", i.fromS, i.toS - i.fromS, "dp",
                  {{"bytes", paramsPerRank * 2 / members * (members - 1) * (i.toS - i.fromS) /
                                 std::max(1e-12, e.dpAllGatherS)},
                   {"peers", members - 1}});
        for (const Interval& i : sched.reduces[size_t(s)])
            slice(s, 2, c.zeroStage == 0 ? "DP all-reduce" : "DP reduce-scatter", i.fromS,
                  i.toS - i.fromS, "dp",
                  {{"bytes", paramsPerRank * 4 / members * (members - 1) * (i.toS - i.fromS) /
                                 std::max(1e-12, e.dpReduceScatterS)},
                   {"peers", members - 1}});
        slice(s, 0, "optimizer", e.stepS - e.optimizerS, e.optimizerS, "compute");
    }
    return QJsonDocument(QJsonObject{{"traceEvents", events}, {"displayTimeUnit", "ms"}})
        .toJson(QJsonDocument::Compact);
}

} // namespace cs
