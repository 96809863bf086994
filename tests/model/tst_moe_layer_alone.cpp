// One MoE layer alone against Megatron-LM's MoE layer benchmark on 8 H100 (EP 8): the engine's
// kernel rates, grouped expert GEMMs and all-to-all over NVLink for its Mixtral and DeepSeek-V3
// proxies, three dispatchers, BF16 and FP8 (docs/reference/megatron-moe-layer.md).
#include "EngineTestSupport.h"
#include "MoeLayerAlone.h"
#include "Presets.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cmath>

using namespace cs;

namespace {

// Of each measured time, forward and backward alike, on the rows whose mechanisms the engine
// has (unmodelledIn).
constexpr double kBound = 0.15;

// The benchmark's proxies (test_cases.py): one MoE layer, nothing else of the model.
ModelSpec proxy(const QString& name) {
    ModelSpec m;
    m.name = name.toStdString() + "-proxy";
    m.layers = 1;
    m.heads = m.kvHeads = 8;
    if (name == "mixtral") {
        m.modelDim = 4096;
        m.moe.experts = 8, m.moe.activeExperts = 2, m.moe.expertFfnDim = 14336;
    } else {
        m.modelDim = 7168;
        m.moe.experts = 32, m.moe.activeExperts = 8, m.moe.expertFfnDim = 2048;
        m.moe.sharedExperts = 1;                // its shared expert is 2,048 wide
        m.moe.groups = 8, m.moe.groupLimit = 4; // a group is one GPU's 4 experts
    }
    m.ffnDim = m.moe.expertFfnDim;
    return m;
}

QJsonObject baseline() {
    QFile f(CS_SOURCE_DIR "/tests/fixtures/real/megatron-moe-perf/baseline.json");
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

// The engine's time of the case's layer: 4,096 tokens (sequence 4,096, micro-batch 1) on the
// first host of small-256 (8 H100 on NVSwitch).
MoeLayerAloneTime engineTime(const QString& model, const QString& dispatcher,
                             const QString& precision) {
    static const auto doc = openTopology("small-256", {});
    const Topology& t = doc->topology();
    std::vector<int32_t> group;
    for (int32_t g = 0; g < int32_t(t.gpus.size()) && group.size() < 8; ++g)
        if (t.gpus[size_t(g)].host == t.gpus[0].host) group.push_back(g);
    ParallelConfig c = test::config(1, 1, 1, 8, 4096);
    c.ep = 8;
    c.precision = precision == "fp8" ? Precision::Fp8 : Precision::Bf16;
    c.epDispatcher = dispatcher == "a2a"        ? EpDispatcher::AllToAll
                     : dispatcher == "hybridep" ? EpDispatcher::HybridEp
                                                : EpDispatcher::DeepEp;
    return timeMoeLayerAlone(t, doc->index(), group, proxy(model), *findGpu("h100"), c, 4096);
}

double errorOf(double engine, double measured) {
    return engine / measured - 1;
}

// What the engine does not model, where a row depends on it: those rows are printed and
// checked for their parts, not held to the bound.
QString unmodelledIn(const QString& model, const QString& dispatcher, const QString& precision) {
    if (precision == "fp8")
        return "the blockwise FP8 recipe (a scale per 128 elements); the engine's FP8 is "
               "per-tensor";
    return {};
}

// Rows whose mechanisms the engine has and which it still misses: named, so that a change that
// meets them shows (as an unexpected pass).
QString knownMiss(const QString& model, const QString& dispatcher) {
    if (model == "deepseek" && dispatcher != "a2a")
        return "the DeepSeek proxy's backward comes out 19-22 % long with DeepEP and HybridEP "
               "(14 % with NCCL's all-to-all), its forward 12-16 %: not explained";
    return {};
}

} // namespace

class TestMoeLayerAlone : public QObject {
    Q_OBJECT
private slots:
    void layerTimesFollowTheBenchmark_data();
    void layerTimesFollowTheBenchmark();
    void dispatchersDifferWhereTheirTrafficDoes();
};

void TestMoeLayerAlone::layerTimesFollowTheBenchmark_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("dispatcher");
    QTest::addColumn<QString>("precision");
    const QJsonObject rows = baseline();
    QVERIFY2(rows.size() == 12, "the benchmark's 12 rows");
    for (const QString& key : rows.keys()) {
        const QStringList parts = key.split('_'); // model_dispatcher_tp1ep8_precision
        QCOMPARE(parts.size(), 4);
        QTest::newRow(qPrintable(key)) << parts[0] << parts[1] << parts[3];
    }
}

