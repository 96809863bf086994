// Derived lookups: children per parent and entities by id agree with the flat arrays.
#include "Presets.h"
#include "TopologyIndex.h"

#include <QTest>

using namespace cs;

class TestTopologyIndex : public QObject {
    Q_OBJECT
private slots:
    void childListsCoverEveryEntity();
    void findByIdReturnsEveryKind_data();
    void findByIdReturnsEveryKind();
    void linksOfAnEndpointMentionIt();
};

void TestTopologyIndex::childListsCoverEveryEntity() {
    const Topology t = generatePreset("small-256");
    const TopologyIndex ix(t);
    size_t hosts = 0;
    for (size_t r = 0; r < t.racks.size(); ++r)
        for (int32_t h : ix.hostsOfRack(int32_t(r))) {
            QCOMPARE(t.hosts[size_t(h)].rack, int32_t(r));
            ++hosts;
        }
    QCOMPARE(hosts, t.hosts.size());
    long long gpus = 0;
    for (size_t p = 0; p < t.pods.size(); ++p)
        gpus += ix.gpusOfPod(int32_t(p));
    QCOMPARE(size_t(gpus), t.gpus.size());
    QVERIFY(ix.hostsOfRack(-1).empty());
    QVERIFY(ix.hostsOfRack(int32_t(t.racks.size())).empty());
}

void TestTopologyIndex::findByIdReturnsEveryKind_data() {
    QTest::addColumn<QString>("id");
    QTest::addColumn<int>("kind");
    QTest::newRow("cluster") << "demo" << int(EntityKind::Cluster);
    QTest::newRow("pod") << "demo.pod1" << int(EntityKind::Pod);
    QTest::newRow("rack") << "demo.pod1.rack3" << int(EntityKind::Rack);
    QTest::newRow("host") << "demo.pod1.rack3.host1" << int(EntityKind::Host);
    QTest::newRow("gpu") << "demo.pod1.rack3.host1.gpu7" << int(EntityKind::Gpu);
    QTest::newRow("nic") << "demo.pod1.rack3.host1.be7" << int(EntityKind::Nic);
    QTest::newRow("switch") << "demo.pod1.ctsw5" << int(EntityKind::Switch);
    QTest::newRow("storage") << "site.tectonic12" << int(EntityKind::Storage);
    QTest::newRow("no such gpu") << "demo.pod1.rack3.host1.gpu8" << -1;
    QTest::newRow("garbage") << "demo.pod1.rack3.host1.gpuX" << -1;
    QTest::newRow("unknown") << "nowhere" << -1;
}

void TestTopologyIndex::findByIdReturnsEveryKind() {
    QFETCH(QString, id);
    QFETCH(int, kind);
    const Topology t = generatePreset("small-256");
    const TopologyIndex ix(t);
    const auto e = ix.find(id.toStdString());
    if (kind < 0) {
        QVERIFY(!e.has_value());
        return;
    }
    QVERIFY(e.has_value());
    QCOMPARE(int(e->kind), kind);
    QCOMPARE(QString::fromStdString(t.nameOf(*e)), id);
}

void TestTopologyIndex::linksOfAnEndpointMentionIt() {
    const Topology t = generatePreset("small-256");
    const TopologyIndex ix(t);
    const Endpoint gpu{EntityKind::Gpu, 17};
    const auto links = ix.linksOf(gpu);
    QCOMPARE(links.size(), size_t(2)); // NVLink to the NVSwitch, PCIe to its NIC
    for (int32_t l : links)
        QVERIFY(t.links[size_t(l)].a == gpu || t.links[size_t(l)].b == gpu);
}

QTEST_APPLESS_MAIN(TestTopologyIndex)
#include "tst_topology_index.moc"
