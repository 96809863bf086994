#include "RunSummaryJson.h"

#include "RunSpecJson.h"
#include "StepTimeDistribution.h"
#include "TrainingEnumNames.h"

#include <QJsonArray>

#include <cmath>

namespace cs {

QJsonObject stepPartsJson(const StepParts& parts) {
    QJsonObject o;
    for (const StepPartName& n : stepPartNames())
        o.insert(QLatin1String(n.key.data(), qsizetype(n.key.size())), parts[n.part]);
    return o;
}

std::vector<StepSegment> stepSegmentsOf(const QJsonObject& summary) {
    std::vector<StepSegment> out;
    const QJsonArray list = summary.value("stepSegments").toObject().value("segments").toArray();
    for (const QJsonValue& v : list) {
        if (out.size() == 100000) break;
        const QJsonArray x = v.toArray();
        const double from = x.at(0).toDouble(-1), to = x.at(1).toDouble(-1);
        const int part = x.at(2).toInt(-1);
        if (!(from >= 0 && to > from && std::isfinite(to)) || part < 0 || part >= kStepParts)
            continue;
        out.push_back({from, to, StepPart(part)});
    }
    return out;
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
    o.insert("breakdown", stepPartsJson(e.breakdown.slowest()));
    o.insert("slowestStage", e.breakdown.slowestStage);
    QJsonArray stages;
    for (const StepParts& parts : e.breakdown.stages)
        stages.append(stepPartsJson(parts));
    o.insert("stages", stages);
    o.insert("pipelineS", e.pipelineS);
    if (spec.parallel.zeroStage == 0)
        o.insert("dpAllReduce",
                 QString::fromStdString(
                     enumName(e.dpTree ? AllReduceAlgorithm::Tree : AllReduceAlgorithm::Ring)));
    else
        o.insert("dpShardedCollective",
                 QString::fromStdString(
                     enumName(e.dpPat ? ShardedCollective::Pat : ShardedCollective::Ring)));
    o.insert("dpBucketLayers", e.dpBucketLayers);
    o.insert("stragglerSlowdown", e.stragglerSlowdown);
    o.insert("tpSizeFraction", e.tpSizeFraction);
    // What the busiest stage's compute loses per step: to SMs held by communication beside it,
    // and to the GPU family's in-training fraction (no modelled mechanism explains it).
    o.insert("computeLosses", QJsonObject{{"commSmsS", e.commSmsLossS},
                                          {"unexplainedS", e.unexplainedComputeS},
                                          {"inTrainingFraction", e.inTrainingFraction},
                                          {"gpuClockFraction", e.gpuClockFraction}});
    o.insert("optimizerS", e.optimizerS);
    o.insert("dpAllGatherS", e.dpAllGatherS);
    o.insert("dpReduceScatterS", e.dpReduceScatterS);
    o.insert("microBatches", e.microBatches);
    o.insert("checkpointTimeS", r.checkpointS);
    o.insert("checkpointBytes", r.checkpointBytes);
    if (!r.checkpointLastHost.empty())
        o.insert("checkpointLastHost", QString::fromStdString(r.checkpointLastHost));
    // Hosts with no frontend path write nothing: their shards are not in the time.
    if (r.checkpointFlows.hostsWithoutPath > 0)
        o.insert("checkpointHostsWithoutPath", r.checkpointFlows.hostsWithoutPath);
    if (!r.failedLinks.empty()) { // the parts themselves are in "config"
        QJsonArray links;
        for (int32_t l : r.failedLinks)
            links.append(l);
        o.insert("failedLinks", links);
    }
    o.insert("simulatedS", r.simulatedS);
    o.insert("steps", double(r.steps));
    const StepTimeDistribution d = stepTimeDistribution(r, spec);
    if (d.steps > 0)
        o.insert("stepTimeDistribution", QJsonObject{{"p50", d.p50S},
                                                     {"p99", d.p99S},
                                                     {"max", d.maxS},
                                                     {"meanS", d.meanS},
                                                     {"steps", double(d.steps)},
                                                     {"slowestGpuShare", d.slowestGpuShare}});
    if (spec.spanS > 0) {
        QJsonObject byCause;
        for (const Interruption& x : r.interruptions) {
            const QString name = QString::fromLatin1(failureCauses()[size_t(x.cause)].name);
            byCause.insert(name, byCause.value(name).toInt() + 1);
        }
        o.insert("interruptions", int(r.interruptions.size()));
        o.insert("interruptionsByCause", byCause);
        o.insert("lostHours", r.lostS / 3600);
        double degradedS = 0;
        for (const Interruption& x : r.interruptions)
            degradedS += x.degradedS;
        o.insert("degradedHours", degradedS / 3600);
        o.insert("effectiveTrainingTime", r.effectiveTrainingTime);
    }
    o.insert("config", runSpecToJson(spec)); // the run file that runs it again
    return o;
}

} // namespace cs
