// Compute that shares the GPU with communication: the SMs collectives hold while they run beside
// the kernels (TrainingEfficiency.h), and what the GPU family's in-training fraction adds apart
// from them (TrainingStepModel.h, StepEstimate::unexplainedComputeS).
#include "EngineTestSupport.h"
#include "InputError.h"
#include "KernelModel.h"
#include "RunPower.h"
#include "RunReader.h"
#include "RunSummaryJson.h"
#include "SimulationRun.h"
#include "SitePower.h"
#include "StepBreakdown.h"
#include "TrainingEfficiency.h"

#include <QTest>

#include <QTemporaryDir>

#include <algorithm>
#include <cmath>

using namespace cs;
using namespace cs::test;

class TestComputeBesideComm : public QObject {
    Q_OBJECT
private slots:
    void costOfHeldSms_data();
    void costOfHeldSms();
    void overlappedDataParallelSlowsCompute();
    void userbufferSmsFollowPrecision();
    void unexplainedResidualReportedApart();
    void powerLimitClocksTensorCoresDown();
    void aStoredRunDrawsTheLimit();
    void powerLimitsOutsideTheBoardAreRefused_data();
    void powerLimitsOutsideTheBoardAreRefused();
};

void TestComputeBesideComm::costOfHeldSms_data() {
    QTest::addColumn<double>("computeS");
    QTest::addColumn<double>("besideS");
    QTest::addColumn<double>("heldSms");
    QTest::newRow("short collective, NCCL's 16") << 10.0 << 2.0 << 16.0;
    QTest::newRow("collective as long as compute") << 10.0 << 10.0 << 16.0;
    QTest::newRow("collective outlasts compute") << 3.0 << 10.0 << 20.0;
    QTest::newRow("collective a little longer") << 10.0 << 11.0 << 20.0;
    QTest::newRow("one SM") << 5.0 << 5.0 << 1.0;
    QTest::newRow("nothing held") << 5.0 << 5.0 << 0.0;
}

// Against the compute stepped through time: the kernels progress on the SMs left while the
// collective runs, on all of them after. The compute's cost, and what a phase holding both
// grows by (it ends when both have).
void TestComputeBesideComm::costOfHeldSms() {
    QFETCH(double, computeS);
    QFETCH(double, besideS);
    QFETCH(double, heldSms);
    const double sms = 132, dt = 1e-5;
    double done = 0, t = 0;
    while (done < computeS) {
        done += dt * (t < besideS ? 1 - heldSms / sms : 1);
        t += dt;
    }
    const double got = efficiency::smsHeldCostS(computeS, besideS, heldSms, sms);
    QVERIFY2(std::fabs(got - (t - computeS)) < 1e-3 * computeS,
             qPrintable(QStringLiteral("%1 against %2").arg(got).arg(t - computeS)));
    const double grew = std::max(t, besideS) - std::max(computeS, besideS);
    const double extra = efficiency::smsHeldExtraS(computeS, besideS, heldSms, sms);
    QVERIFY2(std::fabs(extra - grew) < 1e-3 * computeS,
             qPrintable(QStringLiteral("%1 against %2").arg(extra).arg(grew)));
}

// ZeRO 3 on one host: every layer's gather and reduction overlapped run beside compute, and
// what NCCL's SMs cost it lands in the step's compute; run exposed, they cost compute nothing.
void TestComputeBesideComm::overlappedDataParallelSlowsCompute() {
    const auto doc = openTopology("small-256", {});
    ParallelConfig c = config(1, 1, 1, 8, 8192);
    c.zeroStage = 3;
    c.batchSeqs = 16;
    const StepEstimate overlapped = step(*doc, "llama3-8b", c);
    c.overlap.dpGradReduce = c.overlap.dpParamGather = false;
    const StepEstimate exposed = step(*doc, "llama3-8b", c);
    qInfo("lost to NCCL's SMs %.4f s of a %.3f s step (exposed: %.3f s)", overlapped.commSmsLossS,
          overlapped.stepS, exposed.stepS);
    QCOMPARE(exposed.commSmsLossS, 0.0);
    QVERIFY(overlapped.commSmsLossS > 0);
    const double computeS = exposed.breakdown.slowest()[StepPart::Compute];
    const double grewS = overlapped.breakdown.slowest()[StepPart::Compute] - computeS;
    QVERIFY2(std::fabs(grewS - overlapped.commSmsLossS) < 0.02 * overlapped.commSmsLossS,
             qPrintable(QString::number(grewS)));
}

