// Parts of the fabric down or slowed (FabricFaults): routes go around a failed uplink and the
// job slows; a GPU cut off is refused by name with the missing link; degraded capacity slows;
// the run file's "fabric" object reads, writes back and locates its errors; in a span a failed
// cable or switch degrades training until its repair; a design (parameters) file's faults
// read, write back and hold for every run on it.
#include "EngineTestSupport.h"
#include "FabricFaults.h"
#include "Presets.h"
#include "RunReader.h"
#include "RunSpecJson.h"
#include "SimulationRun.h"
#include "TopologyFile.h"
#include "TopologyIndex.h"

#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <optional>

using namespace cs;
using namespace cs::test;

class TestFabricFaults : public QObject {
    Q_OBJECT
private slots:
    void failedUplinkReroutesAndSlowsFragmentedJob();
    void replayShowsTheFailedLinks();
    void unreachableGpuIsRefusedByName();
    void degradedUplinksSlowTheJob();
    void unknownPartsAreRefused_data();
    void unknownPartsAreRefused();
    void runFileFabricRoundTrips();
    void runFileFabricErrorsAreLocated_data();
    void runFileFabricErrorsAreLocated();
    void spanFailuresDegradeUntilRepair();
    void replayKeepsPartsDownUntilRepaired();
    void designFileFaultsRouteEveryRun();
    void designFileFaultErrorsNameTheFile();
    void designAndRunFaultsMerge();
};

namespace {

// A job whose DP rings cross the pods and whose DP traffic is exposed: rack placement
// scattered, so a rack switch's uplinks carry its hosts' rings.
RunSpec fragmentedJob() {
    RunSpec s;
    s.model = "llama3-8b";
    s.parallel = config(8, 1, 1, 16, 8192);
    s.parallel.virtualStages = 1;
    s.parallel.placement = Placement::Fragmented;
    s.parallel.zeroStage = 3;
    s.parallel.batchTokens = 16.0 * 8192;
    s.parallel.overlap.dpGradReduce = s.parallel.overlap.dpParamGather = false;
    s.steps = 1;
    return s;
}

bool isBackendSwitch(const Topology& t, Endpoint e) {
    return e.kind == EntityKind::Switch &&
           networkOf(t.switches[size_t(e.index)].role) == Network::Backend;
}

// The backend link of a GPU's NIC, and the rack switch at its other end.
std::pair<int32_t, int32_t> nicLinkOf(const Topology& t, int32_t gpu) {
    for (size_t n = 0; n < t.nics.size(); ++n) {
        if (t.nics[n].gpu != gpu || t.nics[n].role != NicRole::Backend) continue;
        for (size_t l = 0; l < t.links.size(); ++l) {
            const Link& k = t.links[l];
            const Endpoint nic{EntityKind::Nic, int32_t(n)};
            if (k.a == nic && isBackendSwitch(t, k.b)) return {int32_t(l), k.b.index};
            if (k.b == nic && isBackendSwitch(t, k.a)) return {int32_t(l), k.a.index};
        }
    }
    return {-1, -1};
}

// A switch's links to other backend switches.
std::vector<int32_t> uplinksOf(const Topology& t, int32_t sw) {
    std::vector<int32_t> out;
    const Endpoint me{EntityKind::Switch, sw};
    for (size_t l = 0; l < t.links.size(); ++l) {
        const Link& k = t.links[l];
        if ((k.a == me && isBackendSwitch(t, k.b)) || (k.b == me && isBackendSwitch(t, k.a)))
            out.push_back(int32_t(l));
    }
    return out;
}

double bytesOn(const StepEstimate& e, int32_t link) {
    return e.linkBytesPerStep[2 * size_t(link)] + e.linkBytesPerStep[2 * size_t(link) + 1];
}

} // namespace

