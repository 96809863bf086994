// The generic Clos generator: structure follows the parameters, and the derived figures
// respond to them the way the network would (oversubscription, planes, bisection).
#include "DesignFields.h"
#include "DesignSets.h"
#include "FabricRouter.h"
#include "MaxFlow.h"
#include "Presets.h"
#include "SiteGenerator.h"
#include "TopologyIndex.h"
#include "TopologyStats.h"

#include <QTest>

#include <climits>
#include <map>

using namespace cs;

namespace {
SiteParams smallSite() {
    return *presetParams("small-256");
}
} // namespace

class TestGenerator : public QObject {
    Q_OBJECT
private slots:
    void countsFollowParameters_data();
    void countsFollowParameters();
    void oversubscriptionFollowsParameter_data();
    void oversubscriptionFollowsParameter();
    void fewerPlanesHalveBisection();
    void badParametersNameTheField_data();
    void badParametersNameTheField();
    void smallestChangesFit_data();
    void smallestChangesFit();
    void fullBisectionNeedsLargerCores();
    void coresFollowTheUplinks_data();
    void coresFollowTheUplinks();
    void maxFlowOnKnownGraph();
    void railWiringPutsARailOneLeafApart_data();
    void railWiringPutsARailOneLeafApart();
};

void TestGenerator::countsFollowParameters_data() {
    QTest::addColumn<int>("pods");
    QTest::addColumn<int>("racksPerPod");
    QTest::addColumn<int>("hostsPerRack");
    QTest::addColumn<int>("gpusPerHost");
    QTest::newRow("1x1x1x1") << 1 << 1 << 1 << 1;
    QTest::newRow("2x8x2x8") << 2 << 8 << 2 << 8;
    QTest::newRow("3x5x4x4") << 3 << 5 << 4 << 4;
    QTest::newRow("4x33x2x8") << 4 << 33 << 2 << 8;
}

void TestGenerator::countsFollowParameters() {
    QFETCH(int, pods);
    QFETCH(int, racksPerPod);
    QFETCH(int, hostsPerRack);
    QFETCH(int, gpusPerHost);
    SiteParams p = smallSite();
    ClusterParams& c = p.clusters[0];
    c.pods = pods, c.racksPerPod = racksPerPod, c.hostsPerRack = hostsPerRack,
    c.gpusPerHost = gpusPerHost;
    c.spineRadix = c.coreRadix = 576; // room for the larger rows
    const Topology t = generateSite(p);
    const TopologyStats s = computeStats(t);
    QCOMPARE(s.pods, pods);
    QCOMPARE(s.racks, 1LL * pods * racksPerPod);
    QCOMPARE(s.hosts, 1LL * pods * racksPerPod * hostsPerRack);
    QCOMPARE(s.gpus, s.hosts * gpusPerHost);
    QCOMPARE(s.switchesByRole[size_t(SwitchRole::Rtsw)], s.racks);
    QCOMPARE(s.switchesByRole[size_t(SwitchRole::Ctsw)], 1LL * pods * c.planes * c.spinesPerPlane);
    QCOMPARE(s.switchesByRole[size_t(SwitchRole::Atsw)], 1LL * c.planes * coresPerPlaneBuilt(c));
    QCOMPARE(s.switchesByRole[size_t(SwitchRole::NvSwitch)], s.hosts);
    // Rack uplinks: one per plane.
    const long long leafSpine = s.racks * c.planes;
    const long long spineCore = coresPerPlaneBuilt(c) > 0 ? pods * podUplinkCount(c) : 0;
    const long long frontend =
        1LL * pods * c.frontendFabricPerPod * (p.storage.frontendSpines + racksPerPod);
    const long long storageRacks = s.storageRacks;
    QCOMPARE(s.linksByMedium[size_t(LinkMedium::Fibre)],
             leafSpine + spineCore + frontend + storageRacks * p.storage.storageTorUplinks);
}

void TestGenerator::oversubscriptionFollowsParameter_data() {
    QTest::addColumn<double>("ratio");
    for (double r : {1.0, 2.0, 3.0, 7.0, 16.0})
        QTest::newRow(qPrintable(QString::number(r))) << r;
}

