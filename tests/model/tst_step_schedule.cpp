// The step's event schedule (StepSchedule): transfers re-share the fabric at every start and
// finish, passes wait for what they depend on, and DP runs as frameworks run it (buckets for
// replicated weights, per-layer gathers before every pass for sharded ones).
#include "StepBreakdown.h"
#include "StepSchedule.h"

#include <QTest>

using namespace cs;

namespace {
// Two transfers over one link of 10 bytes/s: alone one gets all of it, together half each.
// (Only the schedule's arithmetic is under test here; the fabric's own answer is tested
// in tst_fabric_share.)
struct OneLink final : ShareModel {
    void rates(std::span<const int> active, std::vector<double>& rate) override {
        rate.assign(active.size(), 10.0 / double(active.size()));
    }
};
} // namespace

class TestStepSchedule : public QObject {
    Q_OBJECT
private slots:
    void transfersReshareAtEveryStartAndFinish();
    void shardedWeightsGatherEachLayerBeforeEachPass_data();
    void shardedWeightsGatherEachLayerBeforeEachPass();
    void replicatedWeightsReduceInBuckets();
    void dualPipeLeavesTheBubbleOfItsFormula_data();
    void dualPipeLeavesTheBubbleOfItsFormula();
};

namespace {
// One stage of `layers` layers, each pass 1 s of compute per layer.
ScheduleInput oneStage(int layers, int micro, ShareModel& share) {
    ScheduleInput in;
    in.stages = 1, in.chunks = 1, in.microBatches = micro;
    in.forwardS = in.backwardS = {{0.0}};
    in.layersPerChunk = {{layers}};
    in.forwardLayer = {LayerPhase{1.0}};
    in.backwardLayer = {LayerPhase{1.0}};
    in.share = &share;
    return in;
}
} // namespace

void TestStepSchedule::shardedWeightsGatherEachLayerBeforeEachPass_data() {
    QTest::addColumn<bool>("overlap");
    QTest::newRow("prefetching one layer ahead") << true;
    QTest::newRow("in order, exposed") << false;
}

void TestStepSchedule::shardedWeightsGatherEachLayerBeforeEachPass() {
    QFETCH(bool, overlap);
    OneLink link;
    const int layers = 3, micro = 2;
    ScheduleInput in = oneStage(layers, micro, link);
    in.weightsSharded = true;
    in.gatherBytes = {15}; // 5 bytes a layer: 0.5 s alone on the link
    in.reduceBytes = {3};
    in.overlapGather = in.overlapReduce = overlap;
    const ScheduleResult r = runSchedule(in);
    // One gather per layer before each forward and again before each backward of every
    // micro-batch, and one reduction per layer after each backward.
    using Kind = TransferRecord::Kind;
    int gathers = 0, reductions = 0;
    for (const TransferRecord& t : r.transfers) {
        gathers += t.kind == Kind::Gather;
        reductions += t.kind == Kind::Reduce;
    }
    QCOMPARE(gathers, 2 * micro * layers);
    QCOMPARE(reductions, micro * layers);
    // The passes' layers in the order they ran; each starts after its own gather.
    QCOMPARE(r.passes[0].size(), size_t(2 * micro));
    QCOMPARE(r.layers[0].size(), size_t(2 * micro * layers));
    size_t k = 0;
    for (const PassRecord& pass : r.passes[0])
        for (int l = 0; l < layers; ++l, ++k) {
            const int layer = pass.forward ? l : layers - 1 - l;
            int found = 0;
            for (const TransferRecord& t : r.transfers) {
                if (t.kind != Kind::Gather || t.forward != pass.forward || t.micro != pass.micro ||
                    t.layer != layer)
                    continue;
                ++found;
                QVERIFY(t.toS <= r.layers[0][k].fromS + 1e-9);
                // Without overlap the gather is asked for only once the layer is due: the
                // layer waits for it, after the previous layer.
                if (!overlap && k > 0) QVERIFY(t.fromS >= r.layers[0][k - 1].toS - 1e-9);
            }
            QCOMPARE(found, 1);
        }
    // With overlap the next layer's gather runs beside this layer's compute: only the first
    // gather is exposed. Without, every gather and reduction adds to the step.
    const double computeS = 2.0 * micro * layers;
    if (overlap)
        QVERIFY2(r.stepS < computeS + 1.0, qPrintable(QString::number(r.stepS)));
    else
        QVERIFY2(r.stepS >= computeS + 2 * micro * layers * 0.5 + micro * layers * 0.1 - 1e-9,
                 qPrintable(QString::number(r.stepS)));
}

