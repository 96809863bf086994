// The training simulator: calibration on Llama 3 Table 4, and, without re-tuning, the
// direction of its answers elsewhere (GPUs, sequence length, oversubscription, placement),
// its rejections, determinism, the max-min solver and the failure model.
#include "ChromeTrace.h"
#include "FabricShare.h"
#include "FailureModel.h"
#include "KernelModel.h"
#include "MaxMinFairShare.h"
#include "Presets.h"
#include "RankPlacement.h"
#include "RunReader.h"
#include "RunSpecJson.h"
#include "SimulationMemory.h"
#include "SimulationRun.h"
#include "SiteGenerator.h"
#include "StepSchedule.h"
#include "TrainingEfficiency.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <random>
#include <set>

using namespace cs;

namespace {
ParallelConfig config(int tp, int cp, int pp, int dp, int seq) {
    ParallelConfig c;
    c.tp = tp, c.cp = cp, c.pp = pp, c.dp = dp, c.seqLen = seq;
    return c;
}

StepEstimate step(const TopologyDocument& doc, const char* model, const ParallelConfig& c) {
    return estimateStep(doc.topology(), doc.index(), *findModel(model), *findGpu("h100"), c);
}

// Simulates into a store file (the writer closes before any reader opens it).
RunResult simulateToStore(const TopologyDocument& doc, const RunSpec& spec, const QString& path) {
    RunStore store = RunStore::openForWriting(path);
    return simulateRun(doc, spec, &store);
}

const TopologyDocument& roce() {
    static const auto doc = openTopology("meta-roce-24k", {});
    return *doc;
}

std::unique_ptr<TopologyDocument> smallWithOversubscription(double ratio) {
    SiteParams p = *presetParams("small-256");
    p.clusters[0].oversubscription = ratio;
    return std::make_unique<TopologyDocument>(generateSite(p), p, "test");
}
} // namespace

class TestSimulator : public QObject {
    Q_OBJECT
private slots:
    void railWiringKeepsRingsOffOversubscribedUplinks();
    void memoryFollowsTheSwitches();
    void contextParallelTrafficShowsDuringCompute();
    void resolutionSetsTheFrameInterval();
    void checkpointsLoadTheStorageServers();
    void interleavingNeedsMicroBatchesInMultiplesOfPp();
    void zeroStagesMoveDifferentVolumes();
    void overlapHidesDataParallelTraffic();
    void fragmentedPlacementPaysAtOversubscription();
    void nicSpeedMattersForDataParallelNotForTensorParallel();
    void hbmBandwidthShowsInMemoryBoundWork();
    void precisionAndGpuGenerations();
    void modelSizesFromTable3();
    void moreGpusMoreTokens();
    void longerSequencesLowerUtilisation();
    void oversubscriptionSlowsCrossPodTraffic();
    void placementMatters();
    void tensorParallelCollectivesAreOperations();
    void allReduceTreeOrRing();
    void rejectsWhatCannotRun_data();
    void rejectsWhatCannotRun();
    void transfersReshareAtEveryStartAndFinish();
    void transferSolverPacesATransferBySlowestLink();
    void transferSolverMatchesFlowSolver_data();
    void transferSolverMatchesFlowSolver();
    void overlappingCollectivesShareTheFabric();
    void transfersThatOverlapSlowEachOther();
    void runsPastTheMemoryBudgetAreRefused();
    void heapSolverMatchesNaive_data();
    void heapSolverMatchesNaive();
    void failuresFollowTable5();
    void runsAreDeterministic();
    void storeHoldsTheRun();
    void simulatedLinksCarryBytes_data();
    void simulatedLinksCarryBytes();
    void traceIsPerfettoJson();
    void runDescriptionsNameTheirMistakes();
};

void TestSimulator::interleavingNeedsMicroBatchesInMultiplesOfPp() {
    const auto doc = openTopology("small-256", {});
    ParallelConfig c = config(8, 1, 4, 8, 8192);
    c.batchTokens = 6.0 * 8192 * 8; // 6 micro-batches per replica: not a multiple of PP = 4
    try {
        step(*doc, "llama3-8b", c);
        QFAIL("expected a refusal");
    } catch (const InputException& e) {
        QCOMPARE(QString::fromStdString(e.error().field), QString("parallel.virtualStages"));
    }
    c.virtualStages = 1; // plain 1F1B takes any count from PP on
    QVERIFY(step(*doc, "llama3-8b", c).stepS > 0);
}

void TestSimulator::resolutionSetsTheFrameInterval() {
    const auto doc = openTopology("small-256", {});
    QTemporaryDir dir;
    auto changes = [&](double resolutionS) {
        RunSpec s;
        s.model = "llama3-8b";
        s.parallel = config(8, 1, 4, 8, 8192);
        s.parallel.virtualStages = 1;
        s.steps = 1;
        s.resolutionS = resolutionS;
        const QString path = dir.filePath(QString("r%1.sqlite").arg(resolutionS));
        const RunResult r = simulateToStore(*doc, s, path);
        RunReader reader(path, doc->topology());
        // Sampled every millisecond: a value holds for a frame, so it changes at most once a frame.
        double changed = 0;
        float last = reader.frame(Metric::GpuBusy, 0)[0];
        for (int64_t at = 1'000'000; at < std::llround(r.step.stepS * 1e9); at += 1'000'000) {
            const float v = reader.frame(Metric::GpuBusy, at)[0];
            changed += v != last;
            last = v;
        }
        return std::pair{changed, r.step.stepS / resolutionS + 1};
    };
    const auto [fine, fineBound] = changes(0.001);
    const auto [coarse, coarseBound] = changes(0.1);
    QVERIFY2(
        fine <= fineBound && coarse <= coarseBound,
        qPrintable(
            QString("%1 of %2, %3 of %4").arg(fine).arg(fineBound).arg(coarse).arg(coarseBound)));
    QVERIFY(fine > coarse * 5);
}

