// One training step (TrainingStepModel): memory per GPU, ZeRO stages, overlap, TP collectives
// as operations, ring or tree all-reduce, scaling, and the configurations it refuses.
#include "EngineTestSupport.h"
#include "NcclConstants.h"
#include "PipelineLayers.h"
#include "TrainingEfficiency.h"

#include <QTest>

#include <algorithm>
#include <cmath>

using namespace cs;
using namespace cs::test;

class TestTrainingStepModel : public QObject {
    Q_OBJECT
private slots:
    void memoryFollowsTheSwitches();
    void fp8KeepsTheGemmInputsCast_data();
    void fp8KeepsTheGemmInputsCast();
    void publishedFp8LayoutsFit_data();
    void publishedFp8LayoutsFit();
    void blockRecomputationRerunsItsLayers_data();
    void blockRecomputationRerunsItsLayers();
    void blockRecomputationNeedsFullRecomputation();
    void interleavingNeedsMicroBatchesInMultiplesOfPp();
    void virtualStagesFollowPp_data();
    void virtualStagesFollowPp();
    void zeroStagesMoveDifferentVolumes();
    void overlapHidesDataParallelTraffic();
    void fewMicroBatchesStillHideDataParallel();
    void gradientReductionDtype();
    void patAtLargeDataParallel();
    void moreGpusMoreTokens();
    void tensorParallelCollectivesAreOperations();
    void allReduceTreeOrRing();
    void rejectsWhatCannotRun_data();
    void rejectsWhatCannotRun();
    void zeroBubbleDefersWeightGradientsIntoTheBubble();
    void dualPipeFeedsBothEndsWithTheBubbleOfItsFormula();
    void schedulesRefuseWhatTheyCannotRun_data();
    void schedulesRefuseWhatTheyCannotRun();
};

