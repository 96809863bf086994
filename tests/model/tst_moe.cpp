// Mixtures of experts: the presets' shapes against their published sizes, MoE models and
// expert parallelism in run files, the expert all-to-all on the routed fabric (inside hosts,
// across an oversubscribed fabric), and what a step shows of it (breakdown, trace, replay).
#include "ChromeTrace.h"
#include "EngineTestSupport.h"
#include "KernelModel.h"
#include "Presets.h"
#include "RunOptions.h"
#include "RunReader.h"
#include "RunSpecJson.h"
#include "SimulationRun.h"
#include "SiteGenerator.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <numeric>
#include <random>
#include <set>

using namespace cs;
using namespace cs::test;

class TestMoe : public QObject {
    Q_OBJECT
private slots:
    void presetsHaveTheirPublishedSizes_data();
    void presetsHaveTheirPublishedSizes();
    void moeModelsRoundTripThroughRunFiles();
    void badMoeFieldsAreRefusedByName_data();
    void badMoeFieldsAreRefusedByName();
    void expertParallelismIsChecked_data();
    void expertParallelismIsChecked();
    void expertTensorParallelismIsChecked_data();
    void expertTensorParallelismIsChecked();
    void expertTensorParallelismSplitsEachExpert();
    void aTreeAllReduceIsRefusedForExperts();
    void expertsAreShardedInMemory();
    void allToAllStaysOnNvlinkInsideAHost();
    void allToAllSlowsOnAFragmentedOversubscribedFabric();
    void ncclAllToAllIsHeldBackAtTheNicNotOnTheFabric();
    void overlapHidesTheAllToAllBehindCompute();
    void hybridEpMovesAsDeepEpAndHoldsFewerSms();
    void allToAllStaysInsideAnNvl72Rack();
    void dualPipeHidesOneMicroBatchsAllToAllBehindAnothers();
    void traceAndReplayShowTheAllToAll();
    void deepSeekV3RunsOnBothOfItsFabrics();
};

namespace {

RunSpec gptOss(int ep, Placement placement = Placement::TopologyAware) {
    RunSpec s;
    s.model = "gpt-oss-120b";
    s.gpu = "h100-sxm";
    s.parallel = config(1, 1, 4, 16, 4096);
    s.parallel.ep = ep;
    s.parallel.virtualStages = 1;
    s.parallel.batchSeqs = 256;
    s.parallel.zeroStage = 1;
    s.parallel.placement = placement;
    // The expert all-to-all's cost shows where the host does not set the pace (see
    // tst_host_bound for the eager host's).
    s.parallel.cudaGraphs = CudaGraphs::Full;
    s.steps = 1;
    return s;
}

} // namespace

void TestMoe::presetsHaveTheirPublishedSizes_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<double>("totalB");
    QTest::addColumn<double>("activeB");
    // Published totals and active parameters (docs/reference/models.md). GPT-OSS counts
    // its 5.1 B active without the input embedding.
    QTest::newRow("gpt-oss-120b") << "gpt-oss-120b" << 116.8 << 5.1 + 201088 * 2880e-9;
    QTest::newRow("qwen3-235b-a22b") << "qwen3-235b-a22b" << 235.0 << 22.0;
    QTest::newRow("deepseek-v3") << "deepseek-v3" << 671.0 << 37.0; // without its MTP module
    QTest::newRow("mixtral-8x22b") << "mixtral-8x22b" << 141.0 << 39.0;
}

void TestMoe::presetsHaveTheirPublishedSizes() {
    QFETCH(QString, model);
    QFETCH(double, totalB);
    QFETCH(double, activeB);
    const ModelSpec m = *findModel(model.toStdString());
    QVERIFY(m.moe.present());
    // The main model: DeepSeek-V3's 671 B leave out its 14 B prediction module.
    const double total = (m.parameters() - m.mtpParameters()) / 1e9,
                 active = m.activeParameters() / 1e9;
    qInfo("%s: %.2f B total, %.2f B active", qPrintable(model), total, active);
    QVERIFY2(std::fabs(total / totalB - 1) < 0.01, qPrintable(QString::number(total)));
    QVERIFY2(std::fabs(active / activeB - 1) < 0.015, qPrintable(QString::number(active)));
}