void TestSimulator::checkpointsLoadTheStorageServers() {
    const auto doc = openTopology("small-256", {});
    QTemporaryDir dir;
    RunSpec s;
    s.model = "llama3-8b";
    s.parallel = config(8, 1, 4, 8, 8192);
    s.spanS = 3600;
    s.checkpointIntervalS = 600;
    simulateToStore(*doc, s, dir.filePath("span.sqlite"));
    RunReader reader(dir.filePath("span.sqlite"), doc->topology());
    const int64_t during = 600'000'000'000 + 10'000'000, after = 700'000'000'000;
    const std::vector<float> writing = reader.frame(Metric::StorageBytesPerS, during);
    const std::vector<float> training = reader.frame(Metric::StorageBytesPerS, after);
    double sumWriting = 0, sumTraining = 0;
    for (size_t k = 0; k < writing.size(); ++k) {
        sumWriting += writing[k];
        sumTraining += training[k];
    }
    QVERIFY2(sumWriting > 100 * sumTraining,
             qPrintable(QString("%1 vs %2").arg(sumWriting).arg(sumTraining)));
    for (float v : reader.frame(Metric::GpuBusy, during)) // the job waits for its checkpoint
        QVERIFY(std::isnan(v) || v == 0);
    // The writes cross the frontend: every job host's frontend cable carries them, and on
    // this small cluster the storage servers' own links set the pace (not the 2 TB/s).
    const Topology& t = doc->topology();
    const std::vector<float> links = reader.frame(Metric::LinkBytesPerS, during);
    for (int h : {0, 5, 31}) {
        const auto nic = doc->index().find(t.hosts[size_t(h)].name + ".fe0");
        QVERIFY(nic.has_value());
        double load = 0;
        for (int32_t l : doc->index().linksOf(*nic))
            if (!std::isnan(links[size_t(l)])) load += links[size_t(l)];
        QVERIFY2(load > 1e8, qPrintable(QString("host %1: %2 B/s").arg(h).arg(load)));
    }
    double serversCapacity = 0;
    for (size_t k = 0; k < t.storage.size(); ++k)
        if (t.storage[k].kind == StorageKind::Tectonic)
            serversCapacity += capacityOf(Metric::StorageBytesPerS, t, int32_t(k));
    QVERIFY(sumWriting > 0.8 * serversCapacity && sumWriting <= serversCapacity * (1 + 1e-6));
    const QJsonObject summary =
        QJsonDocument::fromJson(QByteArray::fromStdString(reader.info().summaryJson)).object();
    QVERIFY(std::fabs(summary["checkpointTimeS"].toDouble() -
                      summary["checkpointBytes"].toDouble() / sumWriting) < 0.01);
    // On meta-roce-24k the 2 TB/s of Tectonic is the limit for 405B: 6.5 TB in 3.25 s.
    RunSpec big;
    big.parallel = config(8, 1, 16, 128, 8192);
    big.steps = 1;
    const RunResult r = simulateRun(roce(), big, nullptr);
    QVERIFY(std::fabs(r.checkpointS - r.checkpointBytes / 2e12) < 1e-6);
}

void TestSimulator::contextParallelTrafficShowsDuringCompute() {
    // 8B with CP 2 over pairs of hosts: K and V go around the CP ring inside every layer.
    const auto doc = openTopology("small-256", {});
    QTemporaryDir dir;
    RunSpec s;
    s.model = "llama3-8b";
    s.parallel = config(8, 2, 1, 16, 8192);
    s.parallel.virtualStages = 1;
    s.parallel.batchTokens = 16 * 8192 * 4.0;
    s.parallel.overlap.dpGradReduce = s.parallel.overlap.dpParamGather = false; // DP apart
    s.steps = 1;
    const RunResult r = simulateToStore(*doc, s, dir.filePath("cp.sqlite"));
    QVERIFY(r.step.cpExposedS > 0);
    RunReader reader(dir.filePath("cp.sqlite"), doc->topology());
    const auto& compute = r.step.schedule->compute.front();
    QVERIFY(!compute.empty());
    // In the middle of the compute, after the gathers and before the reductions.
    const double midS = (compute.front().fromS + compute.back().toS) / 2;
    const std::vector<float> links = reader.frame(Metric::LinkBytesPerS, std::llround(midS * 1e9));
    size_t loaded = 0;
    for (float v : links)
        loaded += v > 0;
    QVERIFY2(loaded >= doc->topology().gpus.size() / 2, qPrintable(QString::number(loaded)));
}

void TestSimulator::memoryFollowsTheSwitches() {
    const ModelSpec m = *findModel("llama3-70b");
    ParallelConfig c = config(8, 1, 4, 32, 8192);
    c.virtualStages = 1;
    double previous = 1e300;
    for (int zero = 0; zero <= 3; ++zero) { // each stage shards more
        c.zeroStage = zero;
        const double total = estimateMemory(m, c).totalGiB();
        QVERIFY2(total < previous, qPrintable(QString("ZeRO %1: %2 GiB").arg(zero).arg(total)));
        previous = total;
    }
    c.zeroStage = 2;
    const double plain = estimateMemory(m, c).activationsGiB;
    c.recompute = Recompute::Full;
    QVERIFY(estimateMemory(m, c).activationsGiB < plain / 4); // the layer input only
    c.recompute = Recompute::None;
    c.sequenceParallel = false; // 10 s b h stays replicated over TP
    const double noSp = estimateMemory(m, c).activationsGiB;
    QVERIFY(noSp > plain * 1.5);
    c.sequenceParallel = true;
    c.fusedAttention = false; // the s x s scores are kept
    const double unfused = estimateMemory(m, c).activationsGiB;
    QVERIFY(unfused > plain * 2);
    c.recompute = Recompute::Selective; // ... unless recomputed
    QCOMPARE(estimateMemory(m, c).activationsGiB, plain);
}

void TestSimulator::zeroStagesMoveDifferentVolumes() {
    const auto doc = openTopology("small-256", {});
    ParallelConfig c = config(8, 1, 1, 32, 8192);
    c.virtualStages = 1;
    c.zeroStage = 2;
    const StepEstimate two = step(*doc, "llama3-8b", c);
    c.zeroStage = 3; // weights gathered before forward and again before backward
    const StepEstimate three = step(*doc, "llama3-8b", c);
    // Twice the volume over the same rings, in as many collectives: one per layer, each
    // paying its ring's 31 step latencies once.
    const double latencyS = 32 * 31 * efficiency::kFabricStepLatencyS;
    QVERIFY2(std::fabs((three.dpAllGatherS - latencyS) / (two.dpAllGatherS - latencyS) - 2) < 0.01,
             qPrintable(QString("%1 vs %2").arg(three.dpAllGatherS).arg(two.dpAllGatherS)));
    c.zeroStage = 0; // an all-reduce of bf16 gradients, no gather
    const StepEstimate zero = step(*doc, "llama3-8b", c);
    QCOMPARE(zero.dpAllGatherS, 0.0);
    QVERIFY(zero.dpReduceScatterS > 0);
}

void TestSimulator::overlapHidesDataParallelTraffic() {
    const auto doc = openTopology("small-256", {});
    ParallelConfig c = config(8, 1, 1, 32, 8192);
    c.virtualStages = 1;
    const StepEstimate overlapped = step(*doc, "llama3-8b", c);
    c.overlap.dpGradReduce = c.overlap.dpParamGather = false;
    const StepEstimate exposed = step(*doc, "llama3-8b", c);
    // Without overlap the whole DP traffic adds to the step; with it, a chunk's worth.
    QVERIFY(exposed.dpExposedS > overlapped.dpExposedS * 5);
    QVERIFY(exposed.stepS - overlapped.stepS >
            0.8 * (exposed.dpAllGatherS + exposed.dpReduceScatterS - overlapped.dpExposedS));
}

void TestSimulator::fragmentedPlacementPaysAtOversubscription() {
    // 70B on 8,192 GPUs with its DP traffic exposed: replicas kept within pods, or racks
    // scattered over all 8 pods so that the rings cross the 1:7 (or 1:1) layer above them.
    auto site = [](double oversubscription) {
        SiteParams p = *presetParams("meta-roce-24k");
        p.clusters[0].oversubscription = oversubscription;
        p.clusters[0].coresPerPlane = 4; // enough core ports for 1:1
        return std::make_unique<TopologyDocument>(generateSite(p), p, "test");
    };
    ParallelConfig c = config(8, 1, 1, 1024, 8192);
    c.virtualStages = 1;
    c.zeroStage = 3;
    c.batchTokens = 1024 * 8192;
    c.overlap.dpGradReduce = c.overlap.dpParamGather = false;
    double gap[2];
    int k = 0;
    for (double ratio : {7.0, 1.0}) {
        const auto doc = site(ratio);
        c.placement = Placement::TopologyAware;
        const StepEstimate together = step(*doc, "llama3-70b", c);
        c.placement = Placement::Fragmented;
        const StepEstimate scattered = step(*doc, "llama3-70b", c);
        gap[k++] = scattered.stepS / together.stepS - 1;
    }
    QVERIFY2(gap[0] > 0.05, qPrintable(QString("1:7 gap %1").arg(gap[0])));
    QVERIFY2(gap[1] < gap[0] / 2,
             qPrintable(QString("1:1 gap %1, 1:7 gap %2").arg(gap[1]).arg(gap[0])));
}