void TestGenerator::oversubscriptionFollowsParameter() {
    QFETCH(double, ratio);
    SiteParams p = smallSite();
    p.clusters[0].oversubscription = ratio;
    const TopologyStats s = computeStats(generateSite(p));
    // Whole links: the ratio is met to within one link of the pod's uplinks.
    const double links = double(podUplinkCount(p.clusters[0]));
    QVERIFY2(qAbs(s.oversubscription - ratio) <= ratio / links + 1e-9,
             qPrintable(QString("got %1").arg(s.oversubscription)));
    for (const PodStats& pod : s.podStats)
        QVERIFY(pod.fullBisection); // inside the pod: 1:1
}

void TestGenerator::fewerPlanesHalveBisection() {
    SiteParams p = smallSite();
    const TopologyStats full = computeStats(generateSite(p));
    p.clusters[0].planes = 8; // 16 GPUs down, 8 uplinks: 2:1 inside the pod
    const TopologyStats half = computeStats(generateSite(p));
    QVERIFY(full.podStats[0].fullBisection);
    QVERIFY(!half.podStats[0].fullBisection);
    QCOMPARE(half.podStats[0].bisectionGbps, full.podStats[0].bisectionGbps / 2);
}

void TestGenerator::badParametersNameTheField_data() {
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("message");
    QTest::newRow("pods") << "generator.clusters[0].pods"
                          << "from 1 to 4096";
    QTest::newRow("leafRadix") << "generator.clusters[0].leafRadix"
                               << "needs 32 ports";
    QTest::newRow("huge") << "generator.clusters[0].pods"
                          << "at most 2000000";
    QTest::newRow("gbps") << "generator.clusters[0].nicGbps"
                          << "above 0";
    QTest::newRow("duplicate") << "generator.clusters[1].name"
                               << "used twice";
    QTest::newRow("rail units not whole") << "generator.clusters[0].railGroupRacks"
                                          << "divisor of racksPerPod (8)";
    QTest::newRow("rail leaf ports") << "generator.clusters[0].leafRadix"
                                     << "a rail leaf needs 24 ports";
    QTest::newRow("planes per rail without rails") << "generator.clusters[0].planesPerRail"
                                                   << "needs rail wiring";
    QTest::newRow("planes per rail not filling the planes")
        << "generator.clusters[0].planesPerRail"
        << "planes = planesPerRail x gpusPerHost (24)";
}

void TestGenerator::badParametersNameTheField() {
    QFETCH(QString, field);
    QFETCH(QString, message);
    SiteParams p = smallSite();
    const QByteArray tag = QTest::currentDataTag();
    if (tag == "pods") p.clusters[0].pods = 0;
    if (tag == "leafRadix") p.clusters[0].leafRadix = 20;
    if (tag == "huge") p.clusters[0].pods = 4000, p.clusters[0].racksPerPod = 60000;
    if (tag == "gbps") p.clusters[0].nicGbps = -400;
    if (tag == "duplicate") p.clusters.push_back(p.clusters[0]);
    if (tag == "rail units not whole") p.clusters[0].railGroupRacks = 3;
    if (tag == "rail leaf ports") // 4 racks x 2 hosts down + 16 planes up
        p.clusters[0].railGroupRacks = 4, p.clusters[0].planes = 16, p.clusters[0].leafRadix = 20;
    if (tag == "planes per rail without rails") p.clusters[0].planesPerRail = 2;
    if (tag == "planes per rail not filling the planes")
        p.clusters[0].railGroupRacks = 4, p.clusters[0].planesPerRail = 3;
    const auto e = checkSiteParams(p);
    QVERIFY(e.has_value());
    QCOMPARE(QString::fromStdString(e->field), field);
    QVERIFY2(QString::fromStdString(e->message).contains(message), e->message.c_str());
    QVERIFY_THROWS_EXCEPTION(InputException, generateSite(p));
}

