// The calibration rows of docs/reference/calibration.md, one test row each: the Llama 3
// paper's Table 4 (405B on H100, TFLOP/s per GPU, within 3 %) and Korthikanti et al. 2022
// Table 5 (GPT on A100, seconds per iteration, within 5 %) and Table 4 (one layer of the 22B
// model, forward and backward milliseconds, within 10 %). The kernel constants are fitted
// once per GPU family (KernelModel.cpp); nothing here is tuned per row.
#include "RunSpecJson.h"
#include "SimulationRun.h"
#include "TopologyDocument.h"

#include <QTest>

#include <cmath>

using namespace cs;

class TestCalibration : public QObject {
    Q_OBJECT
private slots:
    void llama3Table4_data();
    void llama3Table4();
    void korthikantiTable5_data();
    void korthikantiTable5();
    void korthikantiTable4Layer_data();
    void korthikantiTable4Layer();
    void megatronBridgeMoe_data();
    void megatronBridgeMoe();
    void megatronBridgeDenseFp8_data();
    void megatronBridgeDenseFp8();
    void megatronBridgeOtherReleases_data();
    void megatronBridgeOtherReleases();
};

void TestCalibration::llama3Table4_data() {
    QTest::addColumn<int>("cp");
    QTest::addColumn<int>("dp");
    QTest::addColumn<int>("seq");
    QTest::addColumn<double>("published"); // TFLOP/s per GPU
    QTest::newRow("8,192 GPUs, 8K") << 1 << 64 << 8192 << 430.0;
    QTest::newRow("16,384 GPUs, 8K") << 1 << 128 << 8192 << 400.0;
    QTest::newRow("16,384 GPUs, 131K, CP 16") << 16 << 8 << 131072 << 380.0;
}

void TestCalibration::llama3Table4() {
    QFETCH(int, cp);
    QFETCH(int, dp);
    QFETCH(int, seq);
    QFETCH(double, published);
    static const auto doc = openTopology("meta-roce-24k", {});
    RunSpec s;
    s.model = "llama3-405b";
    s.gpu = "h100-sxm";
    s.parallel.tp = 8, s.parallel.cp = cp, s.parallel.pp = 16, s.parallel.dp = dp;
    s.parallel.seqLen = seq;
    s.parallel.batchTokens = 16.0 * 1024 * 1024;
    s.steps = 1;
    const RunResult r = simulateRun(*doc, s, nullptr);
    const double got = r.step.tflopsPerGpu;
    qInfo("%s: %.1f TFLOP/s per GPU (published %.0f, %+.1f%%)", QTest::currentDataTag(), got,
          published, (got / published - 1) * 100);
    if (qEnvironmentVariableIsSet("CS_CALIBRATION_DETAIL"))
        qInfo("  step %.3f pipeline %.3f bubble %.3f, send %.5f, DP gather %.3f reduce %.3f "
              "exposed %.3f, opt %.3f, first pass at %.4f",
              r.step.stepS, r.step.pipelineS, r.step.breakdown.slowest()[StepPart::Bubble],
              r.step.ppTransferS, r.step.dpAllGatherS, r.step.dpReduceScatterS,
              r.step.breakdown.slowest()[StepPart::ExposedDp], r.step.optimizerS,
              r.step.schedule->compute.front().front().fromS);
    QVERIFY2(std::fabs(got / published - 1) <= 0.03, qPrintable(QString::number(got)));
}

void TestCalibration::korthikantiTable5_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<int>("pp");
    QTest::addColumn<int>("batch");
    QTest::addColumn<int>("virtualStages");
    QTest::addColumn<bool>("selective");   // SP + selective, or full recomputation without SP
    QTest::addColumn<double>("published"); // seconds per iteration
    const struct {
        const char* model;
        int pp, batch, v;
        double full, selective;
    } rows[] = {{"gpt-22b", 1, 4, 1, 1.42, 1.10},
                {"gpt-175b", 8, 64, 3, 18.13, 13.75},
                {"gpt-530b", 35, 280, 3, 49.05, 37.83},
                {"gpt-1t", 64, 512, 1, 94.42, 71.49}};
    for (const auto& r : rows) {
        QTest::addRow("%s, full", r.model) << r.model << r.pp << r.batch << r.v << false << r.full;
        QTest::addRow("%s, SP + selective", r.model)
            << r.model << r.pp << r.batch << r.v << true << r.selective;
    }
}

