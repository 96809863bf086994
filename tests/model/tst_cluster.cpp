// Many jobs on one cluster (model/cluster): the workload file, the scheduler's policies, the
// jobs sharing the fabric, failures that restart the jobs on them, and the generated mix.
#include "ClusterRunJson.h"
#include "ClusterRunRecorder.h"
#include "ClusterScheduler.h"
#include "ClusterSimulation.h"
#include "EngineTestSupport.h"
#include "LinkUse.h"
#include "Presets.h"
#include "RankPlacement.h"
#include "RunJobs.h"
#include "RunReader.h"
#include "SharedFabric.h"
#include "StepTimeDistribution.h"
#include "TrainingStepModel.h"
#include "Workload.h"
#include "WorkloadMix.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <set>

using namespace cs;

namespace {

Workload workload(const char* name) {
    return loadWorkload(QString(CS_SOURCE_DIR "/resources/workloads/") + name);
}

const ClusterJobResult& job(const ClusterRunResult& r, const std::string& name) {
    for (const ClusterJobResult& j : r.jobs)
        if (j.name == name) return j;
    qFatal("no job %s", name.c_str());
}

// The job's step alone on the hosts it got: the engine run directly.
double aloneOnItsHosts(const TopologyDocument& doc, const Workload& w, const ClusterJobResult& j,
                       const ClusterScheduler& s) {
    for (const WorkloadJob& spec : w.jobs) {
        if (spec.name != j.name) continue;
        const ModelSpec m = *modelOf(spec.run);
        ParallelConfig c = spec.run.parallel;
        c.gpuPool = std::make_shared<const std::vector<int32_t>>(s.gpusOf(j.hosts));
        return estimateStep(doc.topology(), doc.index(), m, *findGpu(spec.run.gpu), c).stepS;
    }
    return 0;
}

std::string errorOf(const QByteArray& text) {
    try {
        parseWorkload(text, "w.json");
    } catch (const InputException& e) {
        return e.error().toString();
    }
    return {};
}

} // namespace

class TestCluster : public QObject {
    Q_OBJECT
private slots:
    void sharedLinksLeaveTheFairShareAtLeast_data();
    void sharedLinksLeaveTheFairShareAtLeast();
    void twoLargeJobsOnAThinFabricMeetEventByEvent_data();
    void twoLargeJobsOnAThinFabricMeetEventByEvent();
    void fragmentedJobsSlowEachOtherAndTopologyAwareKeepsThemApart_data();
    void fragmentedJobsSlowEachOtherAndTopologyAwareKeepsThemApart();
    void aJobsStepsSpreadAsOthersComeAndGo();
    void aJobThatFitsOnlyAcrossPodsWaitsWhenThePolicySaysSo_data();
    void aJobThatFitsOnlyAcrossPodsWaitsWhenThePolicySaysSo();
    void aFailedSwitchRestartsTheJobOnItAndTheOthersGoOn();
    void aCutOffJobWaitsAndItsHostsTakeNoJobUntilTheRepair();
    void withoutBackfillTheFirstInLineHoldsTheRest();
    void aJobGivenADurationStepsThatLongAcrossARestart();
    void aFailedNicKeepsItsHostFromJobsUntilTheRepair();
    void drawnJobsTooLargeForTheClusterAreRefusedAndTheRestRun();
    void higherPriorityStartsFirstAndDurationsEndOnTime();
    void schedulerPoliciesPlaceAsTheySay();
    void theMixIsSeededAndWithinItsBounds();
    void badWorkloadsAreRefusedWithTheirPlace_data();
    void badWorkloadsAreRefusedWithTheirPlace();
    void jobsThatCannotRunOnTheClusterAreRefusedByName();
    void aStoredRunNamesTheJobsOnALink();
    void checkpointsWrittenTogetherShareTheStorage();
    void aRequeuedJobColoursItsHostsFromWhenItGotThem();
};

void TestCluster::sharedLinksLeaveTheFairShareAtLeast_data() {
    QTest::addColumn<double>("busyA"); // of the link, each job alone
    QTest::addColumn<double>("busyB");
    QTest::addColumn<double>("leftA");
    QTest::addColumn<double>("leftB");
    QTest::newRow("light") << 0.1 << 0.2 << 0.8 << 0.9;
    QTest::newRow("one busy") << 0.1 << 0.7 << 0.5 << 0.9;
    QTest::newRow("both busy") << 0.9 << 0.9 << 0.5 << 0.5;
}