void TestSimulator::nicSpeedMattersForDataParallelNotForTensorParallel() {
    auto withNic = [](double gbps) {
        SiteParams p = *presetParams("small-ib-256"); // non-blocking: the NICs are the limit
        p.clusters[0].nicGbps = gbps;
        return std::make_unique<TopologyDocument>(generateSite(p), p, "test");
    };
    const auto full = withNic(400), half = withNic(200);
    ParallelConfig dpHeavy = config(8, 1, 1, 32, 8192);
    dpHeavy.virtualStages = 1;
    dpHeavy.overlap.dpGradReduce = dpHeavy.overlap.dpParamGather = false;
    dpHeavy.batchTokens = 32 * 8192; // one micro-batch per replica: the collectives weigh
    const StepEstimate slow = step(*half, "llama3-8b", dpHeavy),
                       fast = step(*full, "llama3-8b", dpHeavy);
    QVERIFY2(slow.stepS > fast.stepS * 1.05,
             qPrintable(QString("%1 s vs %2 s (DP %3 + %4 vs %5 + %6)")
                            .arg(slow.stepS)
                            .arg(fast.stepS)
                            .arg(slow.dpAllGatherS)
                            .arg(slow.dpReduceScatterS)
                            .arg(fast.dpAllGatherS)
                            .arg(fast.dpReduceScatterS)));
    ParallelConfig tpOnly = config(8, 1, 1, 1, 8192); // one host: NVLink only
    tpOnly.virtualStages = 1;
    tpOnly.batchTokens = 8 * 8192;
    QCOMPARE(step(*half, "llama3-8b", tpOnly).stepS, step(*full, "llama3-8b", tpOnly).stepS);
}

void TestSimulator::hbmBandwidthShowsInMemoryBoundWork() {
    const GpuSpec h100 = *findGpu("h100-sxm"), h200 = *findGpu("h200");
    // A large square GEMM is compute-bound: the same on both (same tensor cores).
    QCOMPARE(gemmSeconds(h200, Precision::Bf16, 8192, 8192, 8192),
             gemmSeconds(h100, Precision::Bf16, 8192, 8192, 8192));
    // A thin one (a single sequence's decode-like shape) streams its weights: H200's 4.8 TB/s.
    const double thin100 = gemmSeconds(h100, Precision::Bf16, 16, 16384, 16384);
    const double thin200 = gemmSeconds(h200, Precision::Bf16, 16, 16384, 16384);
    QVERIFY2(thin100 / thin200 > 1.4, qPrintable(QString::number(thin100 / thin200)));
    // A whole step: the optimizer and element-wise kernels run faster, the GEMMs do not.
    ParallelConfig c = config(8, 1, 1, 8, 8192);
    c.virtualStages = 1;
    c.zeroStage = 0;
    const auto doc = openTopology("small-256", {});
    const StepEstimate a =
        estimateStep(doc->topology(), doc->index(), *findModel("llama3-8b"), h100, c);
    const StepEstimate b =
        estimateStep(doc->topology(), doc->index(), *findModel("llama3-8b"), h200, c);
    QVERIFY(b.optimizerS < a.optimizerS * 0.75);
    QVERIFY(b.stepS < a.stepS);
    QVERIFY(b.stepS > a.stepS * 0.8); // mostly GEMMs: far from the 1.43x of HBM
}

void TestSimulator::precisionAndGpuGenerations() {
    const auto doc = openTopology("small-256", {});
    ParallelConfig c = config(8, 1, 1, 8, 8192);
    c.virtualStages = 1;
    auto stepOn = [&](const char* gpu, const ParallelConfig& p) {
        return estimateStep(doc->topology(), doc->index(), *findModel("llama3-8b"), *findGpu(gpu),
                            p);
    };
    const StepEstimate bf16 = stepOn("h100-sxm", c);
    ParallelConfig fp8 = c;
    fp8.precision = Precision::Fp8;
    const StepEstimate f8 = stepOn("h100-sxm", fp8);
    QVERIFY(f8.stepS < bf16.stepS * 0.85); // GEMMs at twice the peak; attention stays BF16
    QVERIFY(f8.stepS > bf16.stepS * 0.5);
    QVERIFY(stepOn("b200", c).stepS < bf16.stepS * 0.6); // 2.25 PF against 0.99
    QVERIFY(stepOn("a100", c).stepS > bf16.stepS * 2);   // the old name still reads
}

void TestSimulator::modelSizesFromTable3() {
    QVERIFY(std::fabs(findModel("llama3-405b")->parameters() / 405.8e9 - 1) < 0.005);
    QVERIFY(std::fabs(findModel("llama3-70b")->parameters() / 70.6e9 - 1) < 0.01);
    QVERIFY(std::fabs(findModel("llama3-8b")->parameters() / 8.03e9 - 1) < 0.01);
    // GPT shapes: 12 h^2 + 13 h per layer; the 175B of GPT-3 and Megatron-LM.
    QVERIFY(std::fabs(findModel("gpt-175b")->parameters() / 174.6e9 - 1) < 0.01);
    QVERIFY(std::fabs(findModel("gpt-1t")->parameters() / 1.008e12 - 1) < 0.01);
}

void TestSimulator::moreGpusMoreTokens() {
    const StepEstimate a = step(roce(), "llama3-405b", config(8, 1, 16, 64, 8192));
    const StepEstimate b = step(roce(), "llama3-405b", config(8, 1, 16, 128, 8192));
    QVERIFY(b.tokensPerS >
            a.tokensPerS * 1.5); // twice the GPUs: more, though not twice, throughput
    QVERIFY(b.tokensPerS < a.tokensPerS * 2.0);
    QVERIFY(b.bubbleFraction > a.bubbleFraction); // fewer micro-batches per replica
}

void TestSimulator::longerSequencesLowerUtilisation() {
    const StepEstimate shortSeq = step(roce(), "llama3-405b", config(8, 1, 16, 64, 8192));
    const StepEstimate longSeq = step(roce(), "llama3-405b", config(8, 4, 16, 16, 32768));
    QVERIFY(longSeq.mfu < shortSeq.mfu); // attention grows and runs at lower efficiency
    QVERIFY(longSeq.cpExposedS > 0);
}

void TestSimulator::oversubscriptionSlowsCrossPodTraffic() {
    // 256 GPUs in 2 pods: DP rings cross the pods through the core switches.
    const auto open = smallWithOversubscription(1.0), tight = smallWithOversubscription(64.0);
    const ParallelConfig c = config(8, 1, 1, 32, 8192);
    ParallelConfig c1 = c;
    c1.virtualStages = 1;
    const StepEstimate a = step(*open, "llama3-8b", c1), b = step(*tight, "llama3-8b", c1);
    QVERIFY2(b.dpAllGatherS > a.dpAllGatherS * 2,
             qPrintable(QString("%1 vs %2").arg(b.dpAllGatherS).arg(a.dpAllGatherS)));
    QVERIFY(b.stepS > a.stepS);
}

