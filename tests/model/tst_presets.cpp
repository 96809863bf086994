// The presets reproduce the published structure of Meta's Llama 3 clusters
// (docs/reference/llama3-clusters.md) and NVIDIA's DGX SuperPODs
// (docs/reference/dgx-superpods.md).
#include "Presets.h"
#include "SiteGenerator.h"
#include "TopologyStats.h"
#include "TopologyStatsJson.h"

#include <QTest>

#include <cmath>
#include <set>

using namespace cs;

class TestPresets : public QObject {
    Q_OBJECT
private slots:
    void publishedNumbers_data();
    void publishedNumbers();
    void everyPresetIsConsistent_data();
    void everyPresetIsConsistent();
    void nvl72RacksAreOneNvlinkDomainEach();
    void unknownPresetIsRejected();
    void superPodsFollowTheReferenceArchitectures_data();
    void superPodsFollowTheReferenceArchitectures();
};

void TestPresets::publishedNumbers_data() {
    QTest::addColumn<QString>("preset");
    QTest::addColumn<qlonglong>("gpus");
    QTest::addColumn<qlonglong>("hosts");
    QTest::addColumn<qlonglong>("racks");
    QTest::addColumn<qlonglong>("pods");
    QTest::addColumn<qlonglong>("gpusPerPod");
    QTest::addColumn<double>("oversubscription");
    QTest::addColumn<qlonglong>("tectonicServers");
    // [paper] 24,576 GPUs; 2 hosts (16 GPUs) per rack; 192 racks = 3,072 GPUs per pod;
    // 8 pods; 1:7 between pods (RoCE). InfiniBand: same hosts, non-blocking [assumption].
    QTest::newRow("meta-roce-24k")
        << "meta-roce-24k" << 24576LL << 3072LL << 1536LL << 8LL << 3072LL << 7.0 << 7500LL;
    QTest::newRow("meta-ib-24k") << "meta-ib-24k" << 24576LL << 3072LL << 1536LL << 8LL << 3072LL
                                 << 1.0 << 7500LL;
    QTest::newRow("meta-both") << "meta-both" << 49152LL << 6144LL << 3072LL << 16LL << 3072LL
                               << 7.0 << 7500LL;
    QTest::newRow("small-256") << "small-256" << 256LL << 32LL << 16LL << 2LL << 128LL << 2.0
                               << 40LL;
}

void TestPresets::publishedNumbers() {
    QFETCH(QString, preset);
    const Topology t = generatePreset(preset.toStdString());
    const TopologyStats s = computeStats(t);
    QTEST(s.gpus, "gpus");
    QTEST(s.hosts, "hosts");
    QTEST(s.racks, "racks");
    QTEST(s.pods, "pods");
    QTEST(s.tectonicServers, "tectonicServers");
    QFETCH(qlonglong, gpusPerPod);
    QFETCH(double, oversubscription);
    for (const PodStats& p : s.podStats) {
        QCOMPARE(p.gpus, gpusPerPod);
        QVERIFY(p.fullBisection); // [paper] full bisection inside a pod
        QCOMPARE(p.bisectionGbps, p.injectionGbps / 2);
    }
    // The worst pod; whole 400G links: 3,072 x 400G / 7 = 438.9 links -> 439, so 1:6.998.
    QVERIFY2(qAbs(s.oversubscription - oversubscription) < 0.01 * oversubscription,
             qPrintable(QString::number(s.oversubscription)));
    // One 400G backend NIC per GPU [paper].
    QCOMPARE(s.injectionGbps, double(s.gpus) * 400.0);
}

void TestPresets::everyPresetIsConsistent_data() {
    QTest::addColumn<QString>("preset");
    for (const PresetInfo& p : presets())
        QTest::newRow(p.name.c_str()) << QString::fromStdString(p.name);
}