void TestMoe::moeModelsRoundTripThroughRunFiles() {
    RunSpec s = gptOss(8);
    s.customModel = *findModel("deepseek-v3");
    s.customModel->name = "my-deepseek";
    s.customModel->moe.routingSkew = 1.25;
    s.customModel->moe.groups = 8, s.customModel->moe.groupLimit = 4;
    s.model = "my-deepseek";
    const QByteArray text = QJsonDocument(runSpecToJson(s)).toJson();
    const RunSpec back = parseRunSpec(text, "run.json");
    QVERIFY(back.customModel);
    const ModelSpec& m = *back.customModel;
    QCOMPARE(m.moe.experts, 256);
    QCOMPARE(m.moe.activeExperts, 8);
    QCOMPARE(m.moe.sharedExperts, 1);
    QCOMPARE(m.moe.expertFfnDim, 2048);
    QCOMPARE(m.moe.firstDenseLayers, 3);
    QCOMPARE(m.moe.nodeLimit, 4);
    QCOMPARE(m.moe.routingSkew, 1.25);
    QCOMPARE(m.moe.groups, 8);
    QCOMPARE(m.moe.groupLimit, 4);
    QCOMPARE(m.attention.kvLoraRank, 512);
    QCOMPARE(m.attention.qLoraRank, 1536);
    QCOMPARE(m.attention.ropeHeadDim, 64);
    QCOMPARE(m.parameters(), findModel("deepseek-v3")->parameters());
    QCOMPARE(back.parallel.ep, 8);
    QCOMPARE(QJsonDocument(runSpecToJson(back)).toJson(), text);
}

void TestMoe::badMoeFieldsAreRefusedByName_data() {
    QTest::addColumn<QByteArray>("model");
    QTest::addColumn<QString>("field");
    const QByteArray base = R"("name": "m", "layers": 4, "hidden": 1024, "heads": 8, )";
    QTest::newRow("more active than experts")
        << base + R"("moe": {"experts": 8, "activeExperts": 9, "expertFfnHidden": 512})"
        << "model.moe.activeExperts";
    QTest::newRow("skew below 1")
        << base + R"("moe": {"experts": 8, "activeExperts": 2, "expertFfnHidden": 512,
                     "routing": {"skew": 0.5}})"
        << "model.moe.routing.skew";
    QTest::newRow("routing unknown")
        << base + R"("moe": {"experts": 8, "activeExperts": 2, "expertFfnHidden": 512,
                     "routing": "random"})"
        << "model.moe.routing";
    QTest::newRow("dense layers need their width")
        << base + R"("moe": {"experts": 8, "activeExperts": 2, "expertFfnHidden": 512,
                     "firstDenseLayers": 1})"
        << "model.ffnHidden";
    QTest::newRow("groups that do not divide the experts")
        << base + R"("moe": {"experts": 8, "activeExperts": 2, "expertFfnHidden": 512,
                     "groups": 3})"
        << "model.moe.groups";
    QTest::newRow("a group limit without groups")
        << base + R"("moe": {"experts": 8, "activeExperts": 2, "expertFfnHidden": 512,
                     "groupLimit": 2})"
        << "model.moe.groupLimit";
    QTest::newRow("a group limit over the groups")
        << base + R"("moe": {"experts": 8, "activeExperts": 2, "expertFfnHidden": 512,
                     "groups": 4, "groupLimit": 5})"
        << "model.moe.groupLimit";
    QTest::newRow("too few groups for the active experts")
        << base + R"("moe": {"experts": 32, "activeExperts": 8, "expertFfnHidden": 512,
                     "groups": 8, "groupLimit": 1})"
        << "model.moe.groupLimit";
    QTest::newRow("unknown attention kind")
        << base + R"("ffnHidden": 4096, "attention": {"kind": "linear"})"
        << "model.attention.kind";
    QTest::newRow("mla without its latent")
        << base + R"("ffnHidden": 4096, "attention": {"kind": "mla"})"
        << "model.attention.kvLoraRank";
}

void TestMoe::badMoeFieldsAreRefusedByName() {
    QFETCH(QByteArray, model);
    QFETCH(QString, field);
    const QByteArray text =
        R"({"format": "clusterscope-run", "version": 2, "model": {)" + model + R"(}, "steps": 1})";
    try {
        parseRunSpec(text, "run.json");
        QFAIL("accepted");
    } catch (const InputException& e) {
        QCOMPARE(QString::fromStdString(e.error().field), field);
    }
}

void TestMoe::expertParallelismIsChecked_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<int>("ep");
    QTest::addColumn<QString>("message");
    QTest::newRow("dense model") << "llama3-8b" << 8 << "is dense";
    QTest::newRow("EP not dividing the experts") << "gpt-oss-120b" << 48 << "divide the 128";
    QTest::newRow("EP not dividing the stage's ranks") << "gpt-oss-120b" << 32 << "TP x CP x DP";
}

