// The step's event schedule (StepSchedule): transfers re-share the fabric at every start and
// finish, and passes wait for what they depend on.
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
};

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