void TestSimulator::placementMatters() {
    const auto doc = openTopology("small-256", {});
    ParallelConfig c = config(8, 1, 4, 8, 8192);
    const StepEstimate topo = step(*doc, "llama3-8b", c);
    c.placement = Placement::Linear;
    const StepEstimate linear = step(*doc, "llama3-8b", c);
    // TP groups across hosts: TP collectives leave NVLink for the fabric.
    QVERIFY(linear.tpPerMicroS > topo.tpPerMicroS * 3);
    QVERIFY(linear.stepS > topo.stepS);
}

void TestSimulator::tensorParallelCollectivesAreOperations() {
    const auto doc = openTopology("small-256", {});
    ParallelConfig c = config(8, 1, 4, 8, 8192);
    c.virtualStages = 1;
    using Kind = TransferRecord::Kind;
    auto tpOf = [](const StepEstimate& e) {
        std::vector<TransferRecord> out;
        for (const TransferRecord& x : e.schedule->transfers)
            if (x.kind == Kind::Tp) out.push_back(x);
        return out;
    };
    // Sequence parallelism: 4 collectives in each layer's forward, 2 phases of them in its
    // backward (4 beside the weight-gradient GEMMs, then the 2 re-gathers).
    const StepEstimate exposed = step(*doc, "llama3-8b", c);
    const auto tp = tpOf(exposed);
    const int layers = findModel("llama3-8b")->layers;
    QCOMPARE(int(tp.size()), layers * int(exposed.microBatches) * (4 + 2));
    // Each runs inside a pass of its stage, on NVLink (every TP group within a host).
    const double nvlinkBps = findGpu("h100")->nvlinkGBpsPerDirection * 1e9;
    for (const TransferRecord& x : tp) {
        const auto& passes = exposed.schedule->passes[size_t(x.stage)];
        const bool inside = std::any_of(passes.begin(), passes.end(), [&](const PassRecord& p) {
            return p.forward == x.forward && p.micro == x.micro && p.fromS <= x.fromS + 1e-12 &&
                   x.toS <= p.toS + 1e-12;
        });
        QVERIFY2(
            inside,
            qPrintable(QString("stage %1 mb %2 at %3").arg(x.stage).arg(x.micro).arg(x.fromS)));
        QVERIFY(x.bytes / (x.toS - x.fromS) < nvlinkBps);
    }
    QVERIFY(exposed.tpLinkBytes.empty()); // nothing of it on the fabric
    // ... and so no new fabric solve: only the other transfers' starts and finishes re-share.
    const auto others = exposed.schedule->transfers.size() - tp.size();
    QVERIFY(exposed.schedule->reshares <= 2 * (long long)others);
    // With TP overlap the forward's collectives run beside its GEMMs: they start with the
    // layer's compute, and the step is shorter.
    c.overlap.tpComm = true;
    const StepEstimate overlapped = step(*doc, "llama3-8b", c);
    QVERIFY(overlapped.stepS < exposed.stepS);
    const auto& firstLayer = overlapped.schedule->layers[0].front();
    const auto first = tpOf(overlapped).front();
    QCOMPARE(first.fromS, firstLayer.fromS);
    QVERIFY(first.toS < firstLayer.toS);
    // DP innermost spreads each TP group over 8 hosts: its collectives go over the fabric,
    // slower, and the replay's links carry them.
    c.overlap.tpComm = false;
    c.placement = Placement::Linear;
    const StepEstimate spread = step(*doc, "llama3-8b", c);
    QCOMPARE(spread.tpLinkBytes.size(), size_t(c.pp));
    double tpBusyTogether = 0, tpBusySpread = 0;
    for (const auto& x : tp)
        tpBusyTogether += x.toS - x.fromS;
    for (const auto& x : tpOf(spread))
        tpBusySpread += x.toS - x.fromS;
    QVERIFY2(tpBusySpread > 3 * tpBusyTogether,
             qPrintable(QString("%1 s against %2 s").arg(tpBusySpread).arg(tpBusyTogether)));
    QVERIFY(spread.stepS - exposed.stepS > 0.5 * (tpBusySpread - tpBusyTogether) / c.pp);
}

void TestSimulator::allReduceTreeOrRing() {
    // ZeRO 0 with the gradient all-reduce exposed: a layer's bucket pays 2 (n - 1) step
    // latencies around a ring, 2 log2(n) up and down NCCL's double binary tree.
    auto run = [](const TopologyDocument& doc, int dp, AllReduceAlgorithm algorithm) {
        ParallelConfig c = config(8, 1, 1, dp, 8192);
        c.virtualStages = 1;
        c.zeroStage = 0;
        c.overlap.dpGradReduce = false;
        c.batchTokens = double(dp) * 8192;
        c.allReduce = algorithm;
        return step(doc, "llama3-8b", c);
    };
    using A = AllReduceAlgorithm;
    // 1,024 members: the ring's latencies dominate; the tree wins and auto takes it.
    const StepEstimate ring = run(roce(), 1024, A::Ring), tree = run(roce(), 1024, A::Tree),
                       picked = run(roce(), 1024, A::Auto);
    QVERIFY(!ring.dpTree && tree.dpTree && picked.dpTree);
    QCOMPARE(picked.stepS, tree.stepS);
    // The ring pays its latencies on every bucket; the tree crosses the pods more (its edges
    // join members far apart) but still finishes sooner.
    const int buckets = findModel("llama3-8b")->layers;
    QVERIFY(ring.dpReduceScatterS > buckets * 2 * 1023 * efficiency::kFabricStepLatencyS);
    QVERIFY2(tree.dpReduceScatterS < ring.dpReduceScatterS && tree.stepS < ring.stepS,
             qPrintable(QString("ring %1 s, tree %2 s").arg(ring.stepS).arg(tree.stepS)));
    // 3 members: the same latencies, and a ring's edge carries 2/3 of the data against a
    // tree member's 3 halves: the ring wins and auto takes it.
    const auto small = openTopology("small-256", {});
    const StepEstimate ring3 = run(*small, 3, A::Ring), tree3 = run(*small, 3, A::Tree),
                       picked3 = run(*small, 3, A::Auto);
    QVERIFY2(ring3.stepS < tree3.stepS,
             qPrintable(QString("ring %1 s, tree %2 s").arg(ring3.stepS).arg(tree3.stepS)));
    QVERIFY(!picked3.dpTree);
    QCOMPARE(picked3.stepS, ring3.stepS);
}

void TestSimulator::rejectsWhatCannotRun_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<int>("tp");
    QTest::addColumn<int>("cp");
    QTest::addColumn<int>("pp");
    QTest::addColumn<int>("dp");
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("message");
    QTest::newRow("out of memory") << "llama3-405b" << 8 << 1 << 4 << 64 << "parallel.pp"
                                   << "does not fit";
    QTest::newRow("layers") << "llama3-405b" << 8 << 1 << 12 << 64 << "parallel.pp"
                            << "do not split";
    QTest::newRow("too many GPUs") << "llama3-405b" << 8 << 2 << 16 << 128 << "parallel.dp"
                                   << "the topology has 24576";
    QTest::newRow("heads") << "llama3-8b" << 16 << 1 << 1 << 8 << "parallel.tp"
                           << "divide the attention heads";
    QTest::newRow("micro-batches") << "llama3-405b" << 8 << 1 << 16 << 192 << "parallel.batchTokens"
                                   << "micro-batches";
}