void TestMoe::expertParallelismIsChecked() {
    QFETCH(QString, model);
    QFETCH(int, ep);
    QFETCH(QString, message);
    RunSpec s = gptOss(1);
    s.model = model.toStdString();
    s.parallel.ep = ep;
    const ModelSpec m = *findModel(s.model);
    try {
        checkTrainingConfig(m, *findGpu("h100-sxm"), s.parallel);
        QFAIL("accepted");
    } catch (const InputException& e) {
        QCOMPARE(QString::fromStdString(e.error().field), QString("parallel.ep"));
        QVERIFY2(QString::fromStdString(e.error().message).contains(message),
                 e.error().message.c_str());
    }
}

void TestMoe::expertTensorParallelismIsChecked_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<int>("expertFfn"); // 0: the model's own
    QTest::addColumn<int>("ep");
    QTest::addColumn<int>("etp");
    QTest::addColumn<QString>("message");
    QTest::newRow("dense model") << "llama3-8b" << 0 << 1 << 2 << "is dense";
    QTest::newRow("ETP x EP not dividing the stage's ranks")
        << "gpt-oss-120b" << 0 << 8 << 3 << "ETP x EP";
    QTest::newRow("ETP not dividing the experts' width")
        << "gpt-oss-120b" << 2884 << 2 << 8 << "FFN width 2884";
    QTest::newRow("zero") << "gpt-oss-120b" << 0 << 8 << 0 << "from 1 to 1024";
}

void TestMoe::expertTensorParallelismIsChecked() {
    QFETCH(QString, model);
    QFETCH(int, expertFfn);
    QFETCH(int, ep);
    QFETCH(int, etp);
    QFETCH(QString, message);
    RunSpec s = gptOss(ep);
    ModelSpec m = *findModel(model.toStdString());
    if (expertFfn > 0) m.moe.expertFfnDim = expertFfn;
    s.parallel.etp = etp;
    try {
        checkTrainingConfig(m, *findGpu("h100-sxm"), s.parallel);
        QFAIL("accepted");
    } catch (const InputException& e) {
        QCOMPARE(QString::fromStdString(e.error().field), QString("parallel.etp"));
        QVERIFY2(QString::fromStdString(e.error().message).contains(message),
                 e.error().message.c_str());
    }
}

// Expert TP (Megatron-Core's parallel folding): EP 8 x ETP 2 on the same 64 GPUs as EP 8
// alone splits each expert in two, so a GPU holds half the experts' weights and computes the
// same work in GEMMs half as wide, and each dispatch gathers its tokens over the ETP pair on
// NVLink; an ETP group that would leave its host is refused.
void TestMoe::expertTensorParallelismSplitsEachExpert() {
    const auto doc = openTopology("dgx-h100-superpod", {});
    RunSpec s = gptOss(8);
    const RunResult one = simulateRun(*doc, s, nullptr);
    s.parallel.etp = 2;
    const RunResult two = simulateRun(*doc, s, nullptr);
    const ModelSpec m = *findModel(s.model);
    const double expertsGiB = 9 * m.routedExpertParameters() * 2 / 8 / (1024.0 * 1024 * 1024);
    qInfo("weights %.2f / %.2f GiB; all-to-all %.3f / %.3f ms; compute %.3f / %.3f s",
          one.step.memory.weightsGiB, two.step.memory.weightsGiB, one.step.epAllToAllS * 1e3,
          two.step.epAllToAllS * 1e3, one.step.breakdown.slowest()[StepPart::Compute],
          two.step.breakdown.slowest()[StepPart::Compute]);
    QVERIFY(std::fabs((one.step.memory.weightsGiB - two.step.memory.weightsGiB) - expertsGiB / 2) <
            0.01 * expertsGiB);
    QVERIFY(two.step.epAllToAllS > one.step.epAllToAllS);
    // ETP fastest: EP 8's ranks are every other GPU of 16, over two hosts.
    QVERIFY(!one.step.epCrossesFabric);
    QVERIFY(two.step.epCrossesFabric);
    QVERIFY(std::fabs(two.step.breakdown.slowest()[StepPart::Compute] /
                          one.step.breakdown.slowest()[StepPart::Compute] -
                      1) < 0.15);
    // EP 8 x ETP 2 = 16 GPUs per expert group; with ETP 16 a group spans two hosts.
    s.parallel.ep = 1;
    s.parallel.etp = 16;
    try {
        simulateRun(*doc, s, nullptr);
        QFAIL("accepted");
    } catch (const InputException& e) {
        QCOMPARE(QString::fromStdString(e.error().field), QString("parallel.etp"));
        QVERIFY2(QString::fromStdString(e.error().message).contains("NVLink"),
                 e.error().message.c_str());
    }
}