void TestTrainingStepModel::memoryFollowsTheSwitches() {
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

// FP8 training keeps the GEMMs' inputs cast for their backward: 14 of a layer's 34 bytes per
// token and hidden unit at half (4 of the 10 that stay whole without sequence parallelism),
// except that fused attention keeps its output, the projection's input, whole as well: 29.
void TestTrainingStepModel::fp8KeepsTheGemmInputsCast_data() {
    QTest::addColumn<int>("recompute");
    QTest::addColumn<double>("bytes"); // a layer's, per token and hidden unit, with SP
    QTest::newRow("fused attention keeps its output") << int(Recompute::None) << 34.0 - 7 + 2;
    QTest::newRow("selective recomputation reruns attention") << int(Recompute::Selective) << 27.0;
}

void TestTrainingStepModel::fp8KeepsTheGemmInputsCast() {
    QFETCH(int, recompute);
    QFETCH(double, bytes);
    const ModelSpec m = *findModel("llama3-70b");
    ParallelConfig c = config(8, 1, 4, 32, 8192);
    c.virtualStages = 1;
    c.recompute = Recompute(recompute);
    const double bf16 = estimateMemory(m, c).activationsGiB;
    c.precision = Precision::Fp8;
    QCOMPARE(estimateMemory(m, c).activationsGiB / bf16, bytes / 34);
    c.precision = Precision::Mxfp8;
    QCOMPARE(estimateMemory(m, c).activationsGiB / bf16, bytes / 34);
    c.sequenceParallel = false;
    const double fp8NoSp = estimateMemory(m, c).activationsGiB;
    c.precision = Precision::Bf16;
    QCOMPARE(fp8NoSp / estimateMemory(m, c).activationsGiB,
             (8 + (bytes - 8) / 8) / (10 + 24.0 / 8));
}

// Layouts Megatron-Bridge published in FP8 fit in their GPUs' memory (they ran): Llama 3.1
// 405B on 256 GB200 (release 26.02) and on 128 B200 (release 25.11), no recomputation, ZeRO 1.
// What FP8 keeps cast makes the difference here; Megatron-Bridge also has BF16 presets of these
// layouts, which the engine's BF16 estimate still puts over the GPUs' memory.
void TestTrainingStepModel::publishedFp8LayoutsFit_data() {
    QTest::addColumn<QString>("gpu");
    QTest::addColumn<int>("tp");
    QTest::addColumn<int>("cp");
    QTest::addColumn<int>("pp");
    QTest::addColumn<int>("dp");
    QTest::addColumn<int>("virtualStages");
    QTest::addColumn<int>("batchSeqs");
    QTest::newRow("256 GB200") << "gb200" << 4 << 1 << 16 << 4 << 4 << 1536;
    QTest::newRow("128 B200") << "b200" << 4 << 2 << 8 << 2 << 8 << 64;
}

void TestTrainingStepModel::publishedFp8LayoutsFit() {
    QFETCH(QString, gpu);
    QFETCH(int, tp);
    QFETCH(int, cp);
    QFETCH(int, pp);
    QFETCH(int, dp);
    QFETCH(int, virtualStages);
    QFETCH(int, batchSeqs);
    const ModelSpec m = *findModel("llama3-405b");
    const GpuSpec g = *findGpu(gpu.toStdString());
    ParallelConfig c = config(tp, cp, pp, dp, 8192);
    c.virtualStages = virtualStages;
    c.batchSeqs = batchSeqs;
    c.zeroStage = 1;
    c.recompute = Recompute::None;
    c.precision = Precision::Fp8;
    const double fp8GiB = estimateMemory(m, c).totalGiB();
    c.precision = Precision::Bf16;
    const double bf16GiB = estimateMemory(m, c).totalGiB();
    qInfo("%.1f GiB in FP8, %.1f in BF16, of %.1f", fp8GiB, bf16GiB, g.hbmGiB);
    QVERIFY(fp8GiB < g.hbmGiB);
    QVERIFY(fp8GiB < bf16GiB);
}

// Megatron's block method: full recomputation of the first N layers of each chunk, the rest
// keeping their activations. Llama 3 8B on 4 stages of 2 chunks: 4 layers a chunk.
void TestTrainingStepModel::blockRecomputationRerunsItsLayers_data() {
    QTest::addColumn<int>("layers");
    QTest::addColumn<double>("share"); // of the 32 layers, those rerun
    QTest::newRow("1 a chunk") << 1 << 8.0 / 32;
    QTest::newRow("3 a chunk") << 3 << 24.0 / 32;
    QTest::newRow("4 a chunk: every layer") << 4 << 1.0;
    QTest::newRow("more than a chunk holds") << 9 << 1.0;
}

void TestTrainingStepModel::blockRecomputationRerunsItsLayers() {
    QFETCH(int, layers);
    QFETCH(double, share);
    const ModelSpec m = *findModel("llama3-8b");
    const auto doc = openTopology("small-256", {});
    ParallelConfig c = config(2, 1, 4, 8, 8192);
    c.virtualStages = 2;
    c.batchSeqs = 64;
    c.recompute = Recompute::None;
    const StepEstimate none = step(*doc, "llama3-8b", c);
    const double keptGiB = estimateMemory(m, c).activationsGiB;
    c.recompute = Recompute::Full;
    const StepEstimate full = step(*doc, "llama3-8b", c);
    const double rerunGiB = estimateMemory(m, c).activationsGiB;
    c.recomputeLayers = layers;
    QCOMPARE(fullyRecomputedShare(m, c), share);
    const StepEstimate block = step(*doc, "llama3-8b", c);
    const double blockGiB = estimateMemory(m, c).activationsGiB;
    qInfo("step %.3f s (none %.3f, full %.3f); activations %.2f GiB (none %.2f, full %.2f)",
          block.stepS, none.stepS, full.stepS, blockGiB, keptGiB, rerunGiB);
    // A layer's backward carries the share of a recomputed forward, and the step follows.
    const double perLayerRerunS = full.backwardLayer.computeS - none.backwardLayer.computeS;
    QVERIFY(perLayerRerunS > 0);
    QVERIFY2(std::fabs(block.backwardLayer.computeS - none.backwardLayer.computeS -
                       share * perLayerRerunS) < 1e-9 * full.backwardLayer.computeS,
             qPrintable(QString::number(block.backwardLayer.computeS)));
    // Its TP ring passes too: the recomputed forward's, on the share of the layers.
    QVERIFY(full.tpBytesBackwardLayer > none.tpBytesBackwardLayer);
    QVERIFY2(std::fabs(block.tpBytesBackwardLayer - none.tpBytesBackwardLayer -
                       share * (full.tpBytesBackwardLayer - none.tpBytesBackwardLayer)) <
                 1e-9 * full.tpBytesBackwardLayer,
             qPrintable(QString::number(block.tpBytesBackwardLayer)));
    if (share == 1) {
        QCOMPARE(block.stepS, full.stepS);
        QCOMPARE(blockGiB, rerunGiB);
        return;
    }
    QVERIFY(block.stepS > none.stepS && block.stepS < full.stepS);
    QVERIFY(blockGiB > rerunGiB && blockGiB < keptGiB);
}

// N layers recomputed in full means nothing without full recomputation: refused by name.
void TestTrainingStepModel::blockRecomputationNeedsFullRecomputation() {
    const auto doc = openTopology("small-256", {});
    ParallelConfig c = config(2, 1, 4, 8, 8192);
    c.batchSeqs = 64;
    c.recompute = Recompute::Selective;
    c.recomputeLayers = 2;
    try {
        step(*doc, "llama3-8b", c);
        QFAIL("expected a refusal");
    } catch (const InputException& e) {
        QCOMPARE(QString::fromStdString(e.error().field), QString("parallel.recomputeLayers"));
        QVERIFY2(QString::fromStdString(e.error().message).contains("full"),
                 e.error().message.c_str());
    }
    c.recompute = Recompute::Full;
    QVERIFY(step(*doc, "llama3-8b", c).stepS > 0);
}

void TestTrainingStepModel::interleavingNeedsMicroBatchesInMultiplesOfPp() {
    const auto doc = openTopology("small-256", {});
    ParallelConfig c = config(8, 1, 4, 8, 8192);
    c.batchTokens = 6.0 * 8192 * 8; // 6 micro-batches per replica: not a multiple of PP = 4
    c.virtualStages = 2;            // asked for: refused
    try {
        step(*doc, "llama3-8b", c);
        QFAIL("expected a refusal");
    } catch (const InputException& e) {
        QCOMPARE(QString::fromStdString(e.error().field), QString("parallel.virtualStages"));
    }
    c.virtualStages = 1; // plain 1F1B takes any count
    QVERIFY(step(*doc, "llama3-8b", c).stepS > 0);
    // Left to follow PP (0), V settles on what fits: 1 here, and no refusal.
    c.virtualStages = 0;
    QCOMPARE(withResolvedDefaults(*findModel("llama3-8b"), c).virtualStages, 1);
    QVERIFY(step(*doc, "llama3-8b", c).stepS > 0);
    // Fewer micro-batches than stages, as small test runs have: 1F1B runs them, mostly bubble
    // ((p - 1) / (m + p - 1) of the step with equal stages; the head's stage, the slowest,
    // waits less); zero bubble, which needs a full pipeline, refuses.
    c.batchTokens = 2.0 * 8192 * 8;
    c.overlap.dpGradReduce = c.overlap.dpParamGather = true;
    const StepEstimate few = step(*doc, "llama3-8b", c);
    QCOMPARE(few.microBatches, 2.0);
    QVERIFY2(few.bubbleFraction > 0.45 && few.bubbleFraction <= 3.0 / 5,
             qPrintable(QString::number(few.bubbleFraction)));
    // The first stage holds the 2 micro-batches there are, not PP = 4.
    ParallelConfig full = c;
    full.batchTokens = 8.0 * 8192 * 8;
    full.virtualStages = 1;
    const ModelSpec& llama = *findModel("llama3-8b");
    QCOMPARE(estimateMemory(llama, withResolvedDefaults(llama, c)).activationsGiB,
             estimateMemory(llama, withResolvedDefaults(llama, full)).activationsGiB / 2);
    c.schedule = PipelineSchedule::ZbH1;
    try {
        step(*doc, "llama3-8b", c);
        QFAIL("expected a refusal");
    } catch (const InputException& e) {
        QCOMPARE(QString::fromStdString(e.error().field), QString("parallel.batchTokens"));
    }
}

void TestTrainingStepModel::virtualStagesFollowPp_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<int>("pp");
    QTest::addColumn<int>("dp");
    QTest::addColumn<double>("batchTokens");
    QTest::addColumn<int>("expected");
    // Without PP, one chunk; 405B on 16 stages: 8 (126 + 2 layers = 16 x 8); 8B (32 layers) on
    // 4 stages: 8 (4 x 8 = 32); on 2 stages with 3 micro-batches (not a multiple of PP): 1.
    QTest::newRow("PP 1") << "llama3-8b" << 1 << 32 << 8192.0 * 32 << 1;
    QTest::newRow("405B, PP 16") << "llama3-405b" << 16 << 64 << 16.0 * 1024 * 1024 << 8;
    QTest::newRow("8B, PP 4") << "llama3-8b" << 4 << 8 << 8192.0 * 8 * 8 << 8;
    QTest::newRow("8B, PP 2, 3 micro-batches") << "llama3-8b" << 2 << 8 << 8192.0 * 8 * 3 << 1;
}