void TestFabricFaults::failedUplinkReroutesAndSlowsFragmentedJob() {
    const auto doc = openTopology("small-256", {});
    const Topology& t = doc->topology();
    RunSpec s = fragmentedJob();
    const RunResult healthy = simulateRun(*doc, s, nullptr);
    const int32_t leaf = nicLinkOf(t, healthy.step.gpuOfRank[0]).second;
    const std::vector<int32_t> up = uplinksOf(t, leaf);
    QVERIFY(up.size() >= 2);
    // Half of the rack switch's uplinks fail.
    for (size_t i = 0; i < up.size() / 2; ++i)
        s.fabric.failed.push_back(t.nameOf({EntityKind::Link, up[i]}));
    const RunResult faulty = simulateRun(*doc, s, nullptr);
    // Nothing crosses a failed uplink; the ones left carry what they carried.
    double before = 0, after = 0;
    for (size_t i = 0; i < up.size(); ++i) {
        before += bytesOn(healthy.step, up[i]);
        if (i < up.size() / 2)
            QCOMPARE(bytesOn(faulty.step, up[i]), 0.0);
        else
            after += bytesOn(faulty.step, up[i]);
    }
    QVERIFY(before > 0);
    QVERIFY2(std::fabs(after / before - 1) < 0.01,
             qPrintable(QString("%1 bytes before, %2 after").arg(before).arg(after)));
    QCOMPARE(faulty.failedLinks.size(), up.size() / 2);
    QVERIFY2(faulty.step.stepS > healthy.step.stepS * 1.01,
             qPrintable(QString("%1 s healthy, %2 s with %3 of %4 uplinks down")
                            .arg(healthy.step.stepS)
                            .arg(faulty.step.stepS)
                            .arg(up.size() / 2)
                            .arg(up.size())));
}

void TestFabricFaults::replayShowsTheFailedLinks() {
    // A stored run marks the links down for the whole run as failed from its start, as the
    // replay asks its reader for what is failed at the moment shown.
    const auto doc = openTopology("small-256", {});
    const Topology& t = doc->topology();
    RunSpec s = fragmentedJob();
    const RunResult healthy = simulateRun(*doc, s, nullptr);
    const int32_t leaf = nicLinkOf(t, healthy.step.gpuOfRank[0]).second;
    const int32_t down = uplinksOf(t, leaf).front();
    s.fabric.failed = {t.nameOf({EntityKind::Link, down})};
    QTemporaryDir dir;
    simulateToStore(*doc, s, dir.filePath("run.sqlite"));
    RunReader reader(dir.filePath("run.sqlite"), t);
    const std::vector<Endpoint> failed = reader.failedAt(1'000'000);
    QCOMPARE(failed.size(), size_t(1));
    QVERIFY(failed.front() == (Endpoint{EntityKind::Link, down}));
}

void TestFabricFaults::unreachableGpuIsRefusedByName() {
    const auto doc = openTopology("small-256", {});
    const Topology& t = doc->topology();
    RunSpec s = fragmentedJob();
    const RunResult healthy = simulateRun(*doc, s, nullptr);
    // The only cable of one job GPU's NIC fails: the run is refused naming the GPU and the
    // link, not simulated faster without its flows.
    const int32_t gpu = healthy.step.gpuOfRank[9];
    const std::string link = t.nameOf({EntityKind::Link, nicLinkOf(t, gpu).first});
    s.fabric.failed = {link};
    try {
        simulateRun(*doc, s, nullptr);
        QFAIL("a GPU without a route was simulated");
    } catch (const InputException& e) {
        const std::string text = e.error().message;
        QCOMPARE(e.error().field, std::string("fabric"));
        QVERIFY2(text.find(t.gpuName(gpu)) != std::string::npos, text.c_str());
        QVERIFY2(text.find(link + " failed") != std::string::npos, text.c_str());
    }
    // So is a rack switch down: every GPU below it is cut off.
    s.fabric.failed = {t.switches[size_t(nicLinkOf(t, gpu).second)].name};
    QVERIFY_THROWS_EXCEPTION(InputException, simulateRun(*doc, s, nullptr));
}