void TestMoe::aTreeAllReduceIsRefusedForExperts() {
    RunSpec s = gptOss(8);
    s.customModel = *findModel("gpt-oss-120b");
    s.customModel->layers = 4; // fits without sharding the optimizer
    s.model = s.customModel->name = "gpt-oss, 4 layers";
    s.parallel.zeroStage = 0;
    s.parallel.allReduce = AllReduceAlgorithm::Tree;
    try {
        checkTrainingConfig(*s.customModel, *findGpu(s.gpu), s.parallel);
        QFAIL("accepted");
    } catch (const InputException& e) {
        QCOMPARE(QString::fromStdString(e.error().field), QString("parallel.allReduce"));
    }
    // Auto reduces both rings as rings: the experts' gradients are not left out.
    s.parallel.allReduce = AllReduceAlgorithm::Auto;
    const auto doc = openTopology("dgx-h100-superpod", {});
    const RunResult r = simulateRun(*doc, s, nullptr);
    QVERIFY(!r.step.dpTree);
    QVERIFY(r.step.dpReduceScatterS > 0);
}

void TestMoe::expertsAreShardedInMemory() {
    const ModelSpec m = *findModel("gpt-oss-120b");
    RunSpec one = gptOss(1), eight = gptOss(8);
    const MemoryEstimate a = estimateMemory(m, one.parallel), b = estimateMemory(m, eight.parallel);
    // 9 MoE layers per stage, 128 experts of 3 x 2,880^2 each, bf16: EP 8 holds an eighth.
    const double expertsGiB = 9 * m.routedExpertParameters() * 2 / (1024.0 * 1024 * 1024);
    QVERIFY(std::fabs((a.weightsGiB - b.weightsGiB) - expertsGiB * 7 / 8) < 0.01 * expertsGiB);
    QVERIFY(a.totalGiB() > 79.6); // the whole model per stage does not fit an H100
    QVERIFY(b.totalGiB() < 79.6);
}

void TestMoe::allToAllStaysOnNvlinkInsideAHost() {
    const auto doc = openTopology("dgx-h100-superpod", {});
    const RunResult r = simulateRun(*doc, gptOss(8), nullptr);
    QCOMPARE(r.step.epPeers, 7);
    QVERIFY(!r.step.epCrossesFabric); // EP 8 of TP 1: one host
    QVERIFY(r.step.epAllToAllS > 0);
    QVERIFY(r.step.epLinkBytes.empty() || [&] {
        for (const auto& stage : r.step.epLinkBytes)
            for (float b : stage)
                if (b > 0) return false;
        return true;
    }());
    // The same job with EP across 2 hosts: the all-to-all takes the NICs and is slower.
    const RunResult wide = simulateRun(*doc, gptOss(16), nullptr);
    QVERIFY(wide.step.epCrossesFabric);
    QVERIFY2(wide.step.epAllToAllS > 1.5 * r.step.epAllToAllS,
             qPrintable(QString("%1 vs %2").arg(wide.step.epAllToAllS).arg(r.step.epAllToAllS)));
}

void TestMoe::allToAllSlowsOnAFragmentedOversubscribedFabric() {
    // EP 16 spans two hosts. Placed topology-aware on a 1:1 fabric, and fragmented over
    // racks on a fabric 1:4 oversubscribed between pods.
    const auto full = smallWithOversubscription(1), thin = smallWithOversubscription(4);
    const RunResult placed = simulateRun(*full, gptOss(16), nullptr);
    const RunResult placedThin = simulateRun(*thin, gptOss(16), nullptr);
    const RunResult scattered = simulateRun(*thin, gptOss(16, Placement::Fragmented), nullptr);
    qInfo("all-to-all %.2f ms placed, %.2f ms placed on 1:4, %.2f ms fragmented on 1:4",
          placed.step.epAllToAllS * 1e3, placedThin.step.epAllToAllS * 1e3,
          scattered.step.epAllToAllS * 1e3);
    qInfo("step %.3f s, %.3f s, %.3f s", placed.step.stepS, placedThin.step.stepS,
          scattered.step.stepS);
    // Inside a pod the oversubscription between pods costs nothing.
    QVERIFY(std::fabs(placedThin.step.epAllToAllS / placed.step.epAllToAllS - 1) < 0.01);
    QVERIFY(scattered.step.epAllToAllS > 1.3 * placedThin.step.epAllToAllS);
    QVERIFY(scattered.step.stepS > placedThin.step.stepS);
}