void TestTrainingStepModel::virtualStagesFollowPp() {
    QFETCH(QString, model);
    QFETCH(int, pp);
    QFETCH(int, dp);
    QFETCH(double, batchTokens);
    QFETCH(int, expected);
    const ModelSpec m = *findModel(model.toStdString());
    ParallelConfig c = config(8, 1, pp, dp, 8192);
    c.batchTokens = batchTokens;
    const ParallelConfig r = withResolvedDefaults(m, c);
    QCOMPARE(r.virtualStages, expected);
    // What it settles on is a configuration the engine takes.
    checkTrainingConfig(m, *findGpu("h100"), r);
}

void TestTrainingStepModel::zeroStagesMoveDifferentVolumes() {
    const auto doc = openTopology("small-256", {});
    ParallelConfig c = config(8, 1, 1, 32, 8192);
    c.virtualStages = 1;
    c.zeroStage = 2;
    const StepEstimate two = step(*doc, "llama3-8b", c);
    c.zeroStage = 3; // weights gathered before every forward and every backward
    const StepEstimate three = step(*doc, "llama3-8b", c);
    // ZeRO 2 gathers each layer once a step; ZeRO 3 once per forward and once per backward of
    // every micro-batch, each of the same size, and reduces after every backward.
    using Kind = TransferRecord::Kind;
    auto count = [](const StepEstimate& e, Kind kind) {
        int n = 0;
        double bytes = 0;
        for (const TransferRecord& t : e.schedule->transfers)
            if (t.kind == kind) ++n, bytes = t.bytes;
        return std::make_pair(n, bytes);
    };
    const int layers = findModel("llama3-8b")->layers, micro = int(two.microBatches);
    QVERIFY(micro >= 2);
    const auto gathers2 = count(two, Kind::Gather), gathers3 = count(three, Kind::Gather);
    QCOMPARE(gathers2.first * two.dpBucketLayers, layers);
    QCOMPARE(gathers3.first, 2 * micro * layers);
    QVERIFY(std::fabs(gathers3.second * two.dpBucketLayers / gathers2.second - 1) < 1e-9);
    QCOMPARE(count(three, Kind::Reduce).first, micro * layers);
    // So the fabric carries 2 M times the gather bytes (and M times the reduction's, in bf16
    // against ZeRO 2's fp32).
    double dp2 = 0, dp3 = 0;
    for (float b : two.dpLinkBytes[0])
        dp2 += b;
    for (float b : three.dpLinkBytes[0])
        dp3 += b;
    const double expected = (2.0 * micro * 2 + micro * 2) / (2 + 4);
    QVERIFY2(std::fabs(dp3 / dp2 / expected - 1) < 0.01,
             qPrintable(QString("%1 against %2").arg(dp3 / dp2).arg(expected)));
    c.zeroStage = 0; // an all-reduce of bf16 gradients, no gather
    const StepEstimate zero = step(*doc, "llama3-8b", c);
    QCOMPARE(zero.dpAllGatherS, 0.0);
    QVERIFY(zero.dpReduceScatterS > 0);
}