void TestFabricFaults::degradedUplinksSlowTheJob() {
    const auto doc = openTopology("small-256", {});
    const Topology& t = doc->topology();
    RunSpec s = fragmentedJob();
    const RunResult healthy = simulateRun(*doc, s, nullptr);
    const int32_t leaf = nicLinkOf(t, healthy.step.gpuOfRank[0]).second;
    for (int32_t l : uplinksOf(t, leaf))
        s.fabric.degraded.emplace_back(t.nameOf({EntityKind::Link, l}), 0.25);
    const RunResult slowed = simulateRun(*doc, s, nullptr);
    QVERIFY(slowed.failedLinks.empty());
    QVERIFY2(
        slowed.step.stepS > healthy.step.stepS * 1.01,
        qPrintable(QString("%1 s against %2 s").arg(slowed.step.stepS).arg(healthy.step.stepS)));
    // The topology the step ran on: a quarter of the capacity.
    const Topology faulty = topologyWithFaults(*doc, s.fabric);
    const int32_t l = uplinksOf(t, leaf).front();
    QCOMPARE(faulty.links[size_t(l)].gbps, t.links[size_t(l)].gbps * 0.25f);
}

void TestFabricFaults::unknownPartsAreRefused_data() {
    QTest::addColumn<QString>("id");
    QTest::addColumn<QString>("field");
    QTest::newRow("nothing") << "no-such-switch"
                             << "fabric.failed[0]";
    QTest::newRow("a host is not a fabric part") << "small.pod0.rack0.host0"
                                                 << "fabric.failed[0]";
}

void TestFabricFaults::unknownPartsAreRefused() {
    QFETCH(QString, id);
    QFETCH(QString, field);
    const auto doc = openTopology("small-256", {});
    FabricFaults f;
    f.failed = {id.toStdString()};
    try {
        topologyWithFaults(*doc, f);
        QFAIL("accepted");
    } catch (const InputException& e) {
        QCOMPARE(QString::fromStdString(e.error().field), field);
        QVERIFY(e.error().message.find("expected the id of a link") != std::string::npos);
    }
}

void TestFabricFaults::runFileFabricRoundTrips() {
    const RunSpec s = parseRunSpec(R"({"format": "clusterscope-run", "version": 2,
  "model": "llama3-8b", "parallel": {"tp": 8, "pp": 1, "dp": 32}, "steps": 1,
  "fabric": {"failed": ["a -- b", "spine3"], "degraded": {"leaf7": 0.5}}})",
                                   "run.json");
    QCOMPARE(s.fabric.failed, (std::vector<std::string>{"a -- b", "spine3"}));
    QCOMPARE(s.fabric.degraded.size(), size_t(1));
    QCOMPARE(s.fabric.degraded[0].second, 0.5);
    const QByteArray written = QJsonDocument(runSpecToJson(s)).toJson();
    QVERIFY(parseRunSpec(written, "again.json").fabric == s.fabric);
}

void TestFabricFaults::runFileFabricErrorsAreLocated_data() {
    QTest::addColumn<QString>("fabric");
    QTest::addColumn<QString>("where");
    QTest::newRow("not a list") << R"({"failed": "spine3"})"
                                << "fabric.failed";
    QTest::newRow("not a string") << R"({"failed": ["a", 3]})"
                                  << "fabric.failed[1]";
    QTest::newRow("none left") << R"({"degraded": {"leaf7": 0}})"
                               << "fabric.degraded.leaf7";
    QTest::newRow("above one") << R"({"degraded": {"leaf7": 1.5}})"
                               << "fabric.degraded.leaf7";
    QTest::newRow("unknown field") << R"({"broken": []})"
                                   << "fabric.broken";
}

void TestFabricFaults::runFileFabricErrorsAreLocated() {
    QFETCH(QString, fabric);
    QFETCH(QString, where);
    const QString text = R"({"format": "clusterscope-run", "version": 2, "model": "llama3-8b",
  "steps": 1, "fabric": )" +
                         fabric + "}";
    try {
        parseRunSpec(text.toUtf8(), "run.json");
        QFAIL("accepted");
    } catch (const InputException& e) {
        QCOMPARE(QString::fromStdString(e.error().field), where);
        QCOMPARE(e.error().line, 2);
    }
}