void TestCluster::sharedLinksLeaveTheFairShareAtLeast() {
    QFETCH(double, busyA);
    QFETCH(double, busyB);
    QFETCH(double, leftA);
    QFETCH(double, leftB);
    // Two jobs with one-second steps on a link of 1 byte/s, and a link only A loads.
    const std::vector<double> capacity = {1.0, 1.0, 1.0};
    JobLinkLoad a, b;
    a.stepS = b.stepS = 1;
    a.bytesPerStep = {{0, float(busyA)}, {2, 0.5f}};
    b.bytesPerStep = {{0, float(busyB)}};
    const std::vector<const JobLinkLoad*> jobs = {&a, &b};
    const std::vector<CapacityLeft> left = capacityLeft(jobs, capacity);
    QCOMPARE(left.size(), size_t(2));
    QCOMPARE(left[0].fraction.size(), size_t(1)); // link 2 is A's alone
    QCOMPARE(left[0].fraction[0].first, 0);
    QVERIFY(qAbs(left[0].fraction[0].second - leftA) < 1e-6);
    QVERIFY(qAbs(left[1].fraction[0].second - leftB) < 1e-6);
    QCOMPARE(left[0].meetings.size(), size_t(1));
    QCOMPARE(left[0].meetings[0].jobs, std::vector<int>{1});
}

void TestCluster::twoLargeJobsOnAThinFabricMeetEventByEvent_data() {
    QTest::addColumn<int>("policy");
    QTest::newRow("fragmented") << int(SchedulerPolicy::Fragmented);
    QTest::newRow("topology-aware") << int(SchedulerPolicy::TopologyAware);
}

// Two Llama 3 405B jobs of 8,192 GPUs on meta-roce-24k thinned to 1:14 between pods. Scattered
// over every pod, their DP rings meet on the pod uplinks: simulated together, step by step, the
// bursts that fall together share the links and each job's step grows. Each on pods of its
// own, they meet nowhere and run exactly as alone.
void TestCluster::twoLargeJobsOnAThinFabricMeetEventByEvent() {
    QFETCH(int, policy);
    TopologyReadOptions o;
    o.sets = {"generator.clusters[0].oversubscription=14"};
    const auto doc = openTopology("meta-roce-24k", "", o);
    Workload w = workload("two-405b-jobs.json");
    w.scheduler = SchedulerPolicy(policy);
    const ClusterRunResult r = simulateCluster(*doc, w, 0);
    QCOMPARE(r.jobs.size(), size_t(2));
    for (const ClusterJobResult& j : r.jobs) {
        QCOMPARE(j.state, ClusterJobState::Done);
        if (w.scheduler == SchedulerPolicy::Fragmented) {
            QVERIFY2(j.slowdown() >= 1.02, qPrintable(QString::number(j.slowdown())));
            QVERIFY(!j.meetings.empty());
        } else {
            QCOMPARE(j.slowdown(), 1.0);
            QVERIFY(j.meetings.empty());
        }
    }
    if (w.scheduler == SchedulerPolicy::Fragmented) QVERIFY(r.jointRuns >= 1);
}

void TestCluster::fragmentedJobsSlowEachOtherAndTopologyAwareKeepsThemApart_data() {
    QTest::addColumn<int>("policy");
    QTest::newRow("fragmented") << int(SchedulerPolicy::Fragmented);
    QTest::newRow("topology-aware") << int(SchedulerPolicy::TopologyAware);
}

void TestCluster::fragmentedJobsSlowEachOtherAndTopologyAwareKeepsThemApart() {
    QFETCH(int, policy);
    // Two data-parallel-heavy jobs (one micro-batch per replica: the gradient reduction is
    // exposed, ranks scattered over their racks), half the cluster each, on a 1:7 fabric.
    const auto doc = test::smallWithOversubscription(7);
    Workload w = workload("two-dp-jobs.json");
    w.scheduler = SchedulerPolicy(policy);
    const ClusterRunResult r = simulateCluster(*doc, w, 0);
    ClusterScheduler s(doc->topology(), w.scheduler, w.podCrossing, w.seed);
    QCOMPARE(r.jobs.size(), size_t(2));
    for (const ClusterJobResult& j : r.jobs) {
        QCOMPARE(j.state, ClusterJobState::Done);
        QCOMPARE(j.steps, 1000.0);
        // "Alone" is the same job on the same hosts with the fabric its own.
        QCOMPARE(j.aloneStepS, aloneOnItsHosts(*doc, w, j, s));
        if (w.scheduler == SchedulerPolicy::Fragmented) {
            QCOMPARE(j.pods, 2);
            QVERIFY2(j.slowdown() > 1.1, qPrintable(QString::number(j.slowdown())));
            QVERIFY(!j.meetings.empty());
            QCOMPARE(j.meetings.front().jobs.size(), size_t(1));
            QVERIFY(j.meetings.front().jobs.front() != j.name);
        } else {
            QCOMPARE(j.pods, 1);
            QCOMPARE(j.slowdown(), 1.0);
            QVERIFY(j.meetings.empty());
        }
        QCOMPARE(j.endS, j.startS + 1000 * j.stepS);
    }
    // Each in a pod of its own under the topology-aware policy.
    if (w.scheduler == SchedulerPolicy::TopologyAware)
        QVERIFY(s.podOf(r.jobs[0].hosts.front()) != s.podOf(r.jobs[1].hosts.front()));
}