// The --set changes a refusal offers: each makes the design pass, and one step less of it
// does not (it is the smallest change of that field).
void TestGenerator::smallestChangesFit_data() {
    QTest::addColumn<QString>("preset");
    QTest::addColumn<QStringList>("sets");    // what makes the design refused
    QTest::addColumn<QString>("field");       // the field the refusal names
    QTest::addColumn<QStringList>("changes"); // the fields whose changes are offered
    const QString c = "generator.clusters[0].";
    QTest::newRow("core ports") << "meta-roce-24k"
                                << QStringList{c + "coresPerPlane=1", c + "oversubscription=1"}
                                << c + "coreRadix" << QStringList{"coreRadix", "coresPerPlane"};
    QTest::newRow("spine ports") << "small-256" << QStringList{c + "spineRadix=10"}
                                 << c + "spineRadix" << QStringList{"spineRadix", "spinesPerPlane"};
    QTest::newRow("leaf ports") << "small-256" << QStringList{c + "leafRadix=20"} << c + "leafRadix"
                                << QStringList{"leafRadix", "planes"};
    QTest::newRow("leaf uplinks") << "small-256"
                                  << QStringList{c + "leafUplinksPerPlane=2", c + "leafRadix=40"}
                                  << c + "leafRadix"
                                  << QStringList{"leafRadix", "planes", "leafUplinksPerPlane"};
    QTest::newRow("rail units") << "small-256" << QStringList{c + "railGroupRacks=3"}
                                << c + "railGroupRacks"
                                << QStringList{"railGroupRacks", "railGroupRacks", "racksPerPod"};
    // 1,000 pods of 3,072 GPUs, the core switches large enough for all of them.
    QTest::newRow("too many GPUs")
        << "meta-roce-24k" << QStringList{c + "coreRadix=65535", c + "pods=1000"} << c + "pods"
        << QStringList{"pods", "racksPerPod"};
    QTest::newRow("duplicate name") << "meta-both" << QStringList{"generator.clusters[1].name=roce"}
                                    << "generator.clusters[1].name" << QStringList{"name"};
}

void TestGenerator::smallestChangesFit() {
    QFETCH(QString, preset);
    QFETCH(QStringList, sets);
    QFETCH(QString, field);
    QFETCH(QStringList, changes);
    SiteParams p = *presetParams(preset.toStdString());
    for (const QString& s : sets)
        applyDesignSets(p, {s.toStdString()});
    const auto e = checkSiteParams(p);
    QVERIFY(e.has_value());
    QCOMPARE(QString::fromStdString(e->field), field);
    const QString message = QString::fromStdString(e->message);
    const QString intro = "; smallest changes that fit: ";
    QVERIFY2(message.contains(intro), qPrintable(message));
    const QStringList offered = message.mid(message.indexOf(intro) + intro.size()).split(" or ");
    QCOMPARE(offered.size(), changes.size());
    for (qsizetype i = 0; i < offered.size(); ++i) {
        QVERIFY2(offered[i].startsWith("--set "), qPrintable(offered[i]));
        const QString set = offered[i].mid(6);
        const QString key = set.section('=', 0, 0), value = set.section('=', 1);
        QVERIFY2(key.endsWith("." + changes[i]), qPrintable(set));
        SiteParams fixed = p;
        applyDesignSets(fixed, {set.toStdString()});
        const auto after = checkSiteParams(fixed);
        QVERIFY2(!after, qPrintable(set + " still refused: " +
                                    QString::fromStdString(after ? after->message : "")));
        // One step back towards the refused value is refused: the change is the smallest.
        const DesignFieldRef ref = *parseDesignFieldKey(key.toStdString());
        bool number = false;
        const long long v = value.toLongLong(&number);
        if (!number) continue; // a name
        const long long was = designFieldText(p, *ref.field, ref.cluster).toLongLong();
        SiteParams less = p;
        setDesignField(less, *ref.field, ref.cluster, QString::number(v + (was > v ? 1 : -1)));
        QVERIFY2(checkSiteParams(less).has_value(), qPrintable(set + " is not the smallest"));
    }
}