// EP 32 over 4 hosts (DP 32), each token to one expert: DeepEP then sends every copy as NCCL
// does, so the two differ only in NCCL's cap on a GPU's NIC (37 of its 50 GB/s across 3 or more
// hosts). Placed on a 1:1 fabric, NCCL's all-to-all takes what that cap gives a GPU's copies
// for its 24 peers on other hosts; scattered on a fabric 1:16 oversubscribed between pods, the
// fabric's sharing is slower than the cap and both take as long.
void TestMoe::ncclAllToAllIsHeldBackAtTheNicNotOnTheFabric() {
    const auto full = smallWithOversubscription(1), thin = smallWithOversubscription(16);
    auto allToAll = [](const TopologyDocument& doc, Placement placement, EpDispatcher d) {
        RunSpec s = gptOss(32, placement);
        s.parallel.dp = 32;
        s.customModel = *findModel("gpt-oss-120b");
        s.customModel->moe.activeExperts = 1;
        s.customModel->name = "gpt-oss-top-1";
        s.model = s.customModel->name;
        s.parallel.epDispatcher = d;
        return simulateRun(doc, s, nullptr).step;
    };
    const StepEstimate placedNccl =
        allToAll(*full, Placement::TopologyAware, EpDispatcher::AllToAll);
    const StepEstimate placedDeepEp =
        allToAll(*full, Placement::TopologyAware, EpDispatcher::DeepEp);
    const StepEstimate thinNccl = allToAll(*thin, Placement::Fragmented, EpDispatcher::AllToAll);
    const StepEstimate thinDeepEp = allToAll(*thin, Placement::Fragmented, EpDispatcher::DeepEp);
    qInfo("placed: NCCL %.3f ms, DeepEP %.3f ms; scattered on 1:16: NCCL %.3f ms, DeepEP %.3f ms",
          placedNccl.epAllToAllS * 1e3, placedDeepEp.epAllToAllS * 1e3, thinNccl.epAllToAllS * 1e3,
          thinDeepEp.epAllToAllS * 1e3);
    auto fabricBytes = [](const StepEstimate& e) {
        double sum = 0;
        for (const auto& stage : e.epLinkBytes)
            for (float b : stage)
                sum += b;
        return sum;
    };
    QVERIFY(fabricBytes(placedNccl) > 0);
    QVERIFY(std::fabs(fabricBytes(placedDeepEp) / fabricBytes(placedNccl) - 1) < 1e-6);
    const double capS = placedNccl.epBytesPerAllToAll / 31 * 24 / 37e9;
    QVERIFY2(placedNccl.epAllToAllS >= capS && placedNccl.epAllToAllS < capS * 1.05,
             qPrintable(QString("%1 s against %2 s").arg(placedNccl.epAllToAllS).arg(capS)));
    QVERIFY(placedDeepEp.epAllToAllS < placedNccl.epAllToAllS);
    QVERIFY(thinDeepEp.epAllToAllS > thinNccl.epBytesPerAllToAll / 37e9); // beyond any cap
    QCOMPARE(thinNccl.epAllToAllS, thinDeepEp.epAllToAllS);
}

// GB200 NVL72: EP 8 placed topology-aware stays inside a rack's NVLink domain (its 72 GPUs
// through the switch trays, across compute trays of 4), so a fabric oversubscribed 3:1 costs
// it nothing; placed fragmented over racks, it crosses the fabric and slows with it.
void TestMoe::allToAllStaysInsideAnNvl72Rack() {
    SiteParams thinParams = *presetParams("gb200-nvl72-su");
    thinParams.clusters.front().planes = 6; // 18 NICs under a leaf, 6 uplinks
    const auto full = openTopology("gb200-nvl72-su", {});
    const auto thin =
        std::make_unique<TopologyDocument>(generateSite(thinParams), thinParams, "3:1");
    RunSpec s = gptOss(8);
    s.gpu = "gb200";
    s.parallel.dp = 64;
    s.parallel.batchSeqs = 1024;
    const RunResult placed = simulateRun(*full, s, nullptr);
    const RunResult placedThin = simulateRun(*thin, s, nullptr);
    s.parallel.placement = Placement::Fragmented;
    const RunResult scattered = simulateRun(*full, s, nullptr);
    const RunResult scatteredThin = simulateRun(*thin, s, nullptr);
    qInfo("step %.3f s placed, %.3f s placed on 3:1; fragmented %.3f s, %.3f s on 3:1",
          placed.step.stepS, placedThin.step.stepS, scattered.step.stepS, scatteredThin.step.stepS);
    // EP 8 spans two compute trays: NVLink all the same.
    QVERIFY(!placed.step.epCrossesFabric);
    QCOMPARE(placed.step.epAllToAllS, placedThin.step.epAllToAllS);
    QVERIFY(std::fabs(placedThin.step.stepS / placed.step.stepS - 1) < 0.01);
    QVERIFY(scattered.step.epCrossesFabric);
    QVERIFY(scatteredThin.step.stepS > scattered.step.stepS);
    QVERIFY(scattered.step.stepS > 1.3 * placed.step.stepS);
}