void TestTrainingStepModel::overlapHidesDataParallelTraffic() {
    const auto doc = openTopology("small-256", {});
    ParallelConfig c = config(8, 1, 1, 32, 8192);
    c.virtualStages = 1;
    const StepEstimate overlapped = step(*doc, "llama3-8b", c);
    c.overlap.dpGradReduce = c.overlap.dpParamGather = false;
    const StepEstimate exposed = step(*doc, "llama3-8b", c);
    // Without overlap the whole DP traffic adds to the step; with it, a chunk's worth.
    const double exposedDpS = exposed.breakdown.slowest()[StepPart::ExposedDp];
    const double overlappedDpS = overlapped.breakdown.slowest()[StepPart::ExposedDp];
    QVERIFY(exposedDpS > overlappedDpS * 5);
    QVERIFY(exposed.stepS - overlapped.stepS >
            0.8 * (exposed.dpAllGatherS + exposed.dpReduceScatterS - overlappedDpS));
}

void TestTrainingStepModel::fewMicroBatchesStillHideDataParallel() {
    // Four micro-batches, overlap on: the parameter gathers run bucket by bucket beside the
    // first forward and the gradient reductions beside the last backward; what is left
    // exposed is the first bucket's gather and the last bucket's reduction. ZeRO 3 gathers
    // each layer before every pass, one layer ahead: two sequences per micro-batch give each
    // layer's compute the time its gather and reduction take.
    const auto doc = openTopology("small-256", {});
    ParallelConfig c = config(8, 1, 1, 32, 8192);
    c.virtualStages = 1;
    c.microBatchSeqs = 2;
    c.batchTokens = 4.0 * 32 * 8192 * 2;
    for (int zero : {1, 2, 3}) {
        c.zeroStage = zero;
        const StepEstimate e = step(*doc, "llama3-8b", c);
        QCOMPARE(e.microBatches, 4.0);
        const double exposedDpS = e.breakdown.slowest()[StepPart::ExposedDp];
        QVERIFY2(exposedDpS < 0.05 * e.stepS,
                 qPrintable(QString("ZeRO %1: %2 s of DP exposed in a %3 s step")
                                .arg(zero)
                                .arg(exposedDpS)
                                .arg(e.stepS)));
        // There was DP traffic to hide: most of it ran beside compute.
        QVERIFY(e.dpAllGatherS + e.dpReduceScatterS > 5 * exposedDpS);
    }
}