void TestSimulator::rejectsWhatCannotRun() {
    QFETCH(QString, model);
    QFETCH(int, tp);
    QFETCH(int, cp);
    QFETCH(int, pp);
    QFETCH(int, dp);
    QFETCH(QString, field);
    QFETCH(QString, message);
    try {
        step(roce(), qPrintable(model), config(tp, cp, pp, dp, 8192));
        QFAIL("expected an InputException");
    } catch (const InputException& e) {
        QCOMPARE(QString::fromStdString(e.error().field), field);
        QVERIFY2(QString(e.what()).contains(message), e.what());
    }
}

namespace {
// Two transfers over one link of 10 bytes/s: alone one gets all of it, together half each.
// (Only the schedule's arithmetic is under test here; the fabric's own answer is tested
// with FabricShare below.)
struct OneLink final : ShareModel {
    void rates(std::span<const int> active, std::vector<double>& rate) override {
        rate.assign(active.size(), 10.0 / double(active.size()));
    }
};
} // namespace

void TestSimulator::transfersReshareAtEveryStartAndFinish() {
    OneLink link;
    ScheduleInput in;
    in.stages = 2, in.chunks = 1, in.microBatches = 2;
    in.forwardS = in.backwardS = {{1.0}, {1.0}};
    in.layersPerChunk = {{1}, {1}};
    in.gatherBytes = {100, 50}; // both stages gather at the start
    in.share = &link;
    const ScheduleResult r = runSchedule(in);
    // Together at 5 each: stage 1's 50 bytes are done at 10 s; stage 0 then has the link to
    // itself for its remaining 50 bytes at 10 per second: done at 15 s.
    QCOMPARE(r.gathers[1].size(), size_t(1));
    QCOMPARE(r.gathers[1].front().toS, 10.0);
    QCOMPARE(r.gathers[0].front().toS, 15.0);
    QCOMPARE(r.reshares, 2LL);
    // Each stage's first forward waits for its parameters.
    QCOMPARE(r.passes[0].front().fromS, 15.0);
    QVERIFY(r.passes[1].front().fromS >= 16.0); // and for stage 0's output
}

void TestSimulator::transferSolverPacesATransferBySlowestLink() {
    // Transfer 0 runs two flows, over link A (capacity 10) and link B (capacity 4); its flows
    // advance together, so B holds it to 4. Transfer 1, on A alone, gets the 6 left on A.
    TransferLoads loads;
    const std::pair<int32_t, double> both[] = {{0, 1.0}, {1, 1.0}}, onlyA[] = {{0, 1.0}};
    loads.add(both, std::numeric_limits<double>::infinity());
    loads.add(onlyA, std::numeric_limits<double>::infinity());
    std::vector<double> a, b;
    const auto rate = maxMinFairTransferRates({10, 4}, loads, a, b);
    QCOMPARE(rate[0], 4.0);
    QCOMPARE(rate[1], 6.0);
    // A cap (NVLink) binds like a private link; the scratch comes back zeroed.
    loads.caps[1] = 2;
    const auto capped = maxMinFairTransferRates({10, 4}, loads, a, b);
    QCOMPARE(capped[1], 2.0);
    QCOMPARE(capped[0], 4.0);
    QCOMPARE(std::count(a.begin(), a.end(), 0.0), 2L);
    QCOMPARE(std::count(b.begin(), b.end(), 0.0), 2L);
}

void TestSimulator::transferSolverMatchesFlowSolver_data() {
    QTest::addColumn<int>("seed");
    for (int s = 1; s <= 5; ++s)
        QTest::newRow(qPrintable(QString("seed %1").arg(s))) << s;
}

void TestSimulator::transferSolverMatchesFlowSolver() {
    // Transfers of one flow each are plain flows: both solvers must agree.
    QFETCH(int, seed);
    std::mt19937 rng{uint32_t(seed)};
    std::vector<double> capacity(30);
    for (double& c : capacity)
        c = std::uniform_real_distribution<double>(1, 10)(rng);
    FlowPaths paths;
    TransferLoads loads;
    for (int f = 0; f < 120; ++f) {
        std::vector<int32_t> p;
        for (int h = std::uniform_int_distribution<int>(1, 5)(rng); h > 0; --h)
            p.push_back(std::uniform_int_distribution<int32_t>(0, 29)(rng));
        std::sort(p.begin(), p.end());
        p.erase(std::unique(p.begin(), p.end()), p.end());
        paths.add(p);
        std::vector<std::pair<int32_t, double>> l;
        for (int32_t r : p)
            l.emplace_back(r, 1.0);
        loads.add(l, std::numeric_limits<double>::infinity());
    }
    std::vector<double> a, b;
    const auto flows = maxMinFairRatesNaive(capacity, paths);
    const auto transfers = maxMinFairTransferRates(capacity, loads, a, b);
    for (size_t f = 0; f < flows.size(); ++f)
        QVERIFY2(std::fabs(flows[f] - transfers[f]) < 1e-9 * std::max(1.0, flows[f]),
                 qPrintable(QString("%1 vs %2").arg(flows[f]).arg(transfers[f])));
}

void TestSimulator::overlappingCollectivesShareTheFabric() {
    const auto doc = openTopology("small-256", {});
    const Topology& t = doc->topology();
    FabricRouter router(t, doc->index());
    FabricShare share(t, router, *findGpu("h100-sxm"));
    // A stage's parameter gather and gradient reduction over one ring of 16 hosts (GPU 0 of
    // each): when they overlap, they share every NIC of the ring.
    auto ring = [&](int gpuInHost) {
        std::vector<Edge> edges;
        for (int h = 0; h < 16; ++h)
            edges.push_back({int32_t(h * 8 + gpuInHost), int32_t(((h + 1) % 16) * 8 + gpuInHost)});
        return edges;
    };
    const int a = share.addClass(ring(0), 16), b = share.addClass(ring(0), 16);
    const double soloA = share.soloRate(a), soloB = share.soloRate(b);
    std::vector<double> together;
    const int both[] = {a, b};
    share.rates(both, together);
    QVERIFY2(
        std::fabs(together[0] / soloA - 0.5) < 1e-9 && std::fabs(together[1] / soloB - 0.5) < 1e-9,
        qPrintable(
            QString("%1 %2 vs %3 %4").arg(together[0]).arg(together[1]).arg(soloA).arg(soloB)));
    // Feasible: at those rates no link direction carries more than its capacity.
    std::vector<double> load(2 * t.links.size(), 0.0);
    share.addLinkBytes(a, together[0], &load, nullptr);
    share.addLinkBytes(b, together[1], &load, nullptr);
    const std::vector<double> capacity = router.capacities(efficiency::kFabricGoodput);
    double fullest = 0;
    for (size_t r = 0; r < load.size(); ++r) {
        QVERIFY(load[r] <= capacity[r] * (1 + 1e-9));
        fullest = std::max(fullest, load[r] / capacity[r]);
    }
    QVERIFY(fullest > 0.999); // and max-min: something is full
    QVERIFY(share.solves() == 3);
    share.rates(both, together); // the same set again: no new solve
    QVERIFY(share.solves() == 3);
}

