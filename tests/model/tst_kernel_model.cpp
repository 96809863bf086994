// The kernel model (KernelModel): compute- and memory-bound GEMMs, precision and GPU
// generations.
#include "EngineTestSupport.h"
#include "KernelModel.h"

#include <QTest>

using namespace cs;
using namespace cs::test;

class TestKernelModel : public QObject {
    Q_OBJECT
private slots:
    void hbmBandwidthShowsInMemoryBoundWork();
    void precisionAndGpuGenerations();
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
    QVERIFY(f8.stepS < bf16.stepS * 0.85); // GEMMs at twice the peak; attention stays BF16
    QVERIFY(f8.stepS > bf16.stepS * 0.5);
    QVERIFY(stepOn("b200", c).stepS < bf16.stepS * 0.6); // 2.25 PF against 0.99
    QVERIFY(stepOn("a100", c).stepS > bf16.stepS * 2);   // the old name still reads
}

QTEST_APPLESS_MAIN(TestKernelModel)
#include "tst_kernel_model.moc"