void TestTrainingStepModel::gradientReductionDtype() {
    const auto doc = openTopology("small-256", {});
    ParallelConfig c = config(8, 1, 1, 32, 8192);
    c.virtualStages = 1;
    c.zeroStage = 2;
    auto reduceBytes = [&](GradReduceDtype dtype) {
        c.gradReduceDtype = dtype;
        double bytes = 0;
        const StepEstimate e = step(*doc, "llama3-8b", c);
        for (const TransferRecord& t : e.schedule->transfers)
            if (t.kind == TransferRecord::Kind::Reduce) bytes += t.bytes;
        return bytes;
    };
    // Megatron-LM's distributed optimizer reduces in fp32: auto at ZeRO 2; bf16 halves it.
    const double fp32 = reduceBytes(GradReduceDtype::Fp32),
                 bf16 = reduceBytes(GradReduceDtype::Bf16);
    QCOMPARE(reduceBytes(GradReduceDtype::Auto), fp32);
    QVERIFY(std::fabs(fp32 / bf16 - 2) < 1e-9);
    c.zeroStage = 0; // PyTorch DDP: bf16
    QCOMPARE(reduceBytes(GradReduceDtype::Auto), reduceBytes(GradReduceDtype::Bf16));
}

void TestTrainingStepModel::patAtLargeDataParallel() {
    // ZeRO 1 over 1,024 ranks, one per host, reductions exposed: a ring reduce-scatter pays
    // 1,023 step latencies per bucket; PAT log2(1024) = 10 short ones plus 2.8 us per rank, at
    // 3/4 of the bandwidth. Auto takes PAT, as NCCL's tuner does.
    auto run = [](ShardedCollective algorithm) {
        ParallelConfig c = config(8, 1, 1, 1024, 8192);
        c.virtualStages = 1;
        c.zeroStage = 1;
        c.overlap.dpGradReduce = false;
        c.batchTokens = 1024.0 * 8192;
        c.shardedCollective = algorithm;
        // One layer per bucket (Megatron-LM's default bucket would hold them all at 1,024,
        // and a ring is then the faster: its latencies are paid once).
        c.dpBucketMParams =
            int(std::ceil(findModel("llama3-8b")->parametersPerLayer() / c.tp / 1e6));
        return step(roce(), "llama3-8b", c);
    };
    const StepEstimate ring = run(ShardedCollective::Ring), pat = run(ShardedCollective::Pat),
                       picked = run(ShardedCollective::Auto);
    QVERIFY(!ring.dpPat && pat.dpPat && picked.dpPat);
    QCOMPARE(picked.stepS, pat.stepS);
    const int buckets = findModel("llama3-8b")->layers / ring.dpBucketLayers;
    QVERIFY(ring.dpReduceScatterS > buckets * 1023 * nccl::kFabricStepLatencyS);
    QVERIFY2(
        pat.dpReduceScatterS < 0.6 * ring.dpReduceScatterS && pat.stepS < ring.stepS,
        qPrintable(
            QString("ring %1 s, pat %2 s").arg(ring.dpReduceScatterS).arg(pat.dpReduceScatterS)));
}