void TestSimulator::transfersThatOverlapSlowEachOther() {
    // 405B on 16,384 GPUs: all 16 stages gather their parameters at once at the start of the
    // step and their reductions overlap at its end, over shared fabric links. Re-shared, the
    // DP streams take longer than each alone would, and so does the step.
    const ParallelConfig c = config(8, 1, 16, 128, 8192);
    const auto& doc = roce();
    const auto m = *findModel("llama3-405b");
    const auto g = *findGpu("h100-sxm");
    const StepEstimate shared = estimateStep(doc.topology(), doc.index(), m, g, c, true);
    const StepEstimate alone = estimateStep(doc.topology(), doc.index(), m, g, c, false);
    const double sharedDp = shared.dpAllGatherS + shared.dpReduceScatterS,
                 aloneDp = alone.dpAllGatherS + alone.dpReduceScatterS;
    QVERIFY2(sharedDp > aloneDp * 1.1, qPrintable(QString("%1 vs %2").arg(sharedDp).arg(aloneDp)));
    QVERIFY(shared.stepS > alone.stepS);
    QVERIFY(shared.fabricSolves > alone.fabricSolves); // sets of transfers, not single ones
}

void TestSimulator::runsPastTheMemoryBudgetAreRefused() {
    RunSpec s;
    s.model = "llama3-8b";
    s.parallel = config(8, 1, 4, 8, 8192);
    s.steps = 1;
    const auto small = openTopology("small-256", {});
    const double need = estimateSimulationBytes(small->topology(), s, false);
    // The estimate grows with the fabric (per-link arrays) and with the store's buffers.
    QVERIFY(estimateSimulationBytes(roce().topology(), s, false) > need * 50);
    QVERIFY(estimateSimulationBytes(small->topology(), s, true) > need);
    s.memoryBudgetGiB = need / 2 / (1024.0 * 1024 * 1024);
    try {
        simulateRun(*small, s, nullptr);
        QFAIL("expected a refusal");
    } catch (const InputException& e) {
        QCOMPARE(QString::fromStdString(e.error().field), QString("memoryBudgetGiB"));
        QVERIFY(QString::fromStdString(e.error().message).contains("needs about"));
    }
    s.memoryBudgetGiB = need * 2 / (1024.0 * 1024 * 1024);
    QVERIFY(simulateRun(*small, s, nullptr).step.stepS > 0);
    QVERIFY(memoryBudgetBytes(RunSpec{}) > 1e8); // unset: the machine's memory
}

void TestSimulator::heapSolverMatchesNaive_data() {
    QTest::addColumn<int>("seed");
    for (int s = 1; s <= 5; ++s)
        QTest::newRow(qPrintable(QString("seed %1").arg(s))) << s;
}

void TestSimulator::heapSolverMatchesNaive() {
    QFETCH(int, seed);
    std::mt19937 rng{uint32_t(seed)};
    std::vector<double> capacity(40);
    for (double& c : capacity)
        c = std::uniform_real_distribution<double>(1, 10)(rng);
    FlowPaths paths;
    for (int f = 0; f < 300; ++f) {
        std::vector<int32_t> p;
        const int hops = std::uniform_int_distribution<int>(0, 5)(rng);
        for (int h = 0; h < hops; ++h)
            p.push_back(std::uniform_int_distribution<int32_t>(0, 39)(rng));
        std::sort(p.begin(), p.end());
        p.erase(std::unique(p.begin(), p.end()), p.end());
        paths.add(p);
    }
    const auto fast = maxMinFairRates(capacity, paths),
               slow = maxMinFairRatesNaive(capacity, paths);
    for (size_t f = 0; f < fast.size(); ++f) {
        if (std::isinf(slow[f]))
            QVERIFY(std::isinf(fast[f]));
        else
            QVERIFY2(std::fabs(fast[f] - slow[f]) < 1e-9 * std::max(1.0, slow[f]),
                     qPrintable(QString("%1 vs %2").arg(fast[f]).arg(slow[f])));
    }
    // Feasible: no resource over capacity.
    std::vector<double> load(capacity.size(), 0);
    for (size_t f = 0; f < fast.size(); ++f)
        for (int32_t r : paths.of(f))
            load[size_t(r)] += fast[f];
    for (size_t r = 0; r < load.size(); ++r)
        QVERIFY(load[r] <= capacity[r] * (1 + 1e-9));
}

void TestSimulator::failuresFollowTable5() {
    const Topology& t = roce().topology();
    std::vector<int32_t> gpus(16384);
    for (size_t g = 0; g < gpus.size(); ++g)
        gpus[g] = int32_t(g);
    const auto xs = drawInterruptions(t, gpus, 54.0 * 86400, 900, 42);
    // 466 in the paper's 54 days on ~16K GPUs; a Poisson draw stays within a few sigma.
    QVERIFY2(xs.size() > 400 && xs.size() < 540, qPrintable(QString::number(xs.size())));
    int gpuHits = 0;
    for (const Interruption& x : xs) {
        QVERIFY(x.entity.index >= 0);
        QVERIFY(x.lostS > 0);
        if (x.entity.kind == EntityKind::Gpu) ++gpuHits;
    }
    QVERIFY(gpuHits > int(xs.size()) / 2); // GPU issues are 58.7% of unexpected interruptions
    // Half the GPUs, half the hardware interruptions.
    const auto half = drawInterruptions(t, std::vector<int32_t>(gpus.begin(), gpus.begin() + 8192),
                                        54.0 * 86400, 900, 42);
    QVERIFY(half.size() < xs.size());
}

void TestSimulator::runsAreDeterministic() {
    const auto doc = openTopology("small-256", {});
    RunSpec s;
    s.model = "llama3-8b";
    s.parallel = config(8, 1, 4, 8, 8192);
    s.spanS = 30 * 86400;
    s.failures = true;
    s.seed = 5;
    const RunResult a = simulateRun(*doc, s, nullptr), b = simulateRun(*doc, s, nullptr);
    QCOMPARE(a.interruptions.size(), b.interruptions.size());
    QCOMPARE(a.lostS, b.lostS);
    QCOMPARE(a.step.stepS, b.step.stepS);
    QVERIFY(a.effectiveTrainingTime < 1.0 || a.interruptions.empty());
}