void TestCalibration::korthikantiTable5() {
    QFETCH(QString, model);
    QFETCH(int, pp);
    QFETCH(int, batch);
    QFETCH(int, virtualStages);
    QFETCH(bool, selective);
    QFETCH(double, published);
    static const auto doc = openTopology("dgx-a100-1k", {});
    RunSpec s;
    s.model = model.toStdString();
    s.gpu = "a100-sxm-80gb";
    ParallelConfig& c = s.parallel;
    // Selene, as the paper ran it: TP 8, DP 1, sequences of 2,048, micro-batches of 1 (4 for
    // 22B), Megatron-LM of 2022 (attention scores through HBM, plain data parallel, and its
    // pipeline waiting for each send: batch_isend_irecv, then wait, before the next pass).
    c.tp = 8, c.cp = 1, c.pp = pp, c.dp = 1;
    c.virtualStages = virtualStages;
    c.seqLen = 2048;
    c.batchSeqs = batch;
    c.microBatchSeqs = model == "gpt-22b" ? 4 : 1;
    c.fusedAttention = false;
    c.zeroStage = 0;
    c.overlap.ppComm = false;
    c.sequenceParallel = selective;
    c.recompute = selective ? Recompute::Selective : Recompute::Full;
    s.steps = 1;
    const RunResult r = simulateRun(*doc, s, nullptr);
    const double got = r.step.stepS;
    qInfo("%s: %.2f s (published %.2f, %+.1f%%)", QTest::currentDataTag(), got, published,
          (got / published - 1) * 100);
    if (qEnvironmentVariableIsSet("CS_CALIBRATION_DETAIL"))
        qInfo("  micro compute %.4f tp %.4f, M %.0f, pipeline %.3f bubble %.3f pp %.3f opt %.3f",
              r.step.computePerMicroS, r.step.tpPerMicroS, r.step.microBatches, r.step.pipelineS,
              r.step.breakdown.slowest()[StepPart::Bubble],
              r.step.breakdown.slowest()[StepPart::ExposedPp], r.step.optimizerS);
    QVERIFY2(std::fabs(got / published - 1) <= 0.05, qPrintable(QString::number(got)));
}

void TestCalibration::korthikantiTable4Layer_data() {
    QTest::addColumn<bool>("sequenceParallel");
    QTest::addColumn<int>("recompute");
    QTest::addColumn<double>("forwardMs");
    QTest::addColumn<double>("backwardMs");
    QTest::newRow("no recompute") << false << int(Recompute::None) << 7.7 << 11.9;
    QTest::newRow("sequence parallel") << true << int(Recompute::None) << 7.2 << 11.8;
    QTest::newRow("full recompute") << false << int(Recompute::Full) << 7.7 << 19.5;
    QTest::newRow("selective recompute") << false << int(Recompute::Selective) << 7.7 << 13.2;
    QTest::newRow("selective + SP") << true << int(Recompute::Selective) << 7.2 << 13.1;
}

// One layer of the 22B model (micro-batch 4 x 2,048 tokens, TP 8 on A100), forward and
// backward as the simulated step ran them: each layer's stretch on the step's timeline, from
// its start to its last TP collective's end (the backward's recomputation included). The
// model is the 22B's layer shape 8 layers deep (the table times one layer; all 48 would not
// fit in memory without recomputation); PP 2 keeps the output layer off the first stage,
// whose layers are measured; DP 1 moves nothing else over the fabric.
void TestCalibration::korthikantiTable4Layer() {
    QFETCH(bool, sequenceParallel);
    QFETCH(int, recompute);
    QFETCH(double, forwardMs);
    QFETCH(double, backwardMs);
    static const auto doc = openTopology("dgx-a100-1k", {});
    RunSpec s;
    s.customModel = *findModel("gpt-22b");
    s.customModel->name = s.model = "gpt-22b, 8 layers";
    s.customModel->layers = 8;
    s.gpu = "a100-sxm-80gb";
    ParallelConfig& c = s.parallel;
    c.tp = 8, c.cp = 1, c.pp = 2, c.dp = 1, c.virtualStages = 1;
    c.seqLen = 2048, c.microBatchSeqs = 4, c.batchSeqs = 8;
    c.fusedAttention = false;
    c.zeroStage = 0;
    c.sequenceParallel = sequenceParallel;
    c.recompute = Recompute(recompute);
    s.steps = 1;
    const RunResult r = simulateRun(*doc, s, nullptr);
    const ScheduleResult& timeline = *r.step.schedule;
    const auto& passes = timeline.passes.front();
    const auto& layers = timeline.layers.front();
    const size_t perPass = size_t(r.step.layersPerChunk.front().front());
    QVERIFY(perPass > 0);
    QCOMPARE(layers.size(), passes.size() * perPass);
    double sum[2] = {0, 0};
    int count[2] = {0, 0};
    for (size_t k = 0; k < layers.size(); ++k) {
        const bool forward = passes[k / perPass].forward;
        sum[forward] += layers[k].toS - layers[k].fromS;
        ++count[forward];
    }
    QVERIFY(count[0] > 0 && count[1] > 0);
    const double fwd = sum[1] / count[1], bwd = sum[0] / count[0];
    qInfo("%s: forward %.2f ms (published %.1f), backward %.2f ms (published %.1f)",
          QTest::currentDataTag(), fwd * 1e3, forwardMs, bwd * 1e3, backwardMs);
    QVERIFY2(std::fabs(fwd * 1e3 / forwardMs - 1) <= 0.10, qPrintable(QString::number(fwd * 1e3)));
    QVERIFY2(std::fabs(bwd * 1e3 / backwardMs - 1) <= 0.10, qPrintable(QString::number(bwd * 1e3)));
}