void TestTrainingStepModel::moreGpusMoreTokens() {
    const StepEstimate a = step(roce(), "llama3-405b", config(8, 1, 16, 64, 8192));
    const StepEstimate b = step(roce(), "llama3-405b", config(8, 1, 16, 128, 8192));
    QVERIFY(b.tokensPerS >
            a.tokensPerS * 1.5); // twice the GPUs: more, though not twice, throughput
    QVERIFY(b.tokensPerS < a.tokensPerS * 2.0);
    QVERIFY(b.bubbleFraction > a.bubbleFraction); // fewer micro-batches per replica
}

void TestTrainingStepModel::tensorParallelCollectivesAreOperations() {
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

void TestTrainingStepModel::allReduceTreeOrRing() {
    // ZeRO 0 with the gradient all-reduce exposed: a layer's bucket pays 2 (n - 1) step
    // latencies around a ring, 2 log2(n) up and down NCCL's double binary tree.
    auto run = [](const TopologyDocument& doc, int dp, AllReduceAlgorithm algorithm) {
        ParallelConfig c = config(8, 1, 1, dp, 8192);
        c.virtualStages = 1;
        c.zeroStage = 0;
        c.overlap.dpGradReduce = false;
        c.batchTokens = double(dp) * 8192;
        c.allReduce = algorithm;
        // One layer per bucket (Megatron-LM's default bucket would hold them all at 1,024).
        c.dpBucketMParams =
            int(std::ceil(findModel("llama3-8b")->parametersPerLayer() / c.tp / 1e6));
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
    QVERIFY(ring.dpReduceScatterS > buckets * 2 * 1023 * nccl::kFabricStepLatencyS);
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

void TestTrainingStepModel::rejectsWhatCannotRun_data() {
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

void TestTrainingStepModel::rejectsWhatCannotRun() {
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

// ZB-H1 (Qi et al., "Zero Bubble Pipeline Parallelism", ICLR 2024): with the backward split
// into its input gradient B and weight gradient W, 1F1B's bubble (p - 1)(F + B + W) becomes
// (p - 1)(F + B - W): 2 (p - 1) W less, W measured on the engine's own timeline.
void TestTrainingStepModel::zeroBubbleDefersWeightGradientsIntoTheBubble() {
    const auto small = openTopology("small-256", {});
    ParallelConfig c = config(8, 1, 8, 1, 4096);
    c.batchSeqs = 32;
    c.schedule = PipelineSchedule::OneFOneB;
    const StepEstimate plain = step(*small, "llama3-70b", c);
    c.schedule = PipelineSchedule::ZbH1;
    const StepEstimate zb = step(*small, "llama3-70b", c);
    const int p = 8, m = 32;
    const ScheduleResult& r = *zb.schedule;
    for (int s = 0; s < p; ++s) {
        int forward = 0, backward = 0, weight = 0;
        for (const PassRecord& x : r.passes[size_t(s)])
            (x.forward ? forward : x.weight ? weight : backward) += 1;
        QCOMPARE(forward, m);
        QCOMPARE(backward, m);
        QCOMPARE(weight, m);
    }
    for (const PassRecord& x : plain.schedule->passes.front())
        QVERIFY(!x.weight);
    // W of the slowest stage, as it ran.
    const int slow = zb.breakdown.slowestStage;
    double weightS = 0;
    for (const PassRecord& x : r.passes[size_t(slow)])
        if (x.weight) weightS += (x.toS - x.fromS) / m;
    const double bubble1f1b = plain.breakdown.slowest()[StepPart::Bubble],
                 bubbleZb = zb.breakdown.slowest()[StepPart::Bubble];
    const double expected = 2 * (p - 1) * weightS;
    qInfo("bubble 1F1B %.3f s, ZB-H1 %.3f s: %.3f s less, the formula's %.3f s", bubble1f1b,
          bubbleZb, bubble1f1b - bubbleZb, expected);
    QVERIFY(std::fabs((bubble1f1b - bubbleZb) / expected - 1) < 0.10);
    QVERIFY(zb.stepS < plain.stepS);
    // The same work: compute time per stage does not change.
    QVERIFY(std::fabs(zb.breakdown.slowest()[StepPart::Compute] /
                          plain.breakdown.slowest()[StepPart::Compute] -
                      1) < 0.01);
}

// DualPipe (DeepSeek-V3 technical report, Table 2): 1F1B's bubble (p - 1)(F + B) becomes
// (p/2 - 1)(F&B + B - 3W), where B is a whole backward, W its weight gradient and F&B a
// forward and a backward run as a pair (F + B for a dense model: nothing to hide). F, B and
// W are measured on the engine's own timeline; the bubbles are the step breakdown's.
void TestTrainingStepModel::dualPipeFeedsBothEndsWithTheBubbleOfItsFormula() {
    const auto small = openTopology("small-256", {});
    // Four stages of 20 layers: the output head (on the last stage, and with DualPipe on the
    // first too) is a small part of a stage, as the formula's equal stages assume.
    ParallelConfig c = config(8, 1, 4, 2, 4096);
    c.batchSeqs = 32;
    c.schedule = PipelineSchedule::OneFOneB;
    const StepEstimate plain = step(*small, "llama3-70b", c);
    c.schedule = PipelineSchedule::DualPipe;
    const StepEstimate dual = step(*small, "llama3-70b", c);
    const int p = 4, m = 16;
    const ScheduleResult& r = *dual.schedule;
    QVERIFY(r.dualPipe);
    // Every stage runs each micro-batch once: half of them each way, as chunk 0 and chunk 1.
    for (int s = 0; s < p; ++s) {
        int forward[2] = {0, 0}, backward[2] = {0, 0}, weight = 0;
        for (const PassRecord& x : r.passes[size_t(s)])
            (x.forward ? forward[x.chunk] : x.weight ? weight : backward[x.chunk]) += 1;
        for (int ch = 0; ch < 2; ++ch) {
            QCOMPARE(forward[ch], m / 2);
            QCOMPARE(backward[ch], m / 2);
        }
        QVERIFY(weight > 0);
        // The first micro-batch of each direction enters at its own end.
        QCOMPARE(r.passes[size_t(s)].front().forward, true);
        QCOMPARE(r.passes[size_t(s)].front().chunk, s < p / 2 ? 0 : 1);
    }
    // Sends run both ways on every boundary: chunk 1's forwards go to the stage below.
    int downwards = 0;
    for (const TransferRecord& t : r.transfers)
        if (t.kind == TransferRecord::Kind::SendForward && t.chunk == 1)
            downwards += t.target == t.stage - 1 ? 1 : -1000;
    QCOMPARE(downwards, (p - 1) * m / 2);
    // F and B (whole) as 1F1B ran them, W as DualPipe did, on a stage without the head.
    const int inner = 1;
    double forwardS = 0, wholeS = 0, weightS = 0;
    int forwards = 0, wholes = 0, weights = 0;
    for (const PassRecord& x : plain.schedule->passes[size_t(inner)])
        (x.forward ? forwardS : wholeS) += x.toS - x.fromS, ++(x.forward ? forwards : wholes);
    for (const PassRecord& x : r.passes[size_t(inner)])
        if (x.weight) weightS += x.toS - x.fromS, ++weights;
    forwardS /= forwards, wholeS /= wholes, weightS /= weights;
    const double bubble1f1b = plain.breakdown.slowest()[StepPart::Bubble],
                 bubbleDual = dual.breakdown.slowest()[StepPart::Bubble];
    const double formula1f1b = (p - 1) * (forwardS + wholeS),
                 formulaDual = (p / 2 - 1) * (forwardS + 2 * wholeS - 3 * weightS);
    qInfo("F %.4f B %.4f W %.4f s; bubble 1F1B %.3f s (formula %.3f), DualPipe %.3f s (formula "
          "%.3f): %.3f s less, the formula's %.3f s",
          forwardS, wholeS, weightS, bubble1f1b, formula1f1b, bubbleDual, formulaDual,
          bubble1f1b - bubbleDual, formula1f1b - formulaDual);
    QVERIFY(std::fabs((bubble1f1b - bubbleDual) / (formula1f1b - formulaDual) - 1) < 0.10);
    QVERIFY(dual.stepS < plain.stepS);
    // The same work on every stage; each holds two model stages' weights, and p + 1
    // micro-batches' activations against 1F1B's p.
    QVERIFY(std::fabs(dual.breakdown.stages[size_t(inner)][StepPart::Compute] /
                          plain.breakdown.stages[size_t(inner)][StepPart::Compute] -
                      1) < 0.01);
    QVERIFY(std::fabs(dual.memory.weightsGiB / plain.memory.weightsGiB - 2) < 1e-6);
    QVERIFY(std::fabs(dual.memory.activationsGiB / plain.memory.activationsGiB - (p + 1.0) / p) <
            1e-6);
}

void TestTrainingStepModel::schedulesRefuseWhatTheyCannotRun_data() {
    QTest::addColumn<int>("schedule");
    QTest::addColumn<int>("virtualStages");
    QTest::addColumn<int>("zeroStage");
    QTest::addColumn<QString>("field");
    QTest::newRow("1F1B with chunks")
        << int(PipelineSchedule::OneFOneB) << 2 << 1 << "parallel.virtualStages";
    QTest::newRow("ZB-H1 with chunks")
        << int(PipelineSchedule::ZbH1) << 2 << 1 << "parallel.virtualStages";
    QTest::newRow("ZB-H1 with ZeRO 3")
        << int(PipelineSchedule::ZbH1) << 1 << 3 << "parallel.zeroStage";
    QTest::newRow("DualPipe with chunks")
        << int(PipelineSchedule::DualPipe) << 2 << 1 << "parallel.virtualStages";
    QTest::newRow("DualPipe with ZeRO 3")
        << int(PipelineSchedule::DualPipe) << 1 << 3 << "parallel.zeroStage";
    QTest::newRow("interleaved with one chunk")
        << int(PipelineSchedule::Interleaved) << 1 << 1 << "parallel.virtualStages";
}

void TestTrainingStepModel::schedulesRefuseWhatTheyCannotRun() {
    QFETCH(int, schedule);
    QFETCH(int, virtualStages);
    QFETCH(int, zeroStage);
    QFETCH(QString, field);
    ParallelConfig c = config(8, 1, 4, 8, 8192);
    c.schedule = PipelineSchedule(schedule);
    c.virtualStages = virtualStages;
    c.zeroStage = zeroStage;
    try {
        step(roce(), "llama3-8b", c);
        QFAIL("expected an InputException");
    } catch (const InputException& e) {
        QCOMPARE(QString::fromStdString(e.error().field), field);
    }
    // Left to follow the schedule, the chunks fit it.
    c.virtualStages = 0;
    c.zeroStage = 1;
    if (c.schedule != PipelineSchedule::Interleaved)
        QCOMPARE(withResolvedDefaults(*findModel("llama3-8b"), c).virtualStages, 1);
    else
        QVERIFY(withResolvedDefaults(*findModel("llama3-8b"), c).virtualStages > 1);
}

QTEST_APPLESS_MAIN(TestTrainingStepModel)
#include "tst_training_step_model.moc"