void TestSimulator::storeHoldsTheRun() {
    QTemporaryDir dir;
    const QString path = dir.filePath("run.sqlite");
    const auto doc = openTopology("small-256", {});
    RunSpec s;
    s.model = "llama3-8b";
    s.parallel = config(8, 1, 4, 8, 8192);
    s.parallel.virtualStages = 1; // plain 1F1B: a bubble of PP - 1 micro-batches
    s.steps = 3;
    const RunResult result = simulateToStore(*doc, s, path);
    RunReader reader(path, doc->topology());
    const int64_t stepNs = std::llround(result.step.stepS * 1e9);
    QVERIFY(std::abs(reader.info().endNs - 3 * stepNs) <= 3); // rounding to ns per step
    const std::vector<float> frame = reader.frame(Metric::GpuBusy, stepNs / 2);
    QCOMPARE(frame.size(), doc->topology().gpus.size());
    for (float v : frame)
        QVERIFY(v >= 0 && v <= 1);
    // Every step plays the one stored step: 10 ms frames, the same at the same phase.
    for (int64_t phase : {int64_t(0), stepNs / 3, stepNs - 1})
        QCOMPARE(reader.frame(Metric::GpuBusy, 2 * stepNs + phase),
                 reader.frame(Metric::GpuBusy, phase));
    // The pipeline: once the exposed parameter gather is done, the first stage computes (busy
    // between its exposed TP collectives, which TP 8 makes long for an 8B model) while the
    // last waits for its first micro-batch (PP - 1 bubble slices).
    const int64_t frameNs = 10'000'000;
    const int64_t gatherNs = std::llround(result.step.dpExposedS / 2 * 1e9);
    QVERIFY(result.step.bubbleS * 1e9 > double(frameNs) * 2);
    const std::vector<float> start =
        reader.frame(Metric::GpuBusy, (gatherNs / frameNs + 1) * frameNs + 1);
    const float firstBusy = start[size_t(result.step.gpuOfRank.front())];
    QVERIFY2(firstBusy > 0.3f && firstBusy < 1.f, qPrintable(QString::number(firstBusy)));
    QCOMPARE(start[size_t(result.step.gpuOfRank.back())], 0.f);
    // Busy is compute only: over the step, each stage's busy time is its passes less the TP
    // time they leave exposed.
    const ScheduleResult& sched = *result.step.schedule;
    for (size_t st = 0; st < sched.busy.size(); ++st) {
        double inPasses = 0, computing = 0;
        for (const Interval& x : sched.compute[st])
            inPasses += x.toS - x.fromS;
        for (const Interval& x : sched.busy[st])
            computing += x.toS - x.fromS;
        QVERIFY(computing < inPasses - 0.5 * result.step.tpExposedS);
        QVERIFY(computing > 0.5 * inPasses);
    }
    // GPU 7's history over the first step at a fine budget is its frames.
    const Series h = reader.history(Metric::GpuBusy, 7, 0, stepNs - 1, 100000);
    QVERIFY(h.tsNs.size() > 10);
    for (size_t i = 0; i < h.tsNs.size(); ++i)
        if (i + 1 == h.tsNs.size() || h.tsNs[i + 1] != h.tsNs[i])
            QVERIFY(h.value[i] == reader.frame(Metric::GpuBusy, h.tsNs[i])[7] ||
                    (i > 0 && h.tsNs[i - 1] == h.tsNs[i]));
    const QJsonObject summary =
        QJsonDocument::fromJson(QByteArray::fromStdString(reader.info().summaryJson)).object();
    QCOMPARE(summary.value("steps").toInt(), 3);
}

void TestSimulator::simulatedLinksCarryBytes_data() {
    QTest::addColumn<QString>("preset");
    QTest::addColumn<QString>("model");
    QTest::addColumn<int>("pp");
    QTest::addColumn<int>("dp");
    QTest::newRow("small-256, 8B") << "small-256"
                                   << "llama3-8b" << 4 << 8;
    QTest::newRow("meta-roce-24k, 405B on 16,384 GPUs") << "meta-roce-24k"
                                                        << "llama3-405b" << 16 << 128;
}

void TestSimulator::simulatedLinksCarryBytes() {
    QFETCH(QString, preset);
    QFETCH(QString, model);
    QFETCH(int, pp);
    QFETCH(int, dp);
    QTemporaryDir dir;
    const QString path = dir.filePath("run.sqlite");
    const auto doc = openTopology(preset.toStdString(), {});
    const Topology& t = doc->topology();
    RunSpec s;
    s.model = model.toStdString();
    s.parallel = config(8, 1, pp, dp, 8192);
    s.steps = 1;
    const RunResult result = simulateToStore(*doc, s, path);
    RunReader reader(path, t);
    const std::vector<float> links =
        reader.frame(Metric::LinkBytesPerS, int64_t(result.step.stepS / 2 * 1e9));
    QCOMPARE(links.size(), t.links.size());
    size_t loaded = 0;
    double hottest = 0;
    for (size_t l = 0; l < links.size(); ++l) {
        if (std::isnan(links[l])) {
            QVERIFY(t.links[l].medium == LinkMedium::NvLink ||
                    t.links[l].medium == LinkMedium::Pcie);
            continue;
        }
        const double cap = capacityOf(Metric::LinkBytesPerS, t, int32_t(l));
        QVERIFY2(links[l] >= 0 && links[l] <= cap * (1 + 1e-6),
                 qPrintable(QString("link %1: %2 B/s over %3").arg(l).arg(links[l]).arg(cap)));
        loaded += links[l] > 0;
        hottest = std::max(hottest, double(links[l]) / cap);
    }
    // Bytes per second, not fractions: the loaded links carry gigabytes per second.
    QVERIFY2(loaded > t.gpus.size() / 8, qPrintable(QString::number(loaded)));
    QVERIFY(hottest > 0.01);
    double sum = 0;
    for (float v : links)
        if (!std::isnan(v)) sum += v;
    QVERIFY2(sum / double(loaded) > 1e8, qPrintable(QString::number(sum / double(loaded))));
    // Through the whole step: every 10 ms frame within capacity, and the traffic moves (DP
    // collectives and pipeline sends come and go).
    const int64_t stepNs = std::llround(result.step.stepS * 1e9);
    std::set<double> totals;
    for (int64_t at = 0; at < stepNs; at += 10'000'000) {
        const std::vector<float> f = reader.frame(Metric::LinkBytesPerS, at);
        double total = 0;
        for (size_t l = 0; l < f.size(); ++l) {
            if (std::isnan(f[l])) continue;
            QVERIFY(f[l] <= capacityOf(Metric::LinkBytesPerS, t, int32_t(l)) * (1 + 1e-6));
            total += f[l];
        }
        totals.insert(std::round(total / 1e9));
    }
    QVERIFY2(totals.size() > 5, qPrintable(QString::number(totals.size())));
    // The pipeline wave: instants at which the first and the last stage differ (one computes
    // while the other waits to fill or drain).
    int differing = 0;
    for (int64_t at = 0; at < stepNs; at += 10'000'000) {
        const std::vector<float> f = reader.frame(Metric::GpuBusy, at);
        differing += std::fabs(f[size_t(result.step.gpuOfRank.front())] -
                               f[size_t(result.step.gpuOfRank.back())]) > 0.5;
    }
    QVERIFY2(differing >= 2, qPrintable(QString::number(differing)));
}