// TP 8 in one host without DP: Megatron's NCCL collectives beside the backward's GEMMs hold 16
// SMs; Transformer Engine's userbuffers hold 10.5 a forward collective in BF16 and 1 in FP8
// (ring exchanges), 8.5 a backward one: more than NCCL in BF16, less in FP8.
void TestComputeBesideComm::userbufferSmsFollowPrecision() {
    const auto doc = openTopology("small-256", {});
    for (Precision p : {Precision::Bf16, Precision::Fp8}) {
        ParallelConfig c = config(4, 1, 1, 1, 8192);
        c.precision = p;
        c.batchSeqs = 8;
        const StepEstimate nccl = step(*doc, "llama3-8b", c);
        c.overlap.tpComm = true;
        const StepEstimate userbuffers = step(*doc, "llama3-8b", c);
        qInfo("%s: NCCL %.4f s, userbuffers %.4f s", p == Precision::Bf16 ? "BF16" : "FP8",
              nccl.commSmsLossS, userbuffers.commSmsLossS);
        QVERIFY(nccl.commSmsLossS > 0);
        if (p == Precision::Bf16)
            QVERIFY(userbuffers.commSmsLossS > nccl.commSmsLossS);
        else
            QVERIFY(userbuffers.commSmsLossS < nccl.commSmsLossS);
    }
}

// The loss no mechanism explains is a figure of its own: none on Ampere, whose rows the
// mechanisms explain; on Hopper what its in-training fraction adds to the layers' kernels: at
// most (1 - f) of their time in training (all of it tensor-core work), and most of that.
void TestComputeBesideComm::unexplainedResidualReportedApart() {
    const auto doc = openTopology("small-256", {});
    const ParallelConfig c = config(8, 1, 1, 4, 8192);
    const ModelSpec m = *findModel("llama3-8b");
    const StepEstimate ampere =
        estimateStep(doc->topology(), doc->index(), m, *findGpu("a100-sxm-80gb"), c);
    QCOMPARE(ampere.inTrainingFraction, 1.0);
    QCOMPARE(ampere.unexplainedComputeS, 0.0);
    const StepEstimate hopper = step(*doc, "llama3-8b", c);
    const double f = hopper.inTrainingFraction;
    QVERIFY(f < 1);
    const double layersS = hopper.layersOnBusiestStage * hopper.microBatches *
                           (hopper.forwardLayer.computeS + hopper.backwardLayer.computeS);
    qInfo("unexplained %.3f s of %.3f s of layer compute (fraction %.3f)",
          hopper.unexplainedComputeS, layersS, f);
    QVERIFY(hopper.unexplainedComputeS > 0.7 * (1 - f) * layersS);
    QVERIFY(hopper.unexplainedComputeS <= (1 - f) * layersS);
    // The summary carries both figures and the fraction.
    RunSpec s;
    s.model = "llama3-8b";
    s.gpu = "h100";
    s.parallel = c;
    s.steps = 1;
    const RunResult r = simulateRun(*doc, s, nullptr);
    const QJsonObject losses = runSummaryJson(r, s).value("computeLosses").toObject();
    QVERIFY(r.step.unexplainedComputeS > 0);
    QCOMPARE(losses.value("unexplainedS").toDouble(), r.step.unexplainedComputeS);
    QCOMPARE(losses.value("commSmsS").toDouble(), r.step.commSmsLossS);
    QCOMPARE(losses.value("inTrainingFraction").toDouble(), f);
}