// The same two jobs, the second submitted once the first has taken 700 steps alone: each job's
// steps spread between its step alone and its step beside the other, in proportion to the steps
// it took at each, and their mean is its step as it ran.
void TestCluster::aJobsStepsSpreadAsOthersComeAndGo() {
    const auto doc = test::smallWithOversubscription(7);
    Workload w = workload("two-dp-jobs.json");
    const double aloneS = simulateCluster(*doc, w, 0).jobs.front().aloneStepS;
    w.jobs[1].submitS = 700 * aloneS;
    const ClusterRunResult r = simulateCluster(*doc, w, 0);
    for (const ClusterJobResult& j : r.jobs) {
        QCOMPARE(j.state, ClusterJobState::Done);
        const StepTimeDistribution d = distributionOfSteps(j.stepsAt);
        QCOMPARE(d.steps, 1000LL);
        QVERIFY(qAbs(d.meanS / j.stepS - 1) < 1e-9);
        // Most of its steps alone; the steps beside the other at the top.
        QCOMPARE(d.p50S, j.aloneStepS);
        QVERIFY2(d.maxS > 1.1 * j.aloneStepS, qPrintable(QString::number(d.maxS / j.aloneStepS)));
        QCOMPARE(d.p99S, d.maxS);
    }
    // Printed as the job's stepTimeDistribution.
    for (const QJsonValue& v : clusterRunJson(r, doc->topology()).value("jobs").toArray()) {
        const QJsonObject o = v.toObject();
        const StepTimeDistribution d =
            distributionOfSteps(job(r, o.value("name").toString().toStdString()).stepsAt);
        const QJsonObject spread = o.value("stepTimeDistribution").toObject();
        QCOMPARE(spread.value("max").toDouble(), d.maxS);
        QCOMPARE(spread.value("p50").toDouble(), d.p50S);
    }
}

void TestCluster::aJobThatFitsOnlyAcrossPodsWaitsWhenThePolicySaysSo_data() {
    QTest::addColumn<int>("crossing");
    QTest::newRow("wait") << int(PodCrossing::Wait);
    QTest::newRow("allow") << int(PodCrossing::Allow);
}

void TestCluster::aJobThatFitsOnlyAcrossPodsWaitsWhenThePolicySaysSo() {
    QFETCH(int, crossing);
    // a and b take 96 of each pod's 128 GPUs; c (64) finds 32 free in each pod.
    const auto doc = openTopology("small-256", {});
    Workload w = workload("pod-crossing.json");
    w.podCrossing = PodCrossing(crossing);
    const ClusterRunResult r = simulateCluster(*doc, w, 0);
    const ClusterJobResult &a = job(r, "a"), &b = job(r, "b"), &c = job(r, "c");
    QCOMPARE(a.pods, 1);
    QCOMPARE(b.pods, 1);
    QVERIFY(a.hosts.front() / 16 != b.hosts.front() / 16); // small-256: 16 hosts per pod
    if (w.podCrossing == PodCrossing::Wait) {
        QCOMPARE(c.startS, a.endS); // the first pod with room
        QVERIFY(c.waitS > 0);
        QCOMPARE(c.waitS, c.startS - c.submitS);
        QCOMPARE(c.pods, 1);
        // While it waited, 64 GPUs stood idle.
        bool idleSeen = false;
        for (const FragmentationSample& f : r.fragmentation)
            if (f.atS >= c.submitS && f.atS < c.startS) {
                QCOMPARE(f.idleWhileWaiting, 64LL);
                QCOMPARE(f.largestFreeBlock, 32LL);
                idleSeen = true;
            }
        QVERIFY(idleSeen);
    } else {
        QCOMPARE(c.startS, c.submitS);
        QCOMPARE(c.waitS, 0.0);
        QCOMPARE(c.pods, 2);
    }
}

void TestCluster::aFailedSwitchRestartsTheJobOnItAndTheOthersGoOn() {
    // A cluster switch of pod 0 fails at 600 s: a (pod 0) restarts from its last checkpoint
    // (none yet at a 15-minute interval) after detection and restart; b (pod 1) goes on.
    const auto doc = openTopology("small-256", {});
    const Workload w = workload("switch-failure.json");
    const ClusterRunResult r = simulateCluster(*doc, w, 0);
    const ClusterJobResult &a = job(r, "a"), &b = job(r, "b");
    QCOMPARE(b.restarts, 0);
    QCOMPARE(b.endS, 5000 * b.aloneStepS);
    QCOMPARE(a.restarts, 1);
    QCOMPARE(a.steps, 5000.0);
    QVERIFY(qAbs(a.lostSteps - 600 / a.stepTimeline.front().second) < 1e-6);
    const FailureParams& p = w.jobs[0].run.failureTimes;
    QVERIFY(qAbs(a.endS - (600 + p.detectionS + p.restartS + 5000 * a.aloneStepS)) < 1e-6);
    QCOMPARE(a.state, ClusterJobState::Done);
    QCOMPARE(b.state, ClusterJobState::Done);
}