// Mixtures of experts (docs/reference/calibration.md, "Mixtures of experts"): NVIDIA
// Megatron-Bridge's performance summary, release 26.02, on DGX H100, and DeepSeek-V3 on its
// 2,048 H800 (DeepSeek's ISCA 2025 paper), through the run files of resources/examples.
// Nothing is fitted to these rows (the host time of a MoE layer comes from GPT-OSS-20B, whose
// layer B1 shares); each is checked within 8 %.
void TestCalibration::megatronBridgeMoe_data() {
    QTest::addColumn<QString>("runFile");
    QTest::addColumn<QString>("topology");
    QTest::addColumn<double>("publishedStepS"); // global batch x sequence / (tok/s/GPU x GPUs)
    QTest::newRow("B1 GPT-OSS-120B, 64 GPUs, EP 8") << "moe-gpt-oss-120b-h100.json"
                                                    << "dgx-h100-superpod" << 13.67;
    QTest::newRow("B2 Qwen3-235B-A22B, 256 GPUs, EP 32, FP8") << "moe-qwen3-235b-h100.json"
                                                              << "dgx-h100-superpod" << 80.26;
    // 272.80 B tokens a day at 15,360 sequences of 4,096 tokens a step.
    QTest::newRow("D1 DeepSeek-V3, 2,048 H800, multi-plane fat tree")
        << "moe-deepseek-v3-h800.json"
        << "deepseek-mpft-2k" << 15360 * 4096 / (272.80e9 / 86400);
}

void TestCalibration::megatronBridgeMoe() {
    QFETCH(QString, runFile);
    QFETCH(QString, topology);
    QFETCH(double, publishedStepS);
    const auto doc = openTopology(topology.toStdString(), {});
    const RunSpec s = loadRunSpec(CS_SOURCE_DIR "/resources/examples/" + runFile);
    const RunResult r = simulateRun(*doc, s, nullptr);
    const double got = r.step.stepS;
    qInfo("%s: step %.2f s (published %.2f, %+.1f%%); exposed EP %.2f s", QTest::currentDataTag(),
          got, publishedStepS, (got / publishedStepS - 1) * 100,
          r.step.breakdown.slowest()[StepPart::ExposedEp]);
    QEXPECT_FAIL("B1 GPT-OSS-120B, 64 GPUs, EP 8",
                 "GPT-OSS-120B's layers take the host longer to issue than the 14.8 ms "
                 "Megatron-Bridge's GPT-OSS-20B measurement gives (docs/reference/"
                 "calibration.md, section 2b)",
                 Continue);
    QEXPECT_FAIL(
        "B2 Qwen3-235B-A22B, 256 GPUs, EP 32, FP8",
        "Qwen3-235B's layers take the host less than 14.8 ms: its published step "
        "allows about 13 ms a layer at most (docs/reference/calibration.md, section 2b)",
        Continue);
    QVERIFY2(std::fabs(got / publishedStepS - 1) <= 0.08, qPrintable(QString::number(got)));
}

