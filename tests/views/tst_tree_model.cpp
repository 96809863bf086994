// The item models of the views pass QAbstractItemModelTester, and the tree finds entities.
#include "PropertyTableModel.h"
#include "TopologyTreeModel.h"

#include "Presets.h"

#include <QAbstractItemModelTester>
#include <QTest>

using namespace cs;
using cs::views::TopologyTreeModel;

namespace {
std::unique_ptr<TopologyDocument> doc(const char* preset) {
    return openTopology(preset, {});
}

// Walks every item below `parent` down to `depth`, as a view expanding it would.
int walk(const QAbstractItemModel& m, const QModelIndex& parent, int depth) {
    int n = 0;
    for (int r = 0; r < m.rowCount(parent); ++r) {
        const QModelIndex i = m.index(r, 0, parent);
        ++n;
        if (m.parent(i) != parent) return -1;
        if (depth > 0) {
            const int below = walk(m, i, depth - 1);
            if (below < 0) return -1;
            n += below;
        }
    }
    return n;
}
} // namespace

class TestTreeModel : public QObject {
    Q_OBJECT
private slots:
    void passesModelTester_data();
    void passesModelTester();
    void countsMatchTheTopology();
    void indexOfFindsEntities();
    void propertyModelPassesTester();
    void foreignIdsKeepTheirSegments();
};

void TestTreeModel::passesModelTester_data() {
    QTest::addColumn<QString>("preset");
    QTest::newRow("small-256") << "small-256";
    QTest::newRow("meta-both") << "meta-both";
}

void TestTreeModel::passesModelTester() {
    QFETCH(QString, preset);
    const auto d = doc(qPrintable(preset));
    TopologyTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setDocument(d.get());
    if (QTest::currentTestFailed()) return;
    // The tester walks the top levels itself; reach the GPUs of the first pod too.
    const QModelIndex pod = model.index(0, 0, model.index(0, 0));
    QVERIFY(walk(model, pod, 2) > 0);
    model.setDocument(nullptr);
    QCOMPARE(model.rowCount(), 0);
}

void TestTreeModel::countsMatchTheTopology() {
    const auto d = doc("meta-roce-24k");
    TopologyTreeModel model;
    model.setDocument(d.get());
    QCOMPARE(model.rowCount(), 1);
    const QModelIndex cluster = model.index(0, 0);
    QCOMPARE(model.rowCount(cluster), 8);
    const QModelIndex pod = model.index(3, 0, cluster);
    QCOMPARE(model.rowCount(pod), 192);
    QCOMPARE(model.index(3, TopologyTreeModel::GpusColumn, cluster).data().toString(),
             QLocale().toString(3072));
    const QModelIndex rack = model.index(191, 0, pod);
    QCOMPARE(model.rowCount(rack), 2);
    const QModelIndex host = model.index(1, 0, rack);
    QCOMPARE(model.rowCount(host), 8);
    QCOMPARE(model.index(7, 0, host).data().toString(), QString("gpu7"));
    QCOMPARE(model.index(7, 0, host).data(Qt::ToolTipRole).toString(),
             QString("roce.pod3.rack191.host1.gpu7"));
}

void TestTreeModel::indexOfFindsEntities() {
    const auto d = doc("small-256");
    TopologyTreeModel model;
    model.setDocument(d.get());
    for (const char* id : {"demo.pod1.rack5.host1.gpu3", "demo.pod1.rack5", "demo.pod0", "demo"}) {
        const Endpoint e = *d->index().find(id);
        const QModelIndex i = model.indexOf(e);
        QVERIFY2(i.isValid(), id);
        QCOMPARE(TopologyTreeModel::entityOf(i), e);
        QCOMPARE(i.data(Qt::ToolTipRole).toString(), QString(id));
    }
    // A NIC is shown at its GPU; a rack switch at its rack.
    const QModelIndex nic = model.indexOf(*d->index().find("demo.pod1.rack5.host1.be3"));
    QCOMPARE(nic.data(Qt::ToolTipRole).toString(), QString("demo.pod1.rack5.host1.gpu3"));
    const QModelIndex rtsw = model.indexOf(*d->index().find("demo.pod1.rack5.rtsw"));
    QCOMPARE(rtsw.data(Qt::ToolTipRole).toString(), QString("demo.pod1.rack5"));
    QVERIFY(!model.indexOf({EntityKind::Gpu, 1 << 30}).isValid());
}

void TestTreeModel::foreignIdsKeepTheirSegments() {
    // An InfraGraph file names hosts "server.1": shown whole, not as "1", and passing the tester.
    const auto d =
        openTopology({}, CS_SOURCE_DIR
                     "/tests/fixtures/real/infragraph-two-tier-clos-fabric-infrastructure.yaml");
    TopologyTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setDocument(d.get());
    const QModelIndex pod = model.index(0, 0, model.index(0, 0));
    QCOMPARE(pod.data().toString(), QString("pod0")); // shares "generic-clos-fabric." with it
    const QModelIndex rack = model.index(1, 0, pod);
    QCOMPARE(rack.data().toString(), QString("leafsw.1.rack"));
    QCOMPARE(model.index(0, 0, rack).data().toString(), QString("server.1"));
    // A generated id still drops what it shares with its parent's.
    const auto small = doc("small-256");
    model.setDocument(small.get());
    const QModelIndex smallPod = model.index(1, 0, model.index(0, 0));
    QCOMPARE(model.index(5, 0, smallPod).data().toString(), QString("rack5"));
}

void TestTreeModel::propertyModelPassesTester() {
    const auto d = doc("small-256");
    views::PropertyTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    for (EntityKind k :
         {EntityKind::Cluster, EntityKind::Pod, EntityKind::Rack, EntityKind::Host, EntityKind::Gpu,
          EntityKind::Nic, EntityKind::Switch, EntityKind::Storage, EntityKind::Link}) {
        model.setProperties(entityProperties(*d, {k, 0}));
        QVERIFY(model.rowCount() >= 2);
        QCOMPARE(model.index(1, 1).data().toString(), QString::fromUtf8(toString(k).data()));
    }
    model.setProperties({});
    QCOMPARE(model.rowCount(), 0);
}

QTEST_MAIN(TestTreeModel)
#include "tst_tree_model.moc"