// 1:1 on Meta's RoCE cluster. 3,072 GPUs x 400G per pod need 3,072 uplinks at 1:1, 192 per
// spine (16 planes, one spine each); one core per plane would take 192 from each of 8 pods =
// 1,536 ports where it has 576: with the cores set to one per plane that is refused with the
// changes that fit; left to the generator (0), three cores per plane take 64 x 8 = 512 each.
void TestGenerator::fullBisectionNeedsLargerCores() {
    SiteParams p = *presetParams("meta-roce-24k");
    applyDesignSets(
        p, {"generator.clusters[0].coresPerPlane=1", "generator.clusters[0].oversubscription=1"});
    const auto e = checkSiteParams(p);
    QVERIFY(e.has_value());
    QCOMPARE(QString::fromStdString(e->message),
             QString("a core switch needs 1536 ports, has 576; smallest changes that fit: "
                     "--set generator.clusters[0].coreRadix=1536 or "
                     "--set generator.clusters[0].coresPerPlane=3"));
    SiteParams built = *presetParams("meta-roce-24k");
    applyDesignSets(built, {"generator.clusters[0].oversubscription=1"});
    QVERIFY(!checkSiteParams(built));
    QCOMPARE(coresPerPlaneBuilt(built.clusters[0]), 3);
    const TopologyStats s = computeStats(generateSite(built));
    QCOMPARE(s.switchesByRole[size_t(SwitchRole::Atsw)], 48LL);
}

// Cores as the uplinks need them: Meta's RoCE tier keeps one 576-port core per plane from 1:3
// to 1:28; its InfiniBand tier of 64-port cores thins from 32 per plane at 1:1 (one link from
// each of a plane's 48 spines) as the pods' uplinks do.
void TestGenerator::coresFollowTheUplinks_data() {
    QTest::addColumn<QString>("preset");
    QTest::addColumn<double>("oversubscription");
    QTest::addColumn<int>("cores");
    QTest::newRow("RoCE 1:2") << "meta-roce-24k" << 2.0 << 2;
    QTest::newRow("RoCE 1:3") << "meta-roce-24k" << 3.0 << 1;
    QTest::newRow("RoCE 1:28") << "meta-roce-24k" << 28.0 << 1;
    QTest::newRow("InfiniBand 1:1") << "meta-ib-24k" << 1.0 << 32;
    QTest::newRow("InfiniBand 1:2") << "meta-ib-24k" << 2.0 << 16;
    QTest::newRow("InfiniBand 1:7") << "meta-ib-24k" << 7.0 << 5;
    QTest::newRow("InfiniBand 1:28") << "meta-ib-24k" << 28.0 << 2;
}

void TestGenerator::coresFollowTheUplinks() {
    QFETCH(QString, preset);
    QFETCH(double, oversubscription);
    QFETCH(int, cores);
    SiteParams p = *presetParams(preset.toStdString());
    p.clusters[0].oversubscription = oversubscription;
    QVERIFY(!checkSiteParams(p));
    const ClusterParams& c = p.clusters[0];
    QCOMPARE(coresPerPlaneBuilt(c), cores);
    const Topology t = generateSite(p);
    // Every core is used, none past its radix, and each spine's uplinks spread over its
    // plane's cores to within one link.
    std::vector<int> uplinksOfCore(t.switches.size(), 0);
    std::map<std::pair<int32_t, int32_t>, int> spineToCore;
    for (const Link& l : t.links) {
        if (l.a.kind != EntityKind::Switch || l.b.kind != EntityKind::Switch) continue;
        const Switch& a = t.switches[size_t(l.a.index)];
        const Switch& b = t.switches[size_t(l.b.index)];
        if (tierOf(a.role) == 2 && tierOf(b.role) == 3 && networkOf(a.role) == Network::Backend) {
            ++uplinksOfCore[size_t(l.b.index)];
            ++spineToCore[{l.a.index, l.b.index}];
        }
    }
    long long coreSwitches = 0;
    for (size_t i = 0; i < t.switches.size(); ++i)
        if (tierOf(t.switches[i].role) == 3 && t.switches[i].cluster == 0) {
            ++coreSwitches;
            QVERIFY(uplinksOfCore[i] > 0);
            QVERIFY(uplinksOfCore[i] <= t.switches[i].ports);
        }
    QCOMPARE(coreSwitches, 1LL * c.planes * cores);
    int fewest = INT_MAX, most = 0;
    for (const auto& [pair, n] : spineToCore)
        fewest = std::min(fewest, n), most = std::max(most, n);
    QVERIFY2(most - fewest <= 1, qPrintable(QString("%1 to %2").arg(fewest).arg(most)));
}