// H100 at 500 W (torchtitan's Grand Teton parts) against its 700 W TDP: the tensor cores clock
// down, GEMM-bound compute slows by about the clock's inverse (HBM-bound kernels keep their
// rate), MFU stays of the part's own peak, and the site's busy GPUs draw the limit.
void TestComputeBesideComm::powerLimitClocksTensorCoresDown() {
    const auto doc = openTopology("small-256", {});
    ParallelConfig c = config(8, 1, 1, 4, 8192);
    const StepEstimate full = step(*doc, "llama3-8b", c);
    c.gpuPowerLimitW = 700; // the TDP itself: as without a limit
    QCOMPARE(step(*doc, "llama3-8b", c).stepS, full.stepS);
    c.gpuPowerLimitW = 500;
    const StepEstimate limited = step(*doc, "llama3-8b", c);
    const double clock = limited.gpuClockFraction;
    const double slower = limited.forwardLayer.computeS / full.forwardLayer.computeS;
    qInfo("clock %.3f; a layer's forward %.3f times as long, the step %.3f", clock, slower,
          limited.stepS / full.stepS);
    QCOMPARE(full.gpuClockFraction, 1.0);
    QVERIFY(clock > 0.5 && clock < 1);
    QVERIFY(slower <= 1 / clock + 1e-9);
    QVERIFY(slower > 1 + 0.8 * (1 / clock - 1)); // mostly tensor-core work
    QVERIFY(limited.stepS > full.stepS);
    QVERIFY(std::fabs(limited.mfu / full.mfu - full.stepS / limited.stepS) < 1e-9);
    // Power: busy GPUs draw the limit, idle ones their idle power.
    const SitePowerModel site = *sitePowerModel(doc->topology());
    const SitePowerModel held = site.withGpuLimit(500);
    const double gpus = double(site.gpus);
    QCOMPARE(held.powerW(gpus), site.restW + gpus * 500);
    QCOMPARE(held.powerW(0), site.powerW(0));
    QCOMPARE(site.withGpuLimit(0).powerW(gpus), site.powerW(gpus));
}

// The site power a stored run holds: its busy GPUs at the limit, not at their TDP.
void TestComputeBesideComm::aStoredRunDrawsTheLimit() {
    const auto doc = openTopology("small-256", {});
    QTemporaryDir dir;
    RunSpec s;
    s.model = "llama3-8b";
    s.gpu = "h100";
    s.parallel = config(8, 1, 1, 16, 8192);
    s.steps = 1;
    const SitePowerModel site = *sitePowerModel(doc->topology());
    bool fromBusy = false; // the stored series, not one computed from busy frames
    auto peakW = [&](double limitW, const QString& name) {
        s.parallel.gpuPowerLimitW = limitW;
        simulateToStore(*doc, s, dir.filePath(name));
        RunReader reader(dir.filePath(name), doc->topology());
        const RunPower p = runPower(reader, site, name.toStdString());
        fromBusy = fromBusy || p.fromBusy;
        return p.peakW;
    };
    const double fullW = peakW(0, "full.sqlite"), limitedW = peakW(500, "limited.sqlite");
    qInfo("peak %.0f W at the TDP, %.0f W at 500 W; idle %.0f W", fullW, limitedW, site.powerW(0));
    QVERIFY(!fromBusy);
    // Above the site's idle power the busy GPUs draw (limit - idle) for (TDP - idle): the peak's
    // excess scales by 360 / 560 (its busy GPUs as many in both runs).
    const double ratio = (limitedW - site.powerW(0)) / (fullW - site.powerW(0));
    QVERIFY2(std::fabs(ratio - 360.0 / 560) < 0.02, qPrintable(QString::number(ratio)));
}

void TestComputeBesideComm::powerLimitsOutsideTheBoardAreRefused_data() {
    QTest::addColumn<double>("limitW");
    QTest::newRow("under the idle power") << 100.0;
    QTest::newRow("at the idle power") << 140.0;
    QTest::newRow("over the TDP") << 800.0;
    QTest::newRow("negative") << -5.0;
}

void TestComputeBesideComm::powerLimitsOutsideTheBoardAreRefused() {
    QFETCH(double, limitW);
    const auto doc = openTopology("small-256", {});
    ParallelConfig c = config(8, 1, 1, 4, 8192);
    c.gpuPowerLimitW = limitW;
    try {
        step(*doc, "llama3-8b", c);
        QFAIL("accepted");
    } catch (const InputException& e) {
        const QString message = QString::fromStdString(e.error().message);
        QCOMPARE(QString::fromStdString(e.error().field), QStringLiteral("gpuPowerLimitW"));
        QVERIFY2(message.contains("idle 140 W up to its TDP 700 W"), qPrintable(message));
    }
}

QTEST_GUILESS_MAIN(TestComputeBesideComm)
#include "tst_compute_beside_comm.moc"