void TestMoe::overlapHidesTheAllToAllBehindCompute() {
    const auto doc = openTopology("dgx-h100-superpod", {});
    RunSpec s = gptOss(16);
    const RunResult exposed = simulateRun(*doc, s, nullptr);
    s.parallel.overlap.epComm = true;
    const RunResult hidden = simulateRun(*doc, s, nullptr);
    const double exposedEp = exposed.step.breakdown.slowest()[StepPart::ExposedEp];
    const double hiddenEp = hidden.step.breakdown.slowest()[StepPart::ExposedEp];
    qInfo("exposed EP %.3f s of %.3f s; overlapped %.3f s of %.3f s", exposedEp, exposed.step.stepS,
          hiddenEp, hidden.step.stepS);
    QVERIFY(exposedEp > 0.02 * exposed.step.stepS);
    QVERIFY(hiddenEp < 0.5 * exposedEp);
    QVERIFY(hidden.step.stepS < exposed.step.stepS);
    // The communication's SMs still cost the GEMMs: more compute than without any all-to-all.
    QVERIFY(hidden.step.breakdown.slowest()[StepPart::Compute] >
            exposed.step.breakdown.slowest()[StepPart::Compute]);
}

// HybridEP sends what DeepEP sends; overlapped, its 16 SMs leave the GEMMs 4 of DeepEP's 20:
// the compute beside the all-to-all costs less, by the SMs' share of the time it overlaps.
void TestMoe::hybridEpMovesAsDeepEpAndHoldsFewerSms() {
    const auto doc = openTopology("dgx-h100-superpod", {});
    auto run = [&](EpDispatcher d, bool overlap) {
        RunSpec s = gptOss(16);
        s.parallel.epDispatcher = d;
        s.parallel.overlap.epComm = overlap;
        return simulateRun(*doc, s, nullptr).step;
    };
    const StepEstimate deep = run(EpDispatcher::DeepEp, false),
                       hybrid = run(EpDispatcher::HybridEp, false);
    QCOMPARE(hybrid.epAllToAllS, deep.epAllToAllS);
    QCOMPARE(hybrid.stepS, deep.stepS); // exposed, nothing differs
    const StepEstimate deepBeside = run(EpDispatcher::DeepEp, true),
                       hybridBeside = run(EpDispatcher::HybridEp, true);
    const double deepCompute = deepBeside.breakdown.slowest()[StepPart::Compute],
                 hybridCompute = hybridBeside.breakdown.slowest()[StepPart::Compute],
                 alone = deep.breakdown.slowest()[StepPart::Compute];
    qInfo("compute: alone %.4f s, beside DeepEP %.4f s, beside HybridEP %.4f s; step %.4f / %.4f",
          alone, deepCompute, hybridCompute, deepBeside.stepS, hybridBeside.stepS);
    QVERIFY(alone < hybridCompute && hybridCompute < deepCompute);
    // What the all-to-all's SMs add to the compute scales with them: 16 against 20.
    const double ratio = (hybridCompute - alone) / (deepCompute - alone);
    QVERIFY2(std::fabs(ratio - 16.0 / 20) < 0.01, qPrintable(QString::number(ratio)));
    QVERIFY(hybridBeside.stepS < deepBeside.stepS);
    // The summary's figure of compute lost to communication's SMs carries it.
    const double reportedS = deepBeside.commSmsLossS - deep.commSmsLossS;
    QVERIFY2(std::fabs(reportedS - (deepCompute - alone)) < 0.02 * (deepCompute - alone),
             qPrintable(QString::number(reportedS)));
}

