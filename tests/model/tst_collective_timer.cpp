// Context parallelism's collectives, timed on the fabric (CollectiveTimer): exposed in longer
// sequences, and their traffic on the links while the layers compute.
#include "EngineTestSupport.h"
#include "RunReader.h"

#include <QTemporaryDir>
#include <QTest>

using namespace cs;
using namespace cs::test;

class TestCollectiveTimer : public QObject {
    Q_OBJECT
private slots:
    void longerSequencesLowerUtilisation();
    void contextParallelTrafficShowsDuringCompute();
};

void TestCollectiveTimer::longerSequencesLowerUtilisation() {
    const StepEstimate shortSeq = step(roce(), "llama3-405b", config(8, 1, 16, 64, 8192));
    const StepEstimate longSeq = step(roce(), "llama3-405b", config(8, 4, 16, 16, 32768));
    QVERIFY(longSeq.mfu < shortSeq.mfu); // attention grows and runs at lower efficiency
    QVERIFY(longSeq.breakdown.slowest()[StepPart::ExposedCp] > 0);
}

void TestCollectiveTimer::contextParallelTrafficShowsDuringCompute() {
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
    QVERIFY(r.step.breakdown.slowest()[StepPart::ExposedCp] > 0);
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

QTEST_APPLESS_MAIN(TestCollectiveTimer)
#include "tst_collective_timer.moc"