void TestCluster::aCutOffJobWaitsAndItsHostsTakeNoJobUntilTheRepair() {
    // A rack switch fails: its rack's hosts are cut off. Job a (on them) goes back to the
    // queue, starts in pod 1 when b ends there, and never on the cut-off rack.
    const auto doc = openTopology("small-256", {});
    Workload w = workload("switch-failure.json");
    w.failures.front().part = "demo.pod0.rack1.rtsw";
    const ClusterRunResult r = simulateCluster(*doc, w, 0);
    const ClusterJobResult &a = job(r, "a"), &b = job(r, "b");
    QCOMPARE(a.restarts, 1);
    QCOMPARE(a.state, ClusterJobState::Done);
    for (int32_t h : a.hosts) // pod 1 now
        QVERIFY(h >= 16);
    QVERIFY(a.endS > b.endS);
    for (const FragmentationSample& f : r.fragmentation)
        if (f.atS >= 600 && f.atS < 600 + w.failures.front().repairS)
            QCOMPARE(f.freeGpusPerPod.front() % 128 != 0, true); // rack 1 (16 GPUs) is down
}

void TestCluster::withoutBackfillTheFirstInLineHoldsTheRest() {
    // c (64 GPUs, waiting for a pod) is first in line: d (8 GPUs), submitted after it, starts
    // at once with backfill and only after c without.
    const auto doc = openTopology("small-256", {});
    for (bool backfill : {true, false}) {
        Workload w = workload("pod-crossing.json");
        w.backfill = backfill;
        WorkloadJob d = w.jobs.back();
        d.name = "d";
        d.submitS = 20;
        d.run.parallel.dp = 1;
        d.run.parallel.batchSeqs = 4;
        w.jobs.push_back(d);
        const ClusterRunResult r = simulateCluster(*doc, w, 0);
        if (backfill)
            QCOMPARE(job(r, "d").startS, 20.0);
        else
            QCOMPARE(job(r, "d").startS, job(r, "c").startS);
    }
}

void TestCluster::aJobGivenADurationStepsThatLongAcrossARestart() {
    // a (700 s of stepping) is cut off at 600 s by its rack switch, waits for b's pod, and
    // steps its last 100 s after its restart time: time never runs backwards.
    const auto doc = openTopology("small-256", {});
    Workload w = workload("switch-failure.json");
    w.failures.front().part = "demo.pod0.rack1.rtsw";
    w.jobs[0].run.steps = 0;
    w.jobs[0].durationS = 700;
    const ClusterRunResult r = simulateCluster(*doc, w, 0);
    const ClusterJobResult &a = job(r, "a"), &b = job(r, "b");
    const FailureParams& p = w.jobs[0].run.failureTimes;
    QVERIFY(b.endS < 600 + p.detectionS + p.restartS);
    QVERIFY(qAbs(a.endS - (600 + p.detectionS + p.restartS + 100)) < 1e-6);
    QVERIFY(qAbs(a.runS - 700) < 1e-6);
    QCOMPARE(a.state, ClusterJobState::Done);
    for (size_t k = 1; k < r.fragmentation.size(); ++k)
        QVERIFY(r.fragmentation[k].atS >= r.fragmentation[k - 1].atS);
}

void TestCluster::aFailedNicKeepsItsHostFromJobsUntilTheRepair() {
    // Host 0's first NIC fails before two one-host jobs arrive: first fit skips host 0 (its GPU
    // 0 cannot reach the fabric) and neither job is refused.
    const auto doc = openTopology("small-256", {});
    Workload w = workload("switch-failure.json");
    w.scheduler = SchedulerPolicy::FirstFit;
    w.failures.front() = {0, "demo.pod0.rack0.host0.be0", 3600, 0};
    for (WorkloadJob& j : w.jobs) {
        j.submitS = 1;
        j.run.steps = 10;
        j.run.parallel.dp = 1;
        j.run.parallel.batchSeqs = 4;
    }
    const ClusterRunResult r = simulateCluster(*doc, w, 0);
    for (const ClusterJobResult& j : r.jobs) {
        QCOMPARE(j.state, ClusterJobState::Done);
        QCOMPARE(j.hosts.size(), size_t(1));
        QVERIFY(j.hosts.front() != 0);
    }
    QCOMPARE(r.fragmentation.front().freeGpus, 256LL - 8);
}