void TestFabricFaults::spanFailuresDegradeUntilRepair() {
    // A year of a 128-GPU job: cables and switches fail; after its restart the job runs
    // around the failed part until the repair, slower where the part carried its traffic
    // (rack switches 1:3 oversubscribed, so that an uplink fewer shows).
    const auto doc = smallWithOversubscription(3);
    RunSpec s = fragmentedJob();
    s.steps = 0;
    s.spanS = 365 * 86400;
    s.failures = true;
    int degraded = 0;
    for (uint64_t seed = 1; seed <= 40 && degraded == 0; ++seed) {
        s.seed = seed;
        const RunResult r = simulateRun(*doc, s, nullptr);
        double degradationS = 0, total = 0;
        for (const Interruption& x : r.interruptions) {
            total += x.lostS + x.degradationLossS(r.step.stepS);
            if (x.degradedS <= 0) continue;
            ++degraded;
            QVERIFY(x.entity.kind == EntityKind::Link || x.entity.kind == EntityKind::Switch);
            QVERIFY(x.degradedStepS > r.step.stepS);
            QVERIFY(x.degradedS <= s.failureTimes.fabricRepairS);
            // Degraded time costs the fraction of steps it loses, not the whole time.
            QCOMPARE(x.degradationLossS(r.step.stepS),
                     x.degradedS * (1 - r.step.stepS / x.degradedStepS));
            degradationS += x.degradationLossS(r.step.stepS);
        }
        QCOMPARE(r.lostS, std::min(total, s.spanS));
        QVERIFY(degraded == 0 || degradationS > 0);
    }
    QVERIFY2(degraded > 0, "no draw failed a part the job's traffic crosses");
}

// The replay's failed parts over a span: a part down for the whole run stays marked through
// every restart; a failed cable or switch that the job ran around stays marked until its
// repair; a part the job moved off (a GPU, a host) until the restart.
void TestFabricFaults::replayKeepsPartsDownUntilRepaired() {
    const auto doc = smallWithOversubscription(3);
    const Topology& t = doc->topology();
    RunSpec s = fragmentedJob();
    const RunResult healthy = simulateRun(*doc, s, nullptr);
    const int32_t down = uplinksOf(t, nicLinkOf(t, healthy.step.gpuOfRank[0]).second).front();
    s.fabric.failed = {t.nameOf({EntityKind::Link, down})};
    s.steps = 0;
    s.spanS = 365 * 86400;
    s.failures = true;
    std::optional<RunResult> found;
    for (uint64_t seed = 1; seed <= 40 && !found; ++seed) {
        s.seed = seed;
        RunResult r = simulateRun(*doc, s, nullptr);
        for (const Interruption& x : r.interruptions)
            if (x.degradedS > 0) found = std::move(r);
    }
    QVERIFY2(found, "no draw failed a part the job's traffic crosses");
    QTemporaryDir dir;
    simulateToStore(*doc, s, dir.filePath("span.sqlite"));
    RunReader reader(dir.filePath("span.sqlite"), t);
    auto downAt = [&](double atS, Endpoint e) {
        const std::vector<Endpoint> f = reader.failedAt(int64_t(atS * 1e9));
        return std::find(f.begin(), f.end(), e) != f.end();
    };
    const Endpoint wholeRun{EntityKind::Link, down};
    int repairedChecked = 0, movedChecked = 0;
    for (const Interruption& x : found->interruptions) {
        const double restartS = x.atS + x.lostS;
        QVERIFY(downAt(restartS + 1, wholeRun));
        if (x.entity.kind == EntityKind::Gpu || x.entity.kind == EntityKind::Host) {
            if (failureCauses()[size_t(x.cause)].planned) continue; // maintenance, not a failure
            QVERIFY(downAt(x.atS + 1e-3, x.entity));
            // Gone after the restart, unless another failure hits it again.
            if (!downAt(restartS + 1e-3, x.entity)) ++movedChecked;
        }
        if (x.degradedS > 0) {
            QVERIFY(downAt(restartS + x.degradedS / 2, x.entity));
            if (!downAt(restartS + x.degradedS + 1, x.entity)) ++repairedChecked;
        }
    }
    QVERIFY(repairedChecked > 0);
    QVERIFY(movedChecked > 0);
    QVERIFY(downAt(s.spanS - 1, wholeRun));
}