// DualPipe runs a forward and a backward of the two directions as a pair, each one's
// all-to-all beside the other's compute: without any other overlap, far less of it is exposed
// than under 1F1B, and the pairs are in the schedule.
void TestMoe::dualPipeHidesOneMicroBatchsAllToAllBehindAnothers() {
    const auto doc = openTopology("dgx-h100-superpod", {});
    RunSpec s = gptOss(16);
    // Two stages' weights and p + 1 micro-batches per GPU fit with these.
    s.parallel.zeroStage = 2;
    s.parallel.recompute = Recompute::Full;
    s.parallel.schedule = PipelineSchedule::OneFOneB;
    const RunResult plain = simulateRun(*doc, s, nullptr);
    s.parallel.schedule = PipelineSchedule::DualPipe;
    const RunResult dual = simulateRun(*doc, s, nullptr);
    const double plainEp = plain.step.breakdown.slowest()[StepPart::ExposedEp];
    const double dualEp = dual.step.breakdown.slowest()[StepPart::ExposedEp];
    int pairs = 0;
    for (const PassRecord& x : dual.step.schedule->passes.front())
        pairs += x.paired && x.forward;
    qInfo("exposed EP %.3f s of %.3f s with 1F1B, %.3f s of %.3f s with DualPipe (%d pairs on "
          "stage 0)",
          plainEp, plain.step.stepS, dualEp, dual.step.stepS, pairs);
    QVERIFY(pairs > 0);
    QVERIFY(plainEp > 0.02 * plain.step.stepS);
    QVERIFY(dualEp < 0.5 * plainEp);
    QVERIFY(dual.step.stepS < plain.step.stepS);
}

void TestMoe::traceAndReplayShowTheAllToAll() {
    const auto doc = openTopology("dgx-h100-superpod", {});
    const RunSpec s = gptOss(16);
    QTemporaryDir dir;
    const QString path = dir.filePath("moe.sqlite");
    const RunResult r = simulateToStore(*doc, s, path);
    const QJsonArray events =
        QJsonDocument::fromJson(chromeTraceOfStep(r, s)).object().value("traceEvents").toArray();
    int epSlices = 0;
    for (const QJsonValue& v : events) {
        const QJsonObject e = v.toObject();
        if (e.value("cat").toString() != "ep") continue;
        ++epSlices;
        const QJsonObject args = e.value("args").toObject();
        QCOMPARE(args.value("peers").toInt(), 15);
        QCOMPARE(args.value("peerGpus").toArray().size(), 15);
        // No node limit: NCCL's all-to-all, over the two hosts of 16 GPUs.
        QCOMPARE(args.value("dispatcher").toString(), QString("alltoall"));
        QCOMPARE(args.value("hosts").toInt(), 2);
        QVERIFY(args.value("bytes").toDouble() > 0);
    }
    // Stage 0 of three replicas: a forward and a backward of 9 MoE layers per micro-batch.
    const int micro = int(std::llround(r.step.microBatches));
    QCOMPARE(epSlices, 3 * 4 * 2 * 9 * micro);
    // The replay: the fabric carries the all-to-all's bytes, named as EP.
    double epBytes = 0;
    for (const auto& stage : r.step.epLinkBytes)
        for (float b : stage)
            epBytes += b;
    QVERIFY(epBytes > 0);
    const QJsonObject summary =
        QJsonDocument::fromJson(
            QByteArray::fromStdString(RunReader::runsIn(path).back().summaryJson))
            .object();
    QVERIFY(summary.value("trafficSources")
                .toArray()
                .contains(QJsonObject{{"kind", "EP"}, {"name", "EP all-to-all of stage 0"}}));
}

