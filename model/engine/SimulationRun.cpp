#include "SimulationRun.h"

#include "RankPlacement.h"
#include "RunOptions.h"
#include "SimulationSeries.h"

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