void TestSimulator::traceIsPerfettoJson() {
    const auto doc = openTopology("small-256", {});
    RunSpec s;
    s.model = "llama3-8b";
    s.parallel = config(8, 1, 4, 8, 8192);
    s.steps = 1;
    const RunResult r = simulateRun(*doc, s, nullptr);
    const QJsonObject o = QJsonDocument::fromJson(chromeTraceOfStep(r, s)).object();
    const QJsonArray events = o.value("traceEvents").toArray();
    QVERIFY(events.size() > 4 * 2 * 8);
    int slices = 0;
    for (const QJsonValue& v : events) {
        const QJsonObject e = v.toObject();
        if (e.value("ph").toString() != "X") continue;
        ++slices;
        QVERIFY(e.value("dur").toDouble() > 0);
        QVERIFY(e.value("ts").toDouble() >= 0);
        QVERIFY(e.value("ts").toDouble() + e.value("dur").toDouble() <= r.step.stepS * 1e6 * 1.2);
    }
    QVERIFY(slices > 0);
    // Every stage: a process with compute, TP, PP and DP threads; its passes as the schedule ran
    // them (a forward and a backward per micro-batch and virtual stage); sends and DP
    // collectives with their bytes and peers.
    const int micro = int(std::llround(r.step.microBatches)), chunks = s.parallel.virtualStages;
    for (int stage = 0; stage < 4; ++stage) {
        int passes = 0, dp = 0, sends = 0, tp = 0;
        QSet<QString> threads;
        for (const QJsonValue& v : events) {
            const QJsonObject e = v.toObject();
            if (e.value("pid").toInt() != stage) continue;
            if (e.value("name").toString() == "thread_name")
                threads.insert(e.value("args").toObject().value("name").toString());
            const QString cat = e.value("cat").toString();
            passes += cat == "forward" || cat == "backward";
            if (cat == "dp") {
                ++dp;
                QVERIFY(e.value("args").toObject().value("bytes").toDouble() > 0);
                QCOMPARE(e.value("args").toObject().value("peers").toDouble(), 7.0);
            }
            if (cat == "tp") {
                ++tp;
                QVERIFY(e.value("args").toObject().value("bytes").toDouble() > 0);
                QCOMPARE(e.value("args").toObject().value("peers").toDouble(), 7.0);
            }
            if (cat == "pp") {
                ++sends;
                QVERIFY(e.value("args").toObject().value("bytes").toDouble() > 0);
            }
        }
        QCOMPARE(threads, (QSet<QString>{"compute", "TP", "PP", "DP"})); // no CP: CP = 1
        QCOMPARE(passes, 2 * micro * chunks);
        QVERIFY(dp > 0);
        // Every TP collective the engine ran for this stage, as it ran.
        const auto& transfers = r.step.schedule->transfers;
        QCOMPARE(tp, int(std::count_if(transfers.begin(), transfers.end(), [&](auto& x) {
                     return x.kind == TransferRecord::Kind::Tp && x.stage == stage;
                 })));
        QVERIFY(tp >= passes);
        // Every stage sends: the last one feeds the first stage's next virtual stage.
        QCOMPARE(sends > 0, stage < 3 || chunks > 1);
    }
    // A sample of DP replicas: the middle and the last, every stage each, on their own GPUs;
    // their TP slices name the other GPUs of their TP group, their sends the next stage's GPU.
    const ParallelConfig& c = s.parallel;
    for (int d : {c.dp / 2, c.dp - 1})
        for (int stage = 0; stage < c.pp; ++stage) {
            const int pid = d * c.pp + stage;
            const int gpu = r.step.gpuOfRank[size_t(rankOf(c, {0, 0, stage, d}))];
            QString name;
            int passes = 0, tpSlices = 0;
            for (const QJsonValue& v : events) {
                const QJsonObject e = v.toObject();
                if (e.value("pid").toInt() != pid) continue;
                if (e.value("name").toString() == "process_name")
                    name = e.value("args").toObject().value("name").toString();
                const QString cat = e.value("cat").toString();
                passes += cat == "forward" || cat == "backward";
                const QJsonArray peers = e.value("args").toObject().value("peerGpus").toArray();
                if (cat == "tp") {
                    ++tpSlices;
                    QSet<int> expected, got;
                    for (int t = 1; t < c.tp; ++t)
                        expected.insert(r.step.gpuOfRank[size_t(rankOf(c, {t, 0, stage, d}))]);
                    for (const QJsonValue& g : peers)
                        got.insert(g.toInt());
                    QCOMPARE(got, expected);
                    QVERIFY(!got.contains(gpu));
                }
                if (cat == "pp") {
                    QCOMPARE(peers.size(), 1);
                    const int target = e.value("name").toString().section(' ', -1).toInt();
                    QCOMPARE(peers[0].toInt(),
                             r.step.gpuOfRank[size_t(rankOf(c, {0, 0, target, d}))]);
                }
            }
            QCOMPARE(name,
                     QString("PP stage %1, DP replica %2 (GPU %3)").arg(stage).arg(d).arg(gpu));
            QCOMPARE(passes, 2 * micro * chunks);
            QVERIFY(tpSlices > 0);
        }
}

void TestSimulator::runDescriptionsNameTheirMistakes() {
    const QByteArray good = R"({"format": "clusterscope-run", "version": 1, "model": "llama3-70b",
  "parallel": {"tp": 8, "pp": 8, "dp": 16, "placement": "linear"},
  "span": "54d", "checkpointInterval": "30m", "failures": true, "seed": 9})";
    const RunSpec s = parseRunSpec(good, "run.json");
    QCOMPARE(s.model, std::string("llama3-70b"));
    QCOMPARE(s.parallel.dp, 16);
    QVERIFY(s.parallel.placement == Placement::Linear);
    QCOMPARE(s.spanS, 54 * 86400.0);
    QCOMPARE(s.checkpointIntervalS, 1800.0);
    QVERIFY(s.failures);
    QByteArray bad = good;
    bad.replace("\"tp\": 8", "\"tp\": \"eight\"");
    try {
        parseRunSpec(bad, "run.json");
        QFAIL("expected an InputException");
    } catch (const InputException& e) {
        QCOMPARE(QString::fromStdString(e.error().field), QString("parallel.tp"));
        QCOMPARE(e.error().line, 2);
    }
    QByteArray noSpan = good;
    noSpan.replace("\"54d\"", "\"someday\"");
    QVERIFY_THROWS_EXCEPTION(InputException, parseRunSpec(noSpan, "run.json"));
}

void TestSimulator::railWiringKeepsRingsOffOversubscribedUplinks() {
    // The DGX H100 SuperPOD preset with leaves oversubscribed 2:1 (8 planes x 2 uplinks for 32
    // NICs), wired by rail or by rack. DP rings join GPU k of every node: on rail leaves they
    // cross the spines only between scalable units, on rack leaves between every rack, so the
    // rack-wired gradient reduction is slower; without oversubscription both are the same.
    auto docOf = [](int railGroupRacks, int planes) {
        SiteParams p = *presetParams("dgx-h100-superpod");
        p.clusters[0].railGroupRacks = railGroupRacks;
        p.clusters[0].planes = planes;
        return std::make_unique<TopologyDocument>(generateSite(p), p, "test");
    };
    ParallelConfig c;
    c.tp = 8, c.pp = 1, c.dp = 128, c.virtualStages = 1;
    const StepEstimate rail = step(*docOf(8, 8), "llama3-8b", c),
                       rack = step(*docOf(0, 8), "llama3-8b", c),
                       railFull = step(*docOf(8, 16), "llama3-8b", c),
                       rackFull = step(*docOf(0, 16), "llama3-8b", c);
    QVERIFY2(
        rack.dpReduceScatterS > rail.dpReduceScatterS * 1.02,
        qPrintable(
            QString("rack %1 s, rail %2 s").arg(rack.dpReduceScatterS).arg(rail.dpReduceScatterS)));
    QCOMPARE(rail.dpReduceScatterS, railFull.dpReduceScatterS); // rail rings fit the uplinks
    QVERIFY(std::fabs(rackFull.dpReduceScatterS - railFull.dpReduceScatterS) <
            1e-6 * railFull.dpReduceScatterS);
}

QTEST_APPLESS_MAIN(TestSimulator)
#include "tst_simulator.moc"