void TestCluster::drawnJobsTooLargeForTheClusterAreRefusedAndTheRestRun() {
    const auto doc = openTopology("small-256", {});
    Workload w;
    WorkloadMix mix;
    mix.jobs = 20;
    mix.sizes = {{64, 1}, {512, 1}};
    w.jobs = generateJobs(mix);
    const ClusterRunResult r = simulateCluster(*doc, w, 0);
    int refused = 0;
    for (const ClusterJobResult& j : r.jobs)
        if (j.gpus == 512) {
            QCOMPARE(j.state, ClusterJobState::Refused);
            QVERIFY(j.error.find("needs 512 GPUs") != std::string::npos);
            QVERIFY(j.hosts.empty());
            QCOMPARE(j.waitS, 0.0);
            ++refused;
        } else {
            QCOMPARE(j.state, ClusterJobState::Done);
        }
    QVERIFY(refused > 0 && refused < 20);
}

void TestCluster::higherPriorityStartsFirstAndDurationsEndOnTime() {
    // a holds the whole cluster; b and c (the whole cluster each) wait for it, and c, submitted
    // later with a higher priority, goes first. b runs for a set time.
    const auto doc = openTopology("small-256", {});
    Workload w = workload("pod-crossing.json");
    w.jobs.resize(3);
    for (WorkloadJob& j : w.jobs) {
        j.run.parallel.dp = 32;
        j.run.parallel.batchSeqs = 32;
        j.run.steps = 100;
    }
    w.jobs[1].submitS = 1;
    w.jobs[1].run.steps = 0;
    w.jobs[1].durationS = 600;
    w.jobs[2].submitS = 2;
    w.jobs[2].priority = 5;
    const ClusterRunResult r = simulateCluster(*doc, w, 0);
    const ClusterJobResult &a = job(r, "a"), &b = job(r, "b"), &c = job(r, "c");
    QCOMPARE(c.startS, a.endS);
    QCOMPARE(b.startS, c.endS);
    QCOMPARE(b.endS, b.startS + 600);
    QVERIFY(qAbs(b.steps - 600 / b.aloneStepS) < 1e-6);
    QCOMPARE(b.state, ClusterJobState::Done);
}

void TestCluster::schedulerPoliciesPlaceAsTheySay() {
    const auto doc = openTopology("small-256", {});
    const Topology& t = doc->topology();
    auto podsOf = [&](const ClusterScheduler& s, const std::vector<int32_t>& hosts) {
        std::set<int> pods;
        for (int32_t h : hosts)
            pods.insert(s.podOf(h));
        return pods.size();
    };
    // Topology-aware: 16 GPUs in one rack, the fullest rack with room.
    ClusterScheduler aware(t, SchedulerPolicy::TopologyAware, PodCrossing::Allow, 1);
    const auto first = aware.place(8, 0);
    QVERIFY(first && first->size() == 1);
    aware.take(*first);
    const auto second = aware.place(8, 1);
    QVERIFY(second && second->size() == 1);
    QCOMPARE(aware.rackOf(second->front()), aware.rackOf(first->front()));
    QCOMPARE(aware.freeGpus(), 248LL);
    // First fit: hosts in index order.
    ClusterScheduler firstFit(t, SchedulerPolicy::FirstFit, PodCrossing::Allow, 1);
    QCOMPARE(*firstFit.place(24, 0), (std::vector<int32_t>{0, 1, 2}));
    // Fragmented: 64 GPUs over both pods, different for another draw.
    ClusterScheduler scattered(t, SchedulerPolicy::Fragmented, PodCrossing::Allow, 1);
    const auto x = scattered.place(64, 0), y = scattered.place(64, 1);
    QVERIFY(x && y);
    QCOMPARE(x->size(), size_t(8));
    QCOMPARE(podsOf(scattered, *x), size_t(2));
    QVERIFY(*x != *y);
    // More than is free: nothing.
    scattered.take(*x);
    QVERIFY(!scattered.place(256 - 64 + 8, 2));
    long long takenInPod[2] = {0, 0};
    for (int32_t h : *x)
        takenInPod[scattered.podOf(h)] += 8;
    QCOMPARE(scattered.freeGpusPerPod(),
             (std::vector<long long>{128 - takenInPod[0], 128 - takenInPod[1]}));
    QCOMPARE(scattered.largestFreeBlock(), 128 - std::min(takenInPod[0], takenInPod[1]));
    // A host that is down is not free, and comes back when it is up.
    const int32_t idle = [&] {
        for (int32_t h = 0; h < 32; ++h)
            if (std::find(x->begin(), x->end(), h) == x->end()) return h;
        return -1;
    }();
    std::vector<uint8_t> down(t.hosts.size(), 0);
    down[size_t(idle)] = 1;
    scattered.setDown(down);
    QCOMPARE(scattered.freeGpus(), 256LL - 64 - 8);
    scattered.setDown({});
    QCOMPARE(scattered.freeGpus(), 256LL - 64);
}