void TestMoeLayerAlone::layerTimesFollowTheBenchmark() {
    QFETCH(QString, model);
    QFETCH(QString, dispatcher);
    QFETCH(QString, precision);
    const QJsonObject row =
        baseline().value(model + "_" + dispatcher + "_tp1ep8_" + precision).toObject();
    const double forwardMs = row.value("forward_ms").toDouble();
    const double backwardMs = row.value("backward_ms").toDouble();
    QVERIFY(forwardMs > 0 && backwardMs > 0);
    const MoeLayerAloneTime e = engineTime(model, dispatcher, precision);
    const double fwd = errorOf(e.forwardS * 1e3, forwardMs);
    const double bwd = errorOf(e.backwardS * 1e3, backwardMs);
    const QString unmodelled = unmodelledIn(model, dispatcher, precision);
    qInfo("%-8s %-8s %-4s forward %5.2f ms (measured %5.2f, %+5.1f %%)  backward %5.2f ms "
          "(measured %5.2f, %+5.1f %%)  all-to-all %4.2f ms  host %4.1f ms%s",
          qPrintable(model), qPrintable(dispatcher), qPrintable(precision), e.forwardS * 1e3,
          forwardMs, 100 * fwd, e.backwardS * 1e3, backwardMs, 100 * bwd, e.allToAllS * 1e3,
          e.hostS * 1e3, unmodelled.isEmpty() ? "" : "  (not held)");
    // The parts: kernels, then a dispatch and a combine each way; the host beside them.
    QVERIFY(e.allToAllS > 0 && e.computeForwardS > 0 && e.computeBackwardS > e.computeForwardS);
    QCOMPARE(e.forwardS, e.computeForwardS + 2 * e.allToAllS);
    QCOMPARE(e.backwardS, e.computeBackwardS + 2 * e.allToAllS);
    QVERIFY(e.hostS > 0);
    if (!unmodelled.isEmpty()) return;
    if (const QString miss = knownMiss(model, dispatcher); !miss.isEmpty())
        QEXPECT_FAIL("", qPrintable(miss), Continue);
    QVERIFY2(std::fabs(fwd) < kBound && std::fabs(bwd) < kBound,
             qPrintable(QString("forward %1 %, backward %2 %").arg(100 * fwd).arg(100 * bwd)));
}

void TestMoeLayerAlone::dispatchersDifferWhereTheirTrafficDoes() {
    // Mixtral's 8 experts on 8 GPUs: a token's 2 copies go to 2 GPUs either way.
    QCOMPARE(engineTime("mixtral", "deepep", "bf16").allToAllS,
             engineTime("mixtral", "a2a", "bf16").allToAllS);
    // DeepSeek's 32 experts, 4 a GPU, a token's 8 in 4 of the 8 groups (one a GPU): DeepEP
    // sends a token once to each of its 4 GPUs, NCCL's all-to-all each of its 8 copies.
    const double ratio = engineTime("deepseek", "deepep", "bf16").allToAllS /
                         engineTime("deepseek", "a2a", "bf16").allToAllS;
    QVERIFY2(ratio > 0.45 && ratio < 0.55, qPrintable(QString::number(ratio)));
}

QTEST_GUILESS_MAIN(TestMoeLayerAlone)
#include "tst_moe_layer_alone.moc"
