// Interruptions (FailureModel): as many, and of the kinds, Llama 3's Table 5 reports.
#include "EngineTestSupport.h"
#include "FailureModel.h"

#include <QTest>

using namespace cs;
using namespace cs::test;

class TestFailureModel : public QObject {
    Q_OBJECT
private slots:
    void failuresFollowTable5();
};

void TestFailureModel::failuresFollowTable5() {
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

QTEST_APPLESS_MAIN(TestFailureModel)
#include "tst_failure_model.moc"