void TestPresets::everyPresetIsConsistent() {
    QFETCH(QString, preset);
    const Topology t = generatePreset(preset.toStdString());
    // Every link joins two existing entities; no switch uses more ports than it has.
    std::vector<int> used(t.switches.size(), 0);
    for (const Link& l : t.links) {
        for (Endpoint e : {l.a, l.b}) {
            QVERIFY(e.index >= 0 && size_t(e.index) < t.count(e.kind));
            if (e.kind == EntityKind::Switch) ++used[size_t(e.index)];
        }
        QVERIFY(l.gbps > 0);
    }
    for (size_t i = 0; i < t.switches.size(); ++i)
        QVERIFY2(used[i] <= t.switches[i].ports, t.switches[i].name.c_str());
    // Ids are unique over all kinds.
    std::set<std::string> names;
    size_t total = 0;
    auto add = [&](const auto& v) {
        for (const auto& x : v)
            names.insert(x.name);
        total += v.size();
    };
    add(t.clusters), add(t.pods), add(t.rows), add(t.racks), add(t.hosts), add(t.nics),
        add(t.switches), add(t.storage);
    QCOMPARE(names.size(), total);
    // Each GPU has one backend NIC and one PCIe link, and as many NVLinks as its domain has
    // NVLink switches: its host's NVSwitch, or each switch tray of an NVL72 rack.
    const TopologyStats s = computeStats(t);
    QCOMPARE(s.linksByMedium[size_t(LinkMedium::Pcie)], s.gpus);
    std::vector<int> nvlinks(t.gpus.size(), 0);
    for (const Link& l : t.links)
        if (l.medium == LinkMedium::NvLink) {
            QVERIFY(l.a.kind == EntityKind::Gpu && l.b.kind == EntityKind::Switch);
            QVERIFY(t.switches[size_t(l.b.index)].role == SwitchRole::NvSwitch);
            ++nvlinks[size_t(l.a.index)];
        }
    for (size_t g = 0; g < t.gpus.size(); ++g) {
        const Host& h = t.hosts[size_t(t.gpus[g].host)];
        QCOMPARE(nvlinks[g], h.nvlinkDomain == kNone ? 1 : nvlinks.front());
    }
}

// GB200 NVL72 [paper: NVIDIA DGX GB200 user guide]: 18 compute trays of 4 GPUs and 9 NVLink
// switch trays per rack, the rack's 72 GPUs one NVLink domain; a scalable unit of 8 racks.
void TestPresets::nvl72RacksAreOneNvlinkDomainEach() {
    const Topology t = generatePreset("gb200-nvl72-su");
    const TopologyStats s = computeStats(t);
    QCOMPARE(s.gpus, 576LL);
    QCOMPARE(s.hosts, 144LL);
    QCOMPARE(s.switchesByRole[size_t(SwitchRole::NvSwitch)], 8LL * 9);
    QCOMPARE(s.linksByMedium[size_t(LinkMedium::NvLink)], 576LL * 9);
    std::set<int32_t> domains;
    for (size_t h = 0; h < t.hosts.size(); ++h) {
        const Host& host = t.hosts[h];
        QCOMPARE(host.gpuCount, uint8_t(4));
        // The domain is the rack's first host.
        QCOMPARE(t.hosts[size_t(host.nvlinkDomain)].rack, host.rack);
        QCOMPARE(t.hosts[size_t(host.nvlinkDomain)].slot, uint8_t(0));
        domains.insert(host.nvlinkDomain);
    }
    QCOMPARE(domains.size(), size_t(8));
    // GPUs of two trays of a rack share NVLink; of two racks they do not.
    const int32_t firstOfRack0 = 0, lastOfRack0 = 71, firstOfRack1 = 72;
    QVERIFY(t.sameNvlinkDomain(firstOfRack0, lastOfRack0));
    QVERIFY(!t.sameNvlinkDomain(lastOfRack0, firstOfRack1));
    QCOMPARE(t.hosts[size_t(t.gpus[71].host)].rack, t.hosts[size_t(t.gpus[0].host)].rack);
    // An HGX preset's hosts are domains of their own.
    const Topology hgx = generatePreset("dgx-h100-superpod");
    for (const Host& host : hgx.hosts)
        QCOMPARE(host.nvlinkDomain, kNone);
    QVERIFY(hgx.sameNvlinkDomain(0, 7));
    QVERIFY(!hgx.sameNvlinkDomain(7, 8));
}