void TestCluster::theMixIsSeededAndWithinItsBounds() {
    WorkloadMix mix;
    mix.jobs = 200;
    mix.seed = 7;
    const std::vector<WorkloadJob> a = generateJobs(mix), b = generateJobs(mix);
    QCOMPARE(a.size(), size_t(200));
    std::set<long long> sizes;
    for (size_t i = 0; i < a.size(); ++i) {
        QCOMPARE(a[i].submitS, b[i].submitS);
        QCOMPARE(a[i].durationS, b[i].durationS);
        QVERIFY(a[i].submitS >= 0 && a[i].submitS <= mix.arrivalSpanS);
        if (i > 0) QVERIFY(a[i].submitS >= a[i - 1].submitS);
        QVERIFY(a[i].durationS >= mix.minDurationS && a[i].durationS <= mix.maxDurationS);
        QCOMPARE(a[i].run.steps, 0);
        sizes.insert(a[i].run.parallel.gpus());
        // Each size is one the mix lists, with a configuration the engine accepts.
        const ModelSpec m = *modelOf(a[i].run);
        checkTrainingConfig(m, *findGpu(a[i].run.gpu), withResolvedDefaults(m, a[i].run.parallel));
    }
    for (long long n : sizes)
        QVERIFY(std::any_of(mix.sizes.begin(), mix.sizes.end(),
                            [&](const MixSize& s) { return s.gpus == n; }));
    QVERIFY(sizes.size() >= 5); // 200 draws over 7 sizes
    mix.seed = 8;
    QVERIFY(generateJobs(mix)[0].submitS != a[0].submitS);
    // The model a job of each size trains.
    QCOMPARE(mixJobRun(256).model, std::string("llama3-8b"));
    QCOMPARE(mixJobRun(2048).model, std::string("llama3-70b"));
    QCOMPARE(mixJobRun(4096).model, std::string("llama3-405b"));
    QCOMPARE(mixJobRun(4096).parallel.pp, 16);
}

void TestCluster::badWorkloadsAreRefusedWithTheirPlace_data() {
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("expected");
    const QByteArray head = R"({"format": "clusterscope-workload", "version": 1, )";
    const QByteArray run =
        R"("run": {"model": "llama3-8b", "parallel": {"tp": 8, "pp": 1, "dp": 1}})";
    QTest::newRow("not a workload") << QByteArray(R"({"format": "clusterscope-run"})")
                                    << "w.json:1:12: format: expected \"clusterscope-workload\"";
    QTest::newRow("no jobs") << head + "\"seed\": 1}"
                             << "jobs: expected \"jobs\"";
    QTest::newRow("bad scheduler")
        << head + "\"scheduler\": \"best\", \"jobs\": []}"
        << "scheduler: expected topology-aware, first-fit or fragmented, got \"best\"";
    QTest::newRow("steps and duration")
        << head + "\"jobs\": [{\"name\": \"a\", " + run + ", \"steps\": 1, \"durationS\": 5}]}"
        << "jobs[0].steps: expected either \"steps\" or \"durationS\", not both";
    QTest::newRow("neither steps nor duration")
        << head + "\"jobs\": [{\"name\": \"a\", " + run + "}]}"
        << "jobs[0].steps: expected either \"steps\" or \"durationS\", got neither";
    QTest::newRow("same name twice")
        << head + "\"jobs\": [{\"name\": \"a\", " + run + ", \"steps\": 1},\n{\"name\": \"a\", " +
               run + ", \"steps\": 1}]}"
        << "w.json:2:10: jobs[1].name: expected a name no other job has";
    QTest::newRow("steps inside the run")
        << head + "\"jobs\": [{\"name\": \"a\", \"run\": {\"steps\": 4}, \"steps\": 1}]}"
        << "jobs[0].run.steps: expected no \"steps\" in a job's run";
    QTest::newRow("bad run field")
        << head +
               "\"jobs\": [{\"name\": \"a\", \"run\": {\"parallel\": {\"tp\": 0}}, \"steps\": 1}]}"
        << "jobs[0].run.parallel.tp: expected an integer from 1 to 1024";
    QTest::newRow("unknown job field")
        << head + "\"jobs\": [{\"name\": \"a\", " + run + ", \"steps\": 1, \"gpus\": 8}]}"
        << "jobs[0].gpus:";
    QTest::newRow("negative submit")
        << head + "\"jobs\": [{\"name\": \"a\", " + run + ", \"steps\": 1, \"submitS\": -1}]}"
        << "jobs[0].submitS: expected";
    QTest::newRow("mix size not whole hosts") << head + "\"mix\": {\"sizes\": [{\"gpus\": 12}]}}"
                                              << "mix.sizes[0].gpus: expected a multiple of 8";
    QTest::newRow("mix durations reversed")
        << head + "\"mix\": {\"minDurationS\": 10, \"maxDurationS\": 5}}"
        << "mix.maxDurationS: expected at least minDurationS";
    QTest::newRow("a listed name the mix gives")
        << head + "\"jobs\": [{\"name\": \"mix-1\", " + run +
               ", \"steps\": 1}], \"mix\": {\"jobs\": 2}}"
        << "jobs[0].name: expected a name no job of the mix has";
    QTest::newRow("failure without a time")
        << head + "\"jobs\": [], \"failures\": [{\"part\": \"x\"}]}"
        << "failures[0].atS:";
}