void TestMoe::deepSeekV3RunsOnBothOfItsFabrics() {
    // DeepSeek-V3 as its report trains it (resources/examples): 2,048 H800, PP 16, EP 64 over
    // 8 nodes, on the multi-plane and the multi-rail fat tree.
    RunSpec s = loadRunSpec(CS_SOURCE_DIR "/resources/examples/moe-deepseek-v3-h800.json");
    const auto mpft = openTopology("deepseek-mpft-2k", {}),
               mrft = openTopology("deepseek-mrft-2k", {});
    const RunResult planes = simulateRun(*mpft, s, nullptr);
    const RunResult rails = simulateRun(*mrft, s, nullptr);
    qInfo("step %.2f s on MPFT, %.2f s on MRFT; all-to-all %.2f / %.2f ms; %.0f TFLOP/s per GPU",
          planes.step.stepS, rails.step.stepS, planes.step.epAllToAllS * 1e3,
          rails.step.epAllToAllS * 1e3, planes.step.tflopsPerGpu);
    QVERIFY(planes.step.epCrossesFabric && rails.step.epCrossesFabric);
    QCOMPARE(planes.step.epPeers, 63);
    // DeepSeek measured the two fabrics' all-to-all within noise of each other.
    QVERIFY(std::fabs(planes.step.epAllToAllS / rails.step.epAllToAllS - 1) < 0.1);
    // 61 layers and the prediction module: 3 on the first and last stage, 4 on the others.
    QCOMPARE(planes.step.layersPerChunk.front().front(), 3);
    QCOMPARE(planes.step.layersPerChunk[7].front(), 4);
    QCOMPARE(planes.step.layersPerChunk.back().front(), 3);
    // DeepEP sends a token once to each node it reaches: 4 of its 8 copies' nodes with
    // node-limited routing; without the limit as many nodes as its 8 experts (of 256, 32 per
    // node) fall on, on average. NCCL's all-to-all sends every copy.
    auto fabricBytes = [](const RunResult& r) {
        double sum = 0;
        for (const auto& stage : r.step.epLinkBytes)
            for (float b : stage)
                sum += b;
        return sum;
    };
    s.customModel = *findModel("deepseek-v3");
    s.customModel->moe.nodeLimit = 0; // and its router's groups, which limit it as well
    s.customModel->moe.groups = s.customModel->moe.groupLimit = 0;
    s.customModel->name = "deepseek-v3-any-node";
    s.model = s.customModel->name;
    const RunResult unlimited = simulateRun(*mpft, s, nullptr);
    s.parallel.epDispatcher = EpDispatcher::AllToAll;
    const RunResult nccl = simulateRun(*mpft, s, nullptr);
    // Routing drawn at random (8 of 256 experts, 32 on each of the 8 nodes): the nodes a token
    // reaches, on average.
    std::mt19937 draw(7);
    std::vector<int> experts(256);
    std::iota(experts.begin(), experts.end(), 0);
    double nodesReached = 0;
    const int tokens = 20000;
    for (int i = 0; i < tokens; ++i) {
        std::shuffle(experts.begin(), experts.end(), draw);
        std::set<int> nodes;
        for (int e = 0; e < 8; ++e)
            nodes.insert(experts[size_t(e)] / 32);
        nodesReached += double(nodes.size()) / tokens;
    }
    QVERIFY2(std::fabs(fabricBytes(unlimited) / fabricBytes(nccl) / (nodesReached / 8) - 1) < 0.01,
             qPrintable(QString::number(fabricBytes(unlimited) / fabricBytes(nccl))));
    QVERIFY(std::fabs(fabricBytes(planes) / fabricBytes(nccl) - 4.0 / 8) < 1e-6);
    // The router's groups alone (8 of 32 experts, one a node here, a token's in 4 of them)
    // keep a token to 4 nodes as the node limit does.
    s = loadRunSpec(CS_SOURCE_DIR "/resources/examples/moe-deepseek-v3-h800.json");
    s.customModel = *findModel("deepseek-v3");
    s.customModel->moe.nodeLimit = 0;
    s.customModel->name = "deepseek-v3-groups";
    s.model = s.customModel->name;
    QCOMPARE(fabricBytes(simulateRun(*mpft, s, nullptr)), fabricBytes(planes));
    // NCCL's all-to-all leaves a GPU's 400G NIC at 37 GB/s at most across 3 or more hosts: each
    // GPU's copies for its 56 peers on other nodes take at least that long.
    const double perGpuFabricBytes = nccl.step.epBytesPerAllToAll / 63 * 56;
    QVERIFY2(
        nccl.step.epAllToAllS >= perGpuFabricBytes / 37e9 &&
            nccl.step.epAllToAllS < perGpuFabricBytes / 37e9 * 1.05,
        qPrintable(QString("%1 s for %2 bytes").arg(nccl.step.epAllToAllS).arg(perGpuFabricBytes)));
    // Auto: DeepEP for the node-limited preset, as its own run file says.
    s = loadRunSpec(CS_SOURCE_DIR "/resources/examples/moe-deepseek-v3-h800.json");
    s.parallel.epDispatcher = EpDispatcher::Auto;
    QCOMPARE(fabricBytes(simulateRun(*mpft, s, nullptr)), fabricBytes(planes));
}

QTEST_GUILESS_MAIN(TestMoe)
#include "tst_moe.moc"
