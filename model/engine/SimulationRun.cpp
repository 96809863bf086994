#include "SimulationRun.h"

#include "FabricFaults.h"
#include "SimulationMemory.h"

#include "RunOptions.h"
#include "SimulationSeries.h"
#include "TrainingEfficiency.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace cs {

namespace {

// At most this many distinct failed parts are simulated in a span; the others take their
// mean slowdown (a 54-day span at 16K GPUs draws about 35 cable and switch failures).
constexpr int kMaxDegradedSolves = 6;

// A failed backend link or switch: after the restart the job runs without it until its
// repair, each step as slow as the fabric left makes it. A part whose loss cuts GPUs off
// degrades nothing: the job restarts on other hosts.
void addFabricDegradation(const TopologyDocument& doc, const RunSpec& spec,
                          const FabricFaults& given, const ModelSpec& m, const GpuSpec& g,
                          RunResult& r) {
    std::map<std::pair<int, int32_t>, double> stepOf; // part -> degraded step (0: none)
    double ratioSum = 0;
    int solved = 0;
    for (Interruption& x : r.interruptions) {
        if (x.entity.kind != EntityKind::Link && x.entity.kind != EntityKind::Switch) continue;
        const auto key = std::make_pair(int(x.entity.kind), x.entity.index);
        auto it = stepOf.find(key);
        if (it == stepOf.end()) {
            double stepS = 0;
            if (solved < kMaxDegradedSolves) {
                FabricFaults faults = given;
                faults.failed.push_back(doc.topology().nameOf(x.entity));
                const Topology t = topologyWithFaults(doc, faults);
                try {
                    stepS = estimateStep(t, doc.index(), m, g, spec.parallel).stepS;
                    ratioSum += stepS / r.step.stepS;
                    ++solved;
                } catch (const InputException&) {
                    stepS = 0; // cut off: rescheduled elsewhere
                }
            } else if (solved > 0) {
                stepS = r.step.stepS * ratioSum / solved;
            }
            it = stepOf.emplace(key, stepS).first;
        }
        if (it->second <= r.step.stepS) continue;
        x.degradedStepS = it->second;
        x.degradedS =
            std::max(0.0, std::min(spec.failureTimes.fabricRepairS, spec.spanS - x.atS - x.lostS));
    }
}

} // namespace

RunResult simulateRun(const TopologyDocument& doc, const RunSpec& given, RunStore* store,
                      const ProgressFn& progress) {
    validateRunSpec(given); // model and GPU known, steps or span, values in range
    const auto model = modelOf(given);
    // Defaults that follow others settled once: the stored run says what ran.
    RunSpec spec = given;
    spec.parallel = withResolvedDefaults(*model, given.parallel);
    const auto gpu = findGpu(spec.gpu);
    const Topology& t = doc.topology();
    checkSimulationMemory(t, spec, store != nullptr); // before anything big is allocated
    if (progress) progress(0.0);

    RunResult r;
    // Parts down or slowed for the whole run, the design's and the run's: the step runs on
    // the fabric that is left. The stored run keeps its own list; the design keeps its own.
    const FabricFaults faults =
        mergedFaults(doc.params() ? doc.params()->faults : FabricFaults{}, spec.fabric);
    const Topology faulty = faults.empty() ? Topology{} : topologyWithFaults(doc, faults);
    r.step = estimateStep(faults.empty() ? t : faulty, doc.index(), *model, *gpu, spec.parallel);
    r.failedLinks = failedLinks(doc, faults);
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
    // Each host writes its shard; the checkpoint ends with the slowest host's. Without a
    // frontend to storage (a fabric file with none), the storage system's sustained rate.
    r.checkpointFlows =
        checkpointFlows(doc, hosts, spec.storage.sustainedBytesPerS, efficiency::kStorageGoodput,
                        r.checkpointBytes / double(std::max<size_t>(1, hosts.size())));
    r.checkpointS = r.checkpointFlows.writeS > 0
                        ? r.checkpointFlows.writeS
                        : r.checkpointBytes / spec.storage.sustainedBytesPerS;
    if (r.checkpointFlows.slowestHost >= 0)
        r.checkpointLastHost = t.hosts[size_t(r.checkpointFlows.slowestHost)].name;

    if (spec.steps > 0) {
        r.steps = spec.steps;
        r.simulatedS = spec.steps * e.stepS;
    } else {
        r.simulatedS = spec.spanS;
        if (spec.failures)
            r.interruptions =
                drawInterruptions(t, e.gpuOfRank, spec.spanS, spec.checkpointIntervalS, spec.seed,
                                  spec.failureTimes, &e.linkBytesPerStep);
        addFabricDegradation(doc, spec, faults, *model, *gpu, r);
        for (const Interruption& x : r.interruptions)
            r.lostS += x.lostS + x.degradationLossS(e.stepS);
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

} // namespace cs