void TestCluster::badWorkloadsAreRefusedWithTheirPlace() {
    QFETCH(QByteArray, text);
    QFETCH(QString, expected);
    const std::string error = errorOf(text);
    QVERIFY2(QString::fromStdString(error).contains(expected), error.c_str());
}

void TestCluster::jobsThatCannotRunOnTheClusterAreRefusedByName() {
    const auto doc = openTopology("small-256", {});
    auto errorRunning = [&](const Workload& w) -> std::string {
        try {
            simulateCluster(*doc, w, 0);
        } catch (const InputException& e) {
            return e.error().toString();
        }
        return {};
    };
    Workload tooBig = workload("pod-crossing.json");
    tooBig.jobs[1].run.parallel.dp = 64;
    tooBig.jobs[1].run.parallel.batchSeqs = 64;
    QVERIFY(QString::fromStdString(errorRunning(tooBig))
                .contains("jobs[1].run.parallel.dp: job \"b\" needs 512 GPUs"));
    Workload badConfig = workload("pod-crossing.json");
    badConfig.jobs[2].run.parallel.batchSeqs = 3; // not a multiple of DP 8
    QVERIFY(QString::fromStdString(errorRunning(badConfig)).contains("jobs[2].run."));
    Workload noSuchPart = workload("switch-failure.json");
    noSuchPart.failures[0].part = "demo.pod9.ctsw0";
    QVERIFY(QString::fromStdString(errorRunning(noSuchPart)).contains("failures[0].part"));
}

void TestCluster::aStoredRunNamesTheJobsOnALink() {
    // Two jobs scattered over both pods meet on links: stored, the link they meet on most lists
    // both jobs among what crosses it, as the inspector shows a selected link.
    const auto doc = openTopology("small-256", {});
    const Workload w = workload("two-dp-jobs.json");
    ClusterRunRecorder recorder(doc->topology(), "cluster");
    const ClusterRunResult r =
        simulateCluster(*doc, w, 0, {}, [&](double atS, const std::vector<ClusterFrameJob>& on) {
            recorder.frame(atS, on);
        });
    QTemporaryDir dir;
    {
        RunStore store = RunStore::openForWriting(dir.filePath("c.sqlite"));
        recorder.write(store, r);
    }
    QVERIFY(!r.jobs[0].meetings.empty());
    const int32_t link = r.jobs[0].meetings.front().link;
    RunReader reader(dir.filePath("c.sqlite"), doc->topology());
    const auto use = reader.linkUse(link, int64_t(1e9));
    QVERIFY(use.has_value());
    const QJsonObject summary =
        QJsonDocument::fromJson(QByteArray::fromStdString(reader.info().summaryJson)).object();
    std::set<std::string> named;
    for (const auto& [label, value] : linkUseLines(*use, summary))
        named.insert(label);
    QVERIFY2(named.count("job a") && named.count("job b"),
             qPrintable(QString::number(named.size())));
    // Selected in the Jobs dock, job a lights up the link where it met b most.
    const std::vector<RunJob> listed = runJobsOf(summary, doc->topology(), doc->index());
    QCOMPARE(listed.size(), size_t(2));
    const std::vector<Endpoint> lit = jobEntities(listed[0], doc->topology());
    QVERIFY(std::count(lit.begin(), lit.end(), Endpoint{EntityKind::Link, link}) == 1);
    QCOMPARE(jobGpus(listed[0], doc->topology()).size(), size_t(r.jobs[0].gpus));
    // Its traffic sources, and their traffic over the tiers while it runs.
    QVERIFY(!listed[0].trafficSources.empty());
    const Series aBps = reader.sourcesHistory(listed[0].trafficSources, 0, int64_t(2e9), 100);
    QVERIFY(!aBps.value.empty() && aBps.value.front() > 0);
    // Its hosts, outlined one by one or by their racks, are the hosts it ran on.
    std::set<int32_t> covered;
    for (const Endpoint& e : lit) {
        if (e.kind == EntityKind::Host) covered.insert(e.index);
        if (e.kind == EntityKind::Rack)
            for (int32_t h = 0; h < int32_t(doc->topology().hosts.size()); ++h)
                if (doc->topology().hosts[size_t(h)].rack == e.index &&
                    doc->topology().hosts[size_t(h)].gpuCount > 0)
                    covered.insert(h);
    }
    QCOMPARE(covered, std::set<int32_t>(r.jobs[0].hosts.begin(), r.jobs[0].hosts.end()));
    // Its traffic in the frame: the two jobs' bytes per step over their steps.
    const std::vector<float> frame = reader.frame(Metric::LinkBytesPerS, int64_t(1e9));
    QVERIFY(frame[size_t(link)] > 0);
    // The storage servers take the jobs' checkpoints, on average over their interval: some,
    // and less than the storage system writes at most.
    const std::vector<float> storage = reader.frame(Metric::StorageBytesPerS, int64_t(1e9));
    double storageBps = 0;
    for (float v : storage)
        storageBps += std::isfinite(v) ? v : 0;
    QVERIFY(storageBps > 0);
    QVERIFY(storageBps < StorageFabric{}.sustainedBytesPerS);
    // The network chart's tiers: traffic from the NICs up and between the pods (the jobs are
    // scattered over both).
    const std::vector<float> tiers = reader.frame(Metric::TierBytesPerS, int64_t(1e9));
    QCOMPARE(tiers.size(), size_t(kTierCount));
    QVERIFY(tiers[0] > 0);
    QVERIFY(tiers[2] > 0);
}