void TestGenerator::railWiringPutsARailOneLeafApart_data() {
    QTest::addColumn<int>("railGroupRacks");
    QTest::newRow("a leaf per rack") << 0;
    QTest::newRow("rails of 4 racks") << 4;
    QTest::newRow("rails of the whole pod") << 8;
}

void TestGenerator::railWiringPutsARailOneLeafApart() {
    // small-256's pods of 8 racks x 2 hosts x 8 GPUs, wired by rack or by rail. Rail wiring:
    // gpusPerHost leaves per unit, NIC k of every host of the unit on leaf k, so GPU k of two
    // hosts of a unit is one leaf apart; another rail or another unit crosses a spine.
    QFETCH(int, railGroupRacks);
    SiteParams p = smallSite();
    ClusterParams& c = p.clusters[0];
    c.railGroupRacks = railGroupRacks;
    c.spineRadix = 576;
    const Topology t = generateSite(p);
    const TopologyIndex ix(t);
    const TopologyStats s = computeStats(t);
    const long long units = railGroupRacks ? c.racksPerPod / railGroupRacks : 0;
    QCOMPARE(s.switchesByRole[size_t(SwitchRole::Rtsw)],
             railGroupRacks ? c.pods * units * c.gpusPerHost : s.racks);
    QCOMPARE(s.hosts, 32LL);               // the same hosts either way
    for (const PodStats& pod : s.podStats) // still a non-blocking pod
        QCOMPARE(pod.bisectionGbps, pod.injectionGbps / 2);
    FabricRouter router(t, ix);
    auto hops = [&](int32_t a, int32_t b) {
        std::vector<int32_t> path;
        if (!router.route(a, b, 1, path)) return -1;
        return int(path.size()); // directed fabric links, NIC -> ... -> NIC
    };
    const int perHost = c.gpusPerHost, perRack = c.hostsPerRack * perHost;
    // GPU 3 of host 0 and of the first host of the next rack.
    const int sameRailNextRack = hops(3, perRack + 3);
    // GPU 3 of host 0 and GPU 4 of that next host: another rail.
    const int otherRail = hops(3, perRack + 4);
    QCOMPARE(otherRail, 4);                                  // NIC, leaf, spine, leaf, NIC
    QCOMPARE(sameRailNextRack, railGroupRacks >= 2 ? 2 : 4); // NIC, leaf, NIC when one rail
    if (railGroupRacks == 4) // the first host of the second unit: across the spine
        QCOMPARE(hops(3, 4 * perRack + 3), 4);
    // Every backend NIC on the leaf of its rail (or of its rack).
    for (size_t l = 0; l < t.links.size(); ++l) {
        const Link& k = t.links[l];
        if (k.a.kind != EntityKind::Nic || k.b.kind != EntityKind::Switch) continue;
        const Nic& nic = t.nics[size_t(k.a.index)];
        if (nic.role != NicRole::Backend) continue;
        const std::string leaf = t.switches[size_t(k.b.index)].name;
        const int local = t.gpus[size_t(nic.gpu)].local;
        if (railGroupRacks)
            QVERIFY2(leaf.find(".rail" + std::to_string(local) + "-") != std::string::npos,
                     leaf.c_str());
        else
            QCOMPARE(t.switches[size_t(k.b.index)].rack, t.hosts[size_t(nic.host)].rack);
    }
}

void TestGenerator::maxFlowOnKnownGraph() {
    // Two disjoint paths of 3 and 5 plus a cross edge; the min cut is {s-a: 4, s-b: 5} = 9.
    MaxFlow f(4);
    f.addDirected(0, 2, 4);
    f.addDirected(0, 3, 5);
    f.addUndirected(2, 3, 10);
    f.addDirected(2, 1, 3);
    f.addDirected(3, 1, 7);
    QCOMPARE(f.run(0, 1), 9.0);
}

QTEST_APPLESS_MAIN(TestGenerator)
#include "tst_generator.moc"
