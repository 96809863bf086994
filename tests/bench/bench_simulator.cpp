// Simulator benchmark: wall time and memory of one 405B step on 16,384 GPUs of
// meta-roce-24k through the event engine (its events and re-shares per second), of a 54-day
// span with failures, and of the max-min solvers on one set of flows: heap-based progressive
// filling beside the naive rescan, and the engine's solve over paced transfers; MoE steps; a
// two-day mix of jobs sharing one cluster; collectives and flow patterns on the fabric.
#include "BenchUtil.h"

#include "ClusterSimulation.h"
#include "CollectiveRun.h"
#include "FlowSimulation.h"

#include "FabricRouter.h"
#include "MaxMinFairShare.h"
#include "RunSpecJson.h"
#include "SimulationMemory.h"
#include "SimulationRun.h"
#include "StepSchedule.h"
#include "StepTimeDistribution.h"
#include "TrainingStepModel.h"

#include "TrainingEfficiency.h"
#include <QFileInfo>
#include <QTemporaryDir>

#include <cstdio>
#include <limits>

using namespace cs;

namespace {
void row(const char* what, double seconds, double mib, const std::string& note) {
    std::printf("| %-52s | %9.3f | %8.1f | %s\n", what, seconds, mib, note.c_str());
}

// The same step solved the earlier engine's way, over every loaded link direction instead of
// the ones that can bind: its time, and whether the answer is the same.
void allLinksBaseline(const TopologyDocument& doc, const RunSpec& spec, double fastStepS,
                      const char* what) {
    StepEstimate e;
    const double s = bench::timeSeconds([&] {
        e = estimateStep(doc.topology(), doc.index(), *findModel(spec.model), *findGpu(spec.gpu),
                         spec.parallel, ShareSolver::AllLinks);
    });
    char note[200];
    std::snprintf(note, sizeof note,
                  "step %.3f s (%s), %lld solves (%.0f/s) over %zu link directions", e.stepS,
                  e.stepS == fastStepS ? "the same" : "differs", e.fabricSolves,
                  double(e.fabricSolves) / s, e.linksSolved);
    row(what, s, 0, note);
}
// A mixture of experts: DeepSeek-V3 as its report trains it (EP 64 over 8 nodes, PP 16,
// DP 128) on DeepSeek's multi-plane and multi-rail fat trees.
void moeRows() {
    const RunSpec deepSeek =
        loadRunSpec(CS_SOURCE_DIR "/resources/examples/moe-deepseek-v3-h800.json");
    for (const char* preset : {"deepseek-mpft-2k", "deepseek-mrft-2k"}) {
        const auto fabric = openTopology(preset, {});
        bench::releaseFreed();
        const double before = bench::rssMiB();
        bench::resetPeak();
        RunResult d;
        const double dsS = bench::timeSeconds([&] { d = simulateRun(*fabric, deepSeek, nullptr); });
        char what[80], note[200];
        std::snprintf(what, sizeof what, "DeepSeek-V3 step, 2,048 H800 (%s)", preset);
        std::snprintf(note, sizeof note, "step %.2f s, all-to-all %.2f ms, exposed EP %.2f s",
                      d.step.stepS, d.step.epAllToAllS * 1e3,
                      d.step.breakdown.slowest()[StepPart::ExposedEp]);
        row(what, dsS, bench::peakMiB() - before, note);
    }
}
// Many jobs on one cluster: the two-day mix of about 100 jobs on meta-roce-24k under each
// scheduler policy, the jobs sharing the fabric.
void clusterRows() {
    const auto doc = openTopology("meta-roce-24k", {});
    Workload w = loadWorkload(CS_SOURCE_DIR "/resources/workloads/meta-mix-2d.json");
    for (SchedulerPolicy policy :
         {SchedulerPolicy::TopologyAware, SchedulerPolicy::FirstFit, SchedulerPolicy::Fragmented}) {
        w.scheduler = policy;
        bench::releaseFreed();
        const double before = bench::rssMiB();
        bench::resetPeak();
        ClusterRunResult r;
        const double s = bench::timeSeconds([&] { r = simulateCluster(*doc, w, 2 * 86400.0); });
        int done = 0, slowed = 0, checkpoints = 0, shared = 0;
        double worst = 1, waitS = 0, worstWrite = 1;
        for (const ClusterJobResult& j : r.jobs) {
            done += j.state == ClusterJobState::Done;
            slowed += j.slowdown() > 1.001;
            worst = std::max(worst, j.slowdown());
            waitS += j.waitS;
            checkpoints += j.checkpoints;
            shared += j.checkpointsShared;
            if (j.aloneCheckpointS > 0)
                worstWrite = std::max(worstWrite, j.checkpointS() / j.aloneCheckpointS);
        }
        char what[80], note[320];
        std::snprintf(what, sizeof what, "2-day mix, %zu jobs, meta-roce-24k (%s)", r.jobs.size(),
                      std::string(kSchedulerPolicyNames.name(policy)).c_str());
        std::snprintf(note, sizeof note,
                      "%d done, %d slowed by others (worst x%.3f), mean wait %.2f h, %lld engine "
                      "runs; %d checkpoints, %d shared (slowest x%.2f alone's write)",
                      done, slowed, worst, waitS / double(r.jobs.size()) / 3600, r.stepEstimates,
                      checkpoints, shared, worstWrite);
        row(what, s, bench::peakMiB() - before, note);
    }
}
// Collectives as `clusterscope collective` runs them, and a flow pattern through the fabric
// re-shared at every finish beside the one-solve baseline that never re-shares.
void networkRows() {
    const auto roce = openTopology("meta-roce-24k", {});
    struct Case {
        const char* what;
        BenchOp op;
        GroupPlacement placement;
        std::vector<double> sizes;
    };
    const std::vector<Case> cases{
        {"all_reduce 1K-16G (25 sizes), 2,048 GPUs", BenchOp::AllReduce, GroupPlacement::Packed,
         benchSizes(1024, 16.0 * (1ULL << 30), 2)},
        {"all_reduce 1K-16G, 2,048 GPUs fragmented", BenchOp::AllReduce, GroupPlacement::Fragmented,
         benchSizes(1024, 16.0 * (1ULL << 30), 2)},
        {"alltoall 1 GiB, 2,048 GPUs (4.2 M flows)",
         BenchOp::AllToAll,
         GroupPlacement::Packed,
         {double(1ULL << 30)}},
    };
    for (const Case& c : cases) {
        CollectiveRequest r;
        r.op = c.op;
        r.gpus = 2048;
        r.placement = c.placement;
        r.sizes = c.sizes;
        bench::releaseFreed();
        const double before = bench::rssMiB();
        bench::resetPeak();
        BenchResult b;
        const double sec =
            bench::timeSeconds([&] { b = runCollective(roce->topology(), roce->index(), r); });
        char note[200];
        std::snprintf(note, sizeof note, "largest size busbw %.1f GB/s (%s)",
                      b.rows.back().busbwGBs, b.rows.back().algorithm.c_str());
        row(c.what, sec, bench::peakMiB() - before, note);
    }
    // The 405B step with its TP groups spread over hosts, on meta-roce-24k's structure with each
    // fabric's transport: the same links, RoCE's ECMP against InfiniBand's adaptive routing.
    for (const char* fabric : {"roce", "infiniband"}) {
        TopologyReadOptions o;
        o.sets = {std::string("generator.clusters[0].fabric=") + fabric};
        const auto doc = openTopology("meta-roce-24k", {}, o);
        RunSpec spec;
        spec.parallel.tp = 8, spec.parallel.cp = 1, spec.parallel.pp = 16, spec.parallel.dp = 128;
        spec.parallel.placement = Placement::Linear;
        spec.steps = 1;
        RunResult x;
        const double sec = bench::timeSeconds([&] { x = simulateRun(*doc, spec, nullptr); });
        char what[80], note[200];
        std::snprintf(what, sizeof what, "405B dp-innermost, 16,384 GPUs, fabric=%s", fabric);
        std::snprintf(note, sizeof note, "step %.2f s, exposed TP %.2f s", x.step.stepS,
                      x.step.breakdown.slowest()[StepPart::ExposedTp]);
        row(what, sec, 0, note);
    }
    // A permutation of 1,024 hosts (16 MiB each) on a 1:1 leaf-spine, ECMP, one flow a pair.
    const auto ls = openTopology("", CS_SOURCE_DIR "/tests/fixtures/htsim/ls1024-1to1.json");
    FabricRouter router(ls->topology(), ls->index());
    FlowSimulation sim(ls->topology(), router, 0, 1);
    std::vector<FlowSpec> flows;
    const int n = int(ls->topology().gpus.size());
    for (int i = 0; i < n; ++i)
        flows.push_back({i, int32_t((i * 389 + 17) % n), 16.0 * (1 << 20)});
    for (bool reshare : {true, false}) {
        FlowRun run;
        const double sec = bench::timeSeconds([&] { run = sim.run(flows, reshare); });
        double last = 0;
        for (double f : run.finishS)
            last = std::max(last, f);
        char note[200];
        std::snprintf(note, sizeof note, "%lld solves, last flow ends %.0f us", run.solves,
                      last * 1e6);
        row(reshare ? "permutation 1,024 x 16 MiB, re-shared" : "the same, one solve (baseline)",
            sec, 0, note);
    }
}
} // namespace