void TestCluster::checkpointsWrittenTogetherShareTheStorage() {
    // Two 2,048-GPU Llama 3 70B jobs checkpoint every minute. Alone, each writes at the storage
    // system's sustained rate (its 256 hosts' frontend NICs carry more). Started together,
    // their checkpoints fall together and each writes at half that rate; b started half an
    // interval later never writes with a, and both write as fast as alone.
    const auto doc = openTopology("meta-roce-24k", {});
    Workload w = workload("two-dp-jobs.json");
    w.scheduler = SchedulerPolicy::TopologyAware;
    for (WorkloadJob& j : w.jobs) {
        j.run.model = "llama3-70b";
        j.run.parallel = ParallelConfig{};
        j.run.parallel.tp = 8;
        j.run.parallel.pp = 4;
        j.run.parallel.dp = 64;
        j.run.parallel.batchSeqs = 256;
        j.run.steps = 0;
        j.durationS = 1800;
        j.run.checkpointIntervalS = 60;
    }
    const double bytes = 16.0 * modelOf(w.jobs[0].run)->parameters();
    const double sustained = StorageFabric{}.sustainedBytesPerS;
    const ClusterRunResult together = simulateCluster(*doc, w, 0);
    w.jobs[1].submitS = 30;
    const ClusterRunResult apart = simulateCluster(*doc, w, 0);
    for (const char* name : {"a", "b"}) {
        const ClusterJobResult &t = job(together, name), &p = job(apart, name);
        QVERIFY(qAbs(t.aloneCheckpointS / (bytes / sustained) - 1) < 0.01);
        // Whole cycles of a minute's stepping and a shared write in the 30 minutes.
        const int cycles = int(1800 / (60 + bytes / (sustained / 2)));
        QCOMPARE(t.checkpoints, cycles);
        QCOMPARE(t.checkpointsShared, t.checkpoints);
        QVERIFY2(qAbs(t.checkpointS() / (bytes / (sustained / 2)) - 1) < 1e-6,
                 qPrintable(QString::number(t.checkpointS())));
        QCOMPARE(t.checkpointMet, std::vector<std::string>{name == std::string("a") ? "b" : "a"});
        QVERIFY(p.checkpoints >= t.checkpoints);
        QCOMPARE(p.checkpointsShared, 0);
        QVERIFY(qAbs(p.checkpointS() / p.aloneCheckpointS - 1) < 1e-9);
        QVERIFY(p.checkpointMet.empty());
    }
    // Each job steps while it would wait for the storage together: a steps more apart.
    QVERIFY(job(apart, "a").steps > job(together, "a").steps + 5);
}

void TestCluster::aRequeuedJobColoursItsHostsFromWhenItGotThem() {
    // A job started at 0 s, requeued, and on host 3 from 100 s to its end at 200 s: its colour
    // is on host 3's GPUs only while it holds them.
    const auto doc = openTopology("small-256", {});
    RunJob j;
    j.name = "a";
    j.hosts = {3};
    j.startS = 0;
    j.hostsFromS = 100;
    j.endS = 200;
    const int32_t gpu = doc->topology().hosts[3].firstGpu;
    QVERIFY(std::isnan(jobFractionsAt({j}, doc->topology(), 50)[size_t(gpu)]));
    QCOMPARE(jobFractionsAt({j}, doc->topology(), 150)[size_t(gpu)], float(jobColourFraction(0)));
    QVERIFY(std::isnan(jobFractionsAt({j}, doc->topology(), 250)[size_t(gpu)]));
}

QTEST_GUILESS_MAIN(TestCluster)
#include "tst_cluster.moc"