void TestPresets::superPodsFollowTheReferenceArchitectures_data() {
    QTest::addColumn<QString>("preset");
    QTest::addColumn<qlonglong>("nodes");
    QTest::addColumn<qlonglong>("leaves");
    QTest::addColumn<qlonglong>("spines");
    QTest::addColumn<qlonglong>("leafSpineCables");
    QTest::addColumn<double>("nicGbps");
    QTest::addColumn<qlonglong>("nodesPerUnit");
    // [paper] DGX H100 SuperPOD RA (RA-11333-001) Table 4: 4 SUs of 32 nodes, 32 leaves,
    // 16 spines, 1,024 spine-leaf cables, NDR 400G (128 nodes here, 127 in the RA).
    QTest::newRow("dgx-h100-superpod")
        << "dgx-h100-superpod" << 128LL << 32LL << 16LL << 1024LL << 400.0 << 32LL;
    // [paper] DGX A100 SuperPOD RA (RA-09950-001): 7 SUs of 20 nodes, HDR 200G, 8 rails;
    // two tiers here [assumption]: 56 leaves x 20 uplinks.
    QTest::newRow("dgx-a100-superpod")
        << "dgx-a100-superpod" << 140LL << 56LL << 20LL << 1120LL << 200.0 << 20LL;
    // [paper] DeepSeek ISCA'25: 2,048 H800, a 400G NIC per GPU, two layers of 64-port
    // switches; 32 nodes per rail leaf, 32 uplinks each [derived].
    QTest::newRow("deepseek-mrft-2k")
        << "deepseek-mrft-2k" << 256LL << 64LL << 32LL << 2048LL << 400.0 << 32LL;
    QTest::newRow("deepseek-mpft-2k")
        << "deepseek-mpft-2k" << 256LL << 64LL << 32LL << 2048LL << 400.0 << 32LL;
}

void TestPresets::superPodsFollowTheReferenceArchitectures() {
    QFETCH(QString, preset);
    QFETCH(qlonglong, nodesPerUnit);
    const Topology t = generatePreset(preset.toStdString());
    const TopologyStats s = computeStats(t);
    QTEST(s.hosts, "nodes");
    QCOMPARE(s.gpus, s.hosts * 8);
    QTEST(s.switchesByRole[size_t(SwitchRole::IbLeaf)], "leaves");
    QTEST(s.switchesByRole[size_t(SwitchRole::IbSpine)], "spines");
    QCOMPARE(s.switchesByRole[size_t(SwitchRole::IbCore)], 0LL); // two tiers
    long long leafSpine = 0;
    std::vector<long long> downlinks(t.switches.size(), 0);
    for (const Link& l : t.links) {
        const bool aLeaf = l.a.kind == EntityKind::Switch &&
                           t.switches[size_t(l.a.index)].role == SwitchRole::IbLeaf;
        const bool bSpine = l.b.kind == EntityKind::Switch &&
                            t.switches[size_t(l.b.index)].role == SwitchRole::IbSpine;
        leafSpine += aLeaf && bSpine;
        if (l.a.kind == EntityKind::Nic && t.nics[size_t(l.a.index)].role == NicRole::Backend) {
            QFETCH(double, nicGbps);
            QCOMPARE(double(l.gbps), nicGbps);
            ++downlinks[size_t(l.b.index)];
        }
    }
    QTEST(leafSpine, "leafSpineCables");
    // Rail-optimised: each leaf takes one NIC from every node of its scalable unit.
    for (size_t i = 0; i < t.switches.size(); ++i)
        if (t.switches[i].role == SwitchRole::IbLeaf) QCOMPARE(downlinks[i], nodesPerUnit);
    // Non-blocking, and one pod without a tier above: oversubscription does not apply.
    QCOMPARE(s.podStats.size(), size_t(1));
    QCOMPARE(s.podStats[0].bisectionGbps, s.podStats[0].injectionGbps / 2);
    QVERIFY(std::isnan(s.oversubscription));
    QVERIFY(statsToText(t, s).find("not applicable") != std::string::npos);
    QVERIFY(statsToJson(t, s).value("oversubscription").isNull());
}

void TestPresets::unknownPresetIsRejected() {
    try {
        generatePreset("meta-roce-25k");
        QFAIL("expected an exception");
    } catch (const InputException& e) {
        QVERIFY(QString(e.what()).contains("meta-roce-24k"));
    }
}

QTEST_APPLESS_MAIN(TestPresets)
#include "tst_presets.moc"