void TestStepSchedule::replicatedWeightsReduceInBuckets() {
    OneLink link;
    const int layers = 5;
    ScheduleInput in = oneStage(layers, 2, link);
    in.bucketLayers = 2;
    in.gatherBytes = {5};
    in.reduceBytes = {5};
    const ScheduleResult r = runSchedule(in);
    // Buckets of two layers from the top of the backward: layers 3-4, 1-2, then 0 alone;
    // each goes as soon as the last backward has finished its layers, not before.
    using Kind = TransferRecord::Kind;
    std::vector<TransferRecord> reductions, gathers;
    for (const TransferRecord& t : r.transfers)
        (t.kind == Kind::Reduce ? reductions : gathers).push_back(t);
    QCOMPARE(reductions.size(), size_t(3));
    QCOMPARE(reductions[0].layer, 3);
    QCOMPARE(reductions[0].layerCount, 2);
    QCOMPARE(reductions[1].layer, 1);
    QCOMPARE(reductions[2].layer, 0);
    QCOMPARE(reductions[2].layerCount, 1);
    const auto& lastBackward = r.layers[0]; // the last five intervals: layers 4 .. 0
    const size_t n = lastBackward.size();
    QVERIFY(reductions[0].fromS >= lastBackward[n - 4].toS - 1e-9);
    QVERIFY(reductions[0].fromS < lastBackward[n - 3].toS);
    QVERIFY(reductions[2].fromS >= lastBackward[n - 1].toS - 1e-9);
    // Gathers in the same buckets, in forward order, before the first forward.
    QCOMPARE(gathers.size(), size_t(3));
    QCOMPARE(gathers[0].layer, 0);
    QCOMPARE(gathers[0].layerCount, 2);
    QCOMPARE(gathers[2].layer, 4);
    QVERIFY(gathers[0].toS <= r.layers[0][0].fromS + 1e-9);
    QVERIFY(gathers[2].toS <= r.layers[0][4].fromS + 1e-9);
}

void TestStepSchedule::transfersReshareAtEveryStartAndFinish() {
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

QTEST_APPLESS_MAIN(TestStepSchedule)
#include "tst_step_schedule.moc"

void TestStepSchedule::dualPipeLeavesTheBubbleOfItsFormula_data() {
    QTest::addColumn<int>("stages");
    QTest::addColumn<int>("micro");
    QTest::addColumn<double>("inputGrad"); // per forward of 1 s
    QTest::addColumn<double>("weight");
    for (auto [p, m] : {std::pair{4, 8}, {4, 20}, {8, 16}, {8, 40}, {16, 32}}) {
        QTest::addRow("%d stages, %d micro-batches, B = W = F", p, m) << p << m << 1.0 << 1.0;
        QTest::addRow("%d stages, %d micro-batches, B 1.5 F, W 0.75 F", p, m)
            << p << m << 1.5 << 0.75;
    }
}

// DualPipe's bubble on stages of equal layers with nothing to send (DeepSeek-V3 technical
// report, Table 2): (p/2 - 1)(F&B + B - 3W), with B a whole backward, W its weight
// gradient and F&B a forward and a backward run as a pair; 1F1B's is (p - 1)(F + B). The
// formula is exact where input gradient, weight gradient and forward take equally long (the
// zero-bubble papers' setting); elsewhere the bubble it takes off 1F1B's is within 10 %.
void TestStepSchedule::dualPipeLeavesTheBubbleOfItsFormula() {
    QFETCH(int, stages);
    QFETCH(int, micro);
    QFETCH(double, inputGrad);
    QFETCH(double, weight);
    const double f = 1.0, w = weight;
    ScheduleInput in;
    in.stages = stages, in.chunks = 2, in.microBatches = micro;
    in.dualPipe = true;
    in.forwardS = in.backwardS = std::vector<std::vector<double>>(size_t(stages), {0.0, 0.0});
    in.layersPerChunk = std::vector<std::vector<int>>(size_t(stages), {1, 1});
    in.forwardLayer = {LayerPhase{f}};
    in.backwardLayer = {LayerPhase{inputGrad}};
    in.weightLayer = {LayerPhase{w}};
    const ScheduleResult r = runSchedule(in);
    const double b = inputGrad + w, work = micro * (f + b);
    const double bubble = (stages / 2 - 1) * ((f + b) + b - 3 * w);
    for (int s = 0; s < stages; ++s) {
        double busy = 0;
        for (const Interval& x : r.busy[size_t(s)])
            busy += x.toS - x.fromS;
        QCOMPARE(busy, work);
    }
    const double dualBubble = r.stepS - work;
    // The breakdown calls every idle moment bubble: the sends held for a later pass's count
    // from when they left, not when their pass ended.
    const StepBreakdown parts = breakdownOfStep(r);
    for (int s = 0; s < stages; ++s) {
        QCOMPARE(parts.stages[size_t(s)][StepPart::Other], 0.0);
        QVERIFY(std::fabs(parts.stages[size_t(s)][StepPart::Bubble] - dualBubble) < 1e-9);
    }
    // Against 1F1B on the same stages.
    in.dualPipe = false;
    in.chunks = 1;
    in.forwardS = in.backwardS = std::vector<std::vector<double>>(size_t(stages), {0.0});
    in.layersPerChunk = std::vector<std::vector<int>>(size_t(stages), {1});
    in.backwardLayer = {LayerPhase{b}};
    in.weightLayer.clear();
    const double plainBubble = runSchedule(in).stepS - work;
    QCOMPARE(plainBubble, (stages - 1) * (f + b));
    qInfo("bubble 1F1B %.2f, DualPipe %.2f (formula %.2f): %.2f less, the formula's %.2f",
          plainBubble, dualBubble, bubble, plainBubble - dualBubble, plainBubble - bubble);
    QVERIFY(std::fabs((plainBubble - dualBubble) / (plainBubble - bubble) - 1) < 0.10);
    if (inputGrad == f && w == f) QVERIFY(std::fabs(dualBubble - bubble) < 1e-9);
}