// A parameters file with a top-level "fabric": the design keeps its faults through a write and
// a read, and a run on it (with none of its own) routes around them as a run file's would.
void TestFabricFaults::designFileFaultsRouteEveryRun() {
    const auto preset = openTopology("small-256", {});
    const Topology& t = preset->topology();
    RunSpec s = fragmentedJob();
    const RunResult healthy = simulateRun(*preset, s, nullptr);
    const std::vector<int32_t> up = uplinksOf(t, nicLinkOf(t, healthy.step.gpuOfRank[0]).second);
    SiteParams design = *preset->params();
    for (size_t i = 0; i < up.size() / 2; ++i)
        design.faults.failed.push_back(t.nameOf({EntityKind::Link, up[i]}));
    design.faults.degraded.push_back({t.nameOf({EntityKind::Link, up.back()}), 0.5});
    QTemporaryDir dir;
    const QString path = dir.filePath("design.json");
    const QByteArray text = paramsTopologyDocument("small-256 with faults", design);
    QVERIFY(text.contains("\"fabric\""));
    writeFileAtomically(path, text);
    const auto doc = openTopology({}, path.toStdString());
    QVERIFY(doc->params());
    QVERIFY(doc->params()->faults == design.faults);
    QCOMPARE(paramsTopologyDocument("small-256 with faults", *doc->params()), text);
    // The generator builds every part: the faults change routes, not the hardware.
    QCOMPARE(doc->topology().links.size(), t.links.size());
    const RunResult onDesign = simulateRun(*doc, s, nullptr);
    s.fabric = design.faults;
    const RunResult viaRun = simulateRun(*preset, s, nullptr);
    QCOMPARE(onDesign.failedLinks, viaRun.failedLinks);
    QCOMPARE(onDesign.failedLinks.size(), up.size() / 2);
    QCOMPARE(onDesign.step.stepS, viaRun.step.stepS);
    QVERIFY(onDesign.step.stepS > healthy.step.stepS * 1.01);
}

void TestFabricFaults::designFileFaultErrorsNameTheFile() {
    QTemporaryDir dir;
    SiteParams design = *presetParams("small-256");
    design.faults.failed = {"no-such-switch"};
    const QString path = dir.filePath("bad.json");
    writeFileAtomically(path, paramsTopologyDocument("bad", design));
    try {
        openTopology({}, path.toStdString());
        QFAIL("a fault naming nothing was taken");
    } catch (const InputException& e) {
        QCOMPARE(e.error().file, path.toStdString());
        QCOMPARE(e.error().field, std::string("fabric.failed[0]"));
        QVERIFY(e.error().message.find("no-such-switch") != std::string::npos);
    }
    // A topology listed entity by entity has no design to hold faults.
    const auto small = openTopology("small-256", {});
    QByteArray text = explicitTopologyDocument(small->topology());
    text.insert(text.indexOf('{') + 1, "\n  \"fabric\": {\"failed\": [\"x\"]},");
    try {
        parseTopologyText(text, "explicit.json");
        QFAIL("faults in an explicit topology were taken");
    } catch (const InputException& e) {
        QCOMPARE(e.error().field, std::string("fabric"));
        QCOMPARE(e.error().file, std::string("explicit.json"));
    }
}

// A run on a design with faults: both lists, the run's fraction for a part both degrade.
void TestFabricFaults::designAndRunFaultsMerge() {
    FabricFaults design, run;
    design.failed = {"a"};
    design.degraded = {{"x", 0.5}, {"y", 0.8}};
    run.failed = {"a", "b"};
    run.degraded = {{"x", 0.25}};
    const FabricFaults both = mergedFaults(design, run);
    QCOMPARE(both.failed, (std::vector<std::string>{"a", "b"}));
    QCOMPARE(both.degraded.size(), size_t(2));
    QVERIFY(std::find(both.degraded.begin(), both.degraded.end(),
                      std::pair<std::string, double>{"x", 0.25}) != both.degraded.end());
    QVERIFY(std::find(both.degraded.begin(), both.degraded.end(),
                      std::pair<std::string, double>{"y", 0.8}) != both.degraded.end());
    QVERIFY(mergedFaults({}, {}).empty());
}

QTEST_APPLESS_MAIN(TestFabricFaults)
#include "tst_fabric_faults.moc"