// Dense Hopper rows nothing was set from (docs/reference/calibration.md, "Dense FP8 on
// H100"): Megatron-Bridge's Llama 3 70B on 64 H100 and Llama 3.1 405B on 1,024, FP8, release
// 26.02. Hopper's in-training fraction was fitted on Llama 3's BF16 rows at 8,192 and 16,384
// GPUs; these check it at 64 and 1,024 GPUs in FP8, within Llama 3 Table 5's 5 %.
void TestCalibration::megatronBridgeDenseFp8_data() {
    QTest::addColumn<QString>("runFile");
    QTest::addColumn<double>("publishedStepS"); // global batch x sequence / (tok/s/GPU x GPUs)
    QTest::newRow("Llama 3 70B, 64 H100")
        << "llama3-70b-fp8-h100.json" << 256 * 8192 / (1621.0 * 64);
    QTest::newRow("Llama 3.1 405B, 1,024 H100")
        << "llama31-405b-fp8-h100.json" << 1536 * 8192 / (311.0 * 1024);
}

void TestCalibration::megatronBridgeDenseFp8() {
    QFETCH(QString, runFile);
    QFETCH(double, publishedStepS);
    const auto doc = openTopology("dgx-h100-superpod", {});
    const RunSpec s = loadRunSpec(CS_SOURCE_DIR "/resources/examples/" + runFile);
    const double got = simulateRun(*doc, s, nullptr).step.stepS;
    qInfo("%s: step %.2f s (published %.2f, %+.1f%%)", QTest::currentDataTag(), got, publishedStepS,
          (got / publishedStepS - 1) * 100);
    QVERIFY2(std::fabs(got / publishedStepS - 1) <= 0.05, qPrintable(QString::number(got)));
}

// The same dense layouts in Megatron-Bridge's other releases on DGX H100, and Llama 3 8B on 8
// (docs/reference/calibration.md, section 2c), nothing set from them: release 25.11 ran
// the large ones with smaller global batches, later releases with newer software. Within 10 %:
// megatronBridgeDenseFp8's 5 % and as much again for what a layout moves between releases (Llama 3
// 70B: 1,602 to 1,664 tokens/s/GPU).
void TestCalibration::megatronBridgeOtherReleases_data() {
    QTest::addColumn<QString>("runFile");
    QTest::addColumn<int>("batchSeqs");
    QTest::addColumn<double>("tokensPerSPerGpu"); // published
    QTest::addColumn<int>("gpus");                // published
    // FSDP, and 5 of its 32 layers recomputed in full (the block method).
    QTest::newRow("Llama 3 8B, 25.11") << "llama3-8b-fp8-h100.json" << 128 << 14451.0 << 8;
    QTest::newRow("Llama 3 70B, 25.11, batch 128")
        << "llama3-70b-fp8-h100.json" << 128 << 1602.0 << 64;
    QTest::newRow("Llama 3 70B, 26.02.01") << "llama3-70b-fp8-h100.json" << 256 << 1639.0 << 64;
    QTest::newRow("Llama 3 70B, 26.04") << "llama3-70b-fp8-h100.json" << 256 << 1633.0 << 64;
    QTest::newRow("Llama 3 70B, 26.04.01") << "llama3-70b-fp8-h100.json" << 256 << 1664.0 << 64;
    QTest::newRow("Llama 3.1 405B, 25.11, batch 512")
        << "llama31-405b-fp8-h100.json" << 512 << 292.0 << 1024;
    QTest::newRow("Llama 3.1 405B, 26.04.01")
        << "llama31-405b-fp8-h100.json" << 1536 << 328.0 << 1024;
    QTest::newRow("Llama 3.1 405B, 26.06") << "llama31-405b-fp8-h100.json" << 1536 << 326.0 << 1024;
}

void TestCalibration::megatronBridgeOtherReleases() {
    QFETCH(QString, runFile);
    QFETCH(int, batchSeqs);
    QFETCH(double, tokensPerSPerGpu);
    QFETCH(int, gpus);
    const auto doc = openTopology("dgx-h100-superpod", {});
    RunSpec s = loadRunSpec(CS_SOURCE_DIR "/resources/examples/" + runFile);
    s.parallel.batchSeqs = batchSeqs;
    const ParallelConfig& c = s.parallel;
    QCOMPARE(c.tp * c.cp * c.pp * c.dp, gpus); // the run file keeps the published layout
    const double publishedStepS = double(batchSeqs) * c.seqLen / (tokensPerSPerGpu * gpus);
    const double got = simulateRun(*doc, s, nullptr).step.stepS;
    qInfo("%s: step %.2f s (published %.2f, %+.1f%%)", QTest::currentDataTag(), got, publishedStepS,
          (got / publishedStepS - 1) * 100);
    QVERIFY2(std::fabs(got / publishedStepS - 1) <= 0.10, qPrintable(QString::number(got)));
}

QTEST_GUILESS_MAIN(TestCalibration)
#include "tst_calibration.moc"