int main() {
    std::printf("| %-52s | %9s | %8s | notes\n", "case", "seconds", "MiB");
    std::printf(
        "|------------------------------------------------------|-----------|----------|------\n");
    // CS_BENCH_ONLY=moe: the MoE rows alone (the rest takes minutes).
    if (qEnvironmentVariable("CS_BENCH_ONLY") == "moe") {
        moeRows();
        return 0;
    }
    // CS_BENCH_ONLY=network: the collective and flow-pattern rows alone.
    if (qEnvironmentVariable("CS_BENCH_ONLY") == "network") {
        networkRows();
        return 0;
    }
    // CS_BENCH_ONLY=cluster: the many-jobs rows alone.
    if (qEnvironmentVariable("CS_BENCH_ONLY") == "cluster") {
        clusterRows();
        return 0;
    }
    const auto doc = openTopology("meta-roce-24k", {});
    RunSpec spec;
    spec.parallel.tp = 8, spec.parallel.cp = 1, spec.parallel.pp = 16, spec.parallel.dp = 128;
    spec.steps = 1;
    const RunSpec oneStep = spec; // (spec becomes a span further down)
    double base = bench::rssMiB();
    bench::resetPeak();
    RunResult r;
    double s = bench::timeSeconds([&] { r = simulateRun(*doc, spec, nullptr); });
    row("405B step, 16,384 GPUs (TP8 PP16 DP128)", s, bench::peakMiB() - base,
        std::to_string(int(r.step.tflopsPerGpu)) + " TFLOP/s per GPU, step " +
            std::to_string(r.step.stepS).substr(0, 5) + " s");
    std::printf(
        "|   %-50s | %9s | %8.1f | the estimate a run is checked against before it starts\n",
        "  the same step: memory estimated beforehand", "",
        estimateSimulationBytes(doc->topology(), spec, false) / 1048576.0);
    const auto& sched = *r.step.schedule;
    std::printf("|   %-50s | %9s | %8s | %lld events (%.0f/s), %lld re-shares (%.0f/s), %lld "
                "solves of %lld link loads, %zu transfers\n",
                "  the same step: events, re-shares per wall second", "", "", sched.events,
                double(sched.events) / s, sched.reshares, double(sched.reshares) / s,
                r.step.fabricSolves, r.step.loadsSolved, sched.transfers.size());

    {
        // The baseline: the same event schedule, every transfer at its solo rate.
        const StepEstimate solo =
            estimateStep(doc->topology(), doc->index(), *findModel("llama3-405b"),
                         *findGpu("h100-sxm"), spec.parallel, ShareSolver::Solo);
        const double soloS = bench::timeSeconds([&] {
            estimateStep(doc->topology(), doc->index(), *findModel("llama3-405b"),
                         *findGpu("h100-sxm"), spec.parallel, ShareSolver::Solo);
        });
        row("  baseline: transfers at solo rates, never re-shared", soloS, 0,
            "step " + std::to_string(solo.stepS).substr(0, 5) + " s, " +
                std::to_string(solo.fabricSolves) + " solves; DP busy " +
                std::to_string(solo.dpAllGatherS + solo.dpReduceScatterS).substr(0, 5) +
                " s per stage against " +
                std::to_string(r.step.dpAllGatherS + r.step.dpReduceScatterS).substr(0, 5) +
                " s re-shared");
    }
    double dpInnermostStepS = 0;
    {
        // TP groups spread over 8 hosts each: every TP collective crosses the fabric and
        // re-shares it with the DP collectives and sends, the engine's heaviest case.
        RunSpec spread = spec;
        spread.parallel.placement = Placement::Linear;
        RunResult x;
        const double spreadS = bench::timeSeconds([&] { x = simulateRun(*doc, spread, nullptr); });
        dpInnermostStepS = x.step.stepS;
        const auto& xs = *x.step.schedule;
        // The closed form a step used to be: the busiest stage's micro-batch time (compute,
        // and TP and CP at their solo rates) over M + (p - 1) / V slots, plus the optimizer.
        auto closedForm = [&](const StepEstimate& e) {
            const double chunks = double(e.layersPerChunk.front().size()); // V as resolved
            const double slotCount = e.microBatches + (spec.parallel.pp - 1.0) / chunks;
            return slotCount * (e.computePerMicroS + e.tpPerMicroS + e.cpPerMicroS) + e.optimizerS;
        };
        const double closedS = bench::timeSeconds([&] { (void)closedForm(r.step); });
        row("  closed form: (M + (p-1)/V) x micro-batch + optimizer", closedS, 0,
            "step " + std::to_string(closedForm(r.step)).substr(0, 5) + " s against the engine's " +
                std::to_string(r.step.stepS).substr(0, 5) + " s; dp-innermost " +
                std::to_string(closedForm(x.step)).substr(0, 5) + " s against " +
                std::to_string(x.step.stepS).substr(0, 5) + " s");
        row("  TP across hosts (dp-innermost): TP on the fabric", spreadS, 0,
            "step " + std::to_string(x.step.stepS).substr(0, 5) + " s, " +
                std::to_string(xs.events) + " events, " + std::to_string(xs.reshares) +
                " re-shares (" + std::to_string(int(double(xs.reshares) / spreadS)) + "/s), " +
                std::to_string(x.step.fabricSolves) + " solves (" +
                std::to_string(int(double(x.step.fabricSolves) / spreadS)) + "/s) over " +
                std::to_string(x.step.linksSolved) + " of the " +
                std::to_string(x.step.linksLoaded) + " link directions loaded");
    }
    {
        // ZeRO 3: every layer gathered again before each forward and backward of every
        // micro-batch and reduced after each backward; and ZeRO 2 with a spine switch down.
        RunSpec zero3 = spec;
        zero3.parallel.zeroStage = 3;
        RunResult z;
        const double zeroS = bench::timeSeconds([&] { z = simulateRun(*doc, zero3, nullptr); });
        size_t dpTransfers = 0;
        for (const TransferRecord& t : z.step.schedule->transfers)
            dpTransfers +=
                t.kind == TransferRecord::Kind::Gather || t.kind == TransferRecord::Kind::Reduce;
        row("  ZeRO 3: gathers per layer and pass", zeroS, 0,
            "step " + std::to_string(z.step.stepS).substr(0, 5) + " s, " +
                std::to_string(z.step.schedule->events) + " events, " +
                std::to_string(dpTransfers) + " DP transfers, " +
                std::to_string(z.step.schedule->reshares) + " re-shares, " +
                std::to_string(z.step.fabricSolves) + " solves");
        RunSpec faulty = spec;
        for (const Switch& sw : doc->topology().switches)
            if (sw.role == SwitchRole::Ctsw) {
                faulty.fabric.failed.push_back(sw.name);
                break;
            }
        RunResult f;
        const double faultS = bench::timeSeconds([&] { f = simulateRun(*doc, faulty, nullptr); });
        row("  a spine switch down (fabric.failed)", faultS, 0,
            faulty.fabric.failed.front() + ": step " + std::to_string(f.step.stepS).substr(0, 5) +
                " s against " + std::to_string(r.step.stepS).substr(0, 5) + " s");
    }
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("run.sqlite");
        qint64 writtenBytes = 0;
        double peak = 0;
        {
            RunStore store = RunStore::openForWriting(path);
            bench::resetPeak();
            s = bench::timeSeconds([&] { r = simulateRun(*doc, spec, &store); });
            peak = bench::peakMiB() - base;
            writtenBytes = QFileInfo(path).size() + QFileInfo(path + "-wal").size();
        }
        std::printf("|   %-50s | %9s | %8.1f | estimated beforehand\n",
                    "  with a store: memory estimate", "",
                    estimateSimulationBytes(doc->topology(), spec, true) / 1048576.0);
        // Closed: the log folded into the file, which is what stays on disk.
        row("405B step written at 10 ms (store)", s, peak,
            std::to_string(QFileInfo(path).size() >> 20) + " MiB after close (" +
                std::to_string(writtenBytes >> 20) + " MiB with its log while open), " +
                std::to_string(int(std::llround(r.step.stepS / 0.01))) +
                " frames of 24,576 GPUs + 120,624 links");
    }

    spec.steps = 0;
    spec.spanS = 54 * 86400.0;
    spec.failures = true;
    spec.seed = 7;
    s = bench::timeSeconds([&] { r = simulateRun(*doc, spec, nullptr); });
    row("405B, 54-day span with failures (no store)", s, bench::peakMiB() - base,
        std::to_string(r.interruptions.size()) + " interruptions, effective " +
            std::to_string(int(r.effectiveTrainingTime * 1000) / 10.0).substr(0, 4) + "%");
    StepTimeDistribution spread;
    s = bench::timeSeconds([&] { spread = stepTimeDistribution(r, spec); });
    row("  its steps as a distribution (p50 / p99 / max)", s, 0,
        std::to_string(spread.steps) + " steps, p99 " +
            std::to_string(spread.p99S).substr(0, 5) + " s, max " +
            std::to_string(spread.maxS).substr(0, 5) + " s");
    {
        RunSpec twenty = oneStep;
        twenty.steps = 20;
        QJsonObject summary;
        s = bench::timeSeconds(
            [&] { summary = runSummaryJson(simulateRun(*doc, twenty, nullptr), twenty); });
        row("405B, 16,384 GPUs, 20 steps with their distribution", s, 0,
            "p99 " +
                std::to_string(
                    summary.value("stepTimeDistribution").toObject().value("p99").toDouble())
                    .substr(0, 5) +
                " s");
    }

    // The max-min problem of 2,048 GPUs' DP rings (16 flows per pair) in one pod.
    FabricRouter router(doc->topology(), doc->index());
    FlowPaths paths;
    std::vector<int32_t> route;
    for (int32_t g = 0; g < 2048; ++g)
        for (int q = 0; q < 16; ++q) {
            route.clear();
            router.route(g, (g + 128) % 2048, uint64_t(g) * 16 + uint64_t(q), route);
            paths.add(route);
        }
    const std::vector<double> cap = router.capacities(FabricTransports(doc->topology()));
    std::vector<double> fast, slow;
    const double heapS = bench::timeSeconds([&] { fast = maxMinFairRates(cap, paths); });
    const double naiveS = bench::timeSeconds([&] { slow = maxMinFairRatesNaive(cap, paths); });
    double worst = 0;
    for (size_t f = 0; f < fast.size(); ++f)
        worst = std::max(worst, std::fabs(fast[f] - slow[f]) / slow[f]);
    row("max-min solve, 32,768 flows: heap (progressive filling)", heapS, 0, "");
    row("max-min solve, 32,768 flows: naive rescan (baseline)", naiveS, 0,
        "same rates within " + std::to_string(worst).substr(0, 8));
    // The same flows as the engine solves them: each GPU's 16 queue pairs as one transfer
    // whose flows advance together.
    TransferLoads loads;
    std::vector<double> flowsOn(cap.size(), 0.0);
    for (int32_t g = 0; g < 2048; ++g) {
        std::vector<std::pair<int32_t, double>> load;
        for (int q = 0; q < 16; ++q)
            for (int32_t r : paths.of(size_t(g) * 16 + size_t(q)))
                flowsOn[size_t(r)] += 1.0 / 16;
        for (int q = 0; q < 16; ++q)
            for (int32_t r : paths.of(size_t(g) * 16 + size_t(q)))
                if (flowsOn[size_t(r)] > 0) {
                    load.emplace_back(r, flowsOn[size_t(r)]);
                    flowsOn[size_t(r)] = 0;
                }
        loads.add(load, std::numeric_limits<double>::infinity());
    }
    TransferSolveScratch scratch;
    std::vector<double> paced;
    const double transferS =
        bench::timeSeconds([&] { paced = maxMinFairTransferRates(cap, loads, {}, scratch); });
    double slowestFlow = 1e300, slowestTransfer = 1e300;
    for (double f : fast)
        slowestFlow = std::min(slowestFlow, f * 16);
    for (double t : paced)
        slowestTransfer = std::min(slowestTransfer, t);
    row("max-min solve, same flows as 2,048 paced transfers", transferS, 0,
        "slowest GPU pair " + std::to_string(int(slowestTransfer / 1e9)) +
            " GB/s (flow solve, slowest flow x 16: " + std::to_string(int(slowestFlow / 1e9)) +
            " GB/s)");
    {
        // Network-heavy placements (last: their topologies and solves would inflate the memory
        // figures above): each against the earlier engine, which solved over every link.
        RunSpec spread = oneStep;
        spread.parallel.placement = Placement::Linear;
        allLinksBaseline(*doc, spread, dpInnermostStepS,
                         "dp-innermost step solved over every link (before)");
        // Fragmented: the job's racks scattered over all pods, on 100G NICs and fabric.
        TopologyReadOptions at100g;
        at100g.sets = {"generator.clusters[0].nicGbps=100", "generator.clusters[0].fabricGbps=100"};
        const auto slow = openTopology("meta-roce-24k", {}, at100g);
        RunSpec fragmented = oneStep;
        fragmented.parallel.placement = Placement::Fragmented;
        RunResult y;
        const double fragS =
            bench::timeSeconds([&] { y = simulateRun(*slow, fragmented, nullptr); });
        row("405B step, fragmented, 100G NICs and fabric", fragS, 0,
            "step " + std::to_string(y.step.stepS).substr(0, 5) + " s, " +
                std::to_string(y.step.schedule->reshares) + " re-shares, " +
                std::to_string(y.step.fabricSolves) + " solves (" +
                std::to_string(int(double(y.step.fabricSolves) / fragS)) + "/s) over " +
                std::to_string(y.step.linksSolved) + " of " + std::to_string(y.step.linksLoaded) +
                " link directions");
        allLinksBaseline(*slow, fragmented, y.step.stepS,
                         "  the same, solved over every link (before)");
    }
    // Scale: meta-roce-24k's pods of 256 racks (4,096 GPUs), 4 to 64 of them, TP 8, PP 16 and
    // DP over the rest, 16 micro-batches per replica; the memory estimate beside the peak.
    for (const int pods : {4, 16, 32, 64}) {
        TopologyReadOptions o;
        o.sets = {"generator.clusters[0].pods=" + std::to_string(pods),
                  "generator.clusters[0].racksPerPod=256", "generator.clusters[0].coreRadix=4096"};
        const auto big = openTopology("meta-roce-24k", {}, o);
        RunSpec scaled = oneStep;
        scaled.parallel.dp = pods * 4096 / 128;
        scaled.parallel.batchTokens = double(scaled.parallel.dp) * 16 * 8192;
        bench::releaseFreed();
        const double before = bench::rssMiB();
        bench::resetPeak();
        RunResult z;
        const double scaleS = bench::timeSeconds([&] { z = simulateRun(*big, scaled, nullptr); });
        const double peak = bench::peakMiB() - before;
        const double estimate = estimateSimulationBytes(big->topology(), scaled, false) / 1048576.0;
        char what[80], note[200];
        std::snprintf(what, sizeof what, "405B step, %d GPUs (%d pods, DP %d)", pods * 4096, pods,
                      scaled.parallel.dp);
        std::snprintf(note, sizeof note,
                      "step %.3f s; memory estimated beforehand %.0f MiB (%+.0f %% of the peak)",
                      z.step.stepS, estimate, (estimate / peak - 1) * 100);
        row(what, scaleS, peak, note);
    }
    moeRows();
    clusterRows();
    return 0;
}
