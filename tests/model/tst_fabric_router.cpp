// Routes over the backend fabric (FabricRouter): every route is a chain of working links from
// the source NIC to the destination NIC along a shortest path, and ECMP spreads flows over the
// equal-cost next hops. Checked against a breadth-first search written here, on a fat tree
// whose leaves share their neighbours (one search serves them all) and with links failed so
// that some leaves no longer do.
#include "FabricRouter.h"
#include "Presets.h"
#include "SiteGenerator.h"
#include "TopologyIndex.h"

#include <QTest>

#include <deque>
#include <map>
#include <set>

using namespace cs;

namespace {
bool isBackendSwitch(const Topology& t, Endpoint e) {
    return e.kind == EntityKind::Switch &&
           networkOf(t.switches[size_t(e.index)].role) == Network::Backend;
}

// Hops between two switches over working backend switch-to-switch links; -1 if none.
int hopsBetween(const Topology& t, int32_t from, int32_t to) {
    std::vector<int> d(t.switches.size(), -1);
    std::deque<int32_t> q{from};
    d[size_t(from)] = 0;
    while (!q.empty()) {
        const int32_t s = q.front();
        q.pop_front();
        for (const Link& k : t.links) {
            if (!(k.gbps > 0) || !isBackendSwitch(t, k.a) || !isBackendSwitch(t, k.b)) continue;
            const int32_t next = k.a.index == s ? k.b.index : k.b.index == s ? k.a.index : -1;
            if (next >= 0 && d[size_t(next)] < 0) {
                d[size_t(next)] = d[size_t(s)] + 1;
                q.push_back(next);
            }
        }
    }
    return d[size_t(to)];
}

// The switch a GPU's backend NIC hangs off.
int32_t leafOf(const Topology& t, int32_t gpu) {
    for (const Link& k : t.links) {
        const Endpoint nicEnd = k.a.kind == EntityKind::Nic ? k.a : k.b;
        const Endpoint other = k.a.kind == EntityKind::Nic ? k.b : k.a;
        if (nicEnd.kind != EntityKind::Nic || !isBackendSwitch(t, other)) continue;
        const Nic& n = t.nics[size_t(nicEnd.index)];
        if (n.role == NicRole::Backend && n.gpu == gpu) return other.index;
    }
    return -1;
}

// The endpoint a directed link (2 x link + direction) leaves from, and arrives at.
Endpoint tail(const Topology& t, int32_t r) {
    const Link& k = t.links[size_t(r / 2)];
    return r % 2 == 0 ? k.a : k.b;
}
Endpoint head(const Topology& t, int32_t r) {
    const Link& k = t.links[size_t(r / 2)];
    return r % 2 == 0 ? k.b : k.a;
}
} // namespace

class TestFabricRouter : public QObject {
    Q_OBJECT
private slots:
    void routesAreShortestChainsOfWorkingLinks_data();
    void routesAreShortestChainsOfWorkingLinks();
    void multiPlaneRoutesLeaveFromTheNicOnTheDestinationsPlane_data();
    void multiPlaneRoutesLeaveFromTheNicOnTheDestinationsPlane();
};

void TestFabricRouter::routesAreShortestChainsOfWorkingLinks_data() {
    QTest::addColumn<int>("failedUplinks");
    QTest::newRow("every link working") << 0;
    QTest::newRow("three leaf uplinks failed") << 3;
}

void TestFabricRouter::routesAreShortestChainsOfWorkingLinks() {
    QFETCH(int, failedUplinks);
    Topology t = generateSite(*presetParams("small-256"));
    // Fail the first uplinks of a few leaves: those leaves' neighbours differ from the
    // others' in their group, so they need searches of their own.
    std::set<int32_t> cut;
    for (size_t l = 0; l < t.links.size() && int(cut.size()) < failedUplinks; ++l) {
        Link& k = t.links[l];
        if (!isBackendSwitch(t, k.a) || !isBackendSwitch(t, k.b)) continue;
        const int32_t leaf = t.switches[size_t(k.a.index)].role == SwitchRole::Rtsw   ? k.a.index
                             : t.switches[size_t(k.b.index)].role == SwitchRole::Rtsw ? k.b.index
                                                                                      : -1;
        if (leaf < 0 || cut.count(leaf)) continue;
        k.gbps = 0;
        cut.insert(leaf);
    }
    QCOMPARE(int(cut.size()), failedUplinks);
    const TopologyIndex ix(t);
    FabricRouter router(t, ix);
    const auto gpus = int32_t(t.gpus.size());
    int pairs = 0, spread = 0;
    for (int32_t src = 0; src < gpus; src += 7)
        for (int32_t dst = 3; dst < gpus; dst += 29) {
            if (t.gpus[size_t(src)].host == t.gpus[size_t(dst)].host) continue;
            const int32_t a = leafOf(t, src), b = leafOf(t, dst);
            const int hops = hopsBetween(t, a, b);
            std::set<std::vector<int32_t>> distinct;
            for (uint64_t hash = 0; hash < 8; ++hash) {
                std::vector<int32_t> path;
                QVERIFY(router.route(src, dst, hash * 7919 + uint64_t(src), path));
                QCOMPARE(int(path.size()), hops + 2); // NIC up, the switches' hops, NIC down
                for (size_t i = 0; i < path.size(); ++i) {
                    QVERIFY(t.links[size_t(path[i] / 2)].gbps > 0);
                    if (i + 1 < path.size()) QVERIFY(head(t, path[i]) == tail(t, path[i + 1]));
                }
                QVERIFY(tail(t, path.front()).kind == EntityKind::Nic);
                QVERIFY(head(t, path.back()).kind == EntityKind::Nic);
                distinct.insert(path);
            }
            ++pairs;
            spread += hops >= 2 && distinct.size() > 1;
        }
    QVERIFY(pairs > 100);
    QVERIFY2(spread > pairs / 4, qPrintable(QString("%1 of %2 pairs").arg(spread).arg(pairs)));
}

void TestFabricRouter::multiPlaneRoutesLeaveFromTheNicOnTheDestinationsPlane_data() {
    QTest::addColumn<QString>("preset");
    QTest::addColumn<int>("spinesPerLeaf");
    QTest::addColumn<bool>("relayed"); // GPU 0 to a GPU 3 leaves from its host's NIC 3
    QTest::newRow("multi-plane") << "deepseek-mpft-2k" << 4 << true;
    QTest::newRow("multi-rail, one plane") << "deepseek-mrft-2k" << 32 << false;
}

void TestFabricRouter::multiPlaneRoutesLeaveFromTheNicOnTheDestinationsPlane() {
    QFETCH(QString, preset);
    QFETCH(int, spinesPerLeaf);
    QFETCH(bool, relayed);
    const Topology t = generateSite(*presetParams(preset.toStdString()));
    // Each leaf's spines; in the multi-plane fabric only its rail's plane.
    std::map<int32_t, std::set<int32_t>> spinesOf;
    for (const Link& k : t.links)
        if (isBackendSwitch(t, k.a) && isBackendSwitch(t, k.b))
            spinesOf[k.a.index].insert(k.b.index), spinesOf[k.b.index].insert(k.a.index);
    for (size_t s = 0; s < t.switches.size(); ++s)
        if (t.switches[s].role == SwitchRole::IbLeaf)
            QCOMPARE(int(spinesOf[int32_t(s)].size()), spinesPerLeaf);
    const TopologyIndex ix(t);
    FabricRouter router(t, ix);
    // GPU 0 of host 0 to GPU 3 of host 100 (another scalable unit), and to GPU 0 there.
    const int32_t src = 0, dst = 100 * 8 + 3, sameRail = 100 * 8;
    QCOMPARE(int(t.gpus[size_t(dst)].local), 3);
    for (uint64_t hash = 0; hash < 8; ++hash) {
        std::vector<int32_t> path;
        QVERIFY(router.route(src, dst, hash, path));
        QCOMPARE(path.size(), size_t(4)); // NIC up, leaf to spine, spine to leaf, NIC down
        const Endpoint from = tail(t, path.front());
        QVERIFY(from.kind == EntityKind::Nic);
        QCOMPARE(t.nics[size_t(from.index)].gpu, relayed ? 3 : 0);
        QCOMPARE(head(t, path.front()).index, relayed ? leafOf(t, 3) : leafOf(t, 0));
        for (size_t i = 0; i + 1 < path.size(); ++i)
            QVERIFY(head(t, path[i]) == tail(t, path[i + 1]));
        path.clear();
        QVERIFY(router.route(src, sameRail, hash, path));
        QCOMPARE(t.nics[size_t(tail(t, path.front()).index)].gpu, 0); // its own NIC
    }
    QVERIFY(router.whyUnreachable(src, dst).empty());

    // A leaf cut off by failures is not relayed around: GPU 0's leaf loses every uplink.
    Topology cut = t;
    const int32_t leaf0 = leafOf(cut, 0);
    for (Link& k : cut.links)
        if (isBackendSwitch(cut, k.a) && isBackendSwitch(cut, k.b) &&
            (k.a.index == leaf0 || k.b.index == leaf0))
            k.gbps = 0;
    const TopologyIndex cutIx(cut);
    FabricRouter cutRouter(cut, cutIx);
    std::vector<int32_t> path;
    QVERIFY(!cutRouter.route(src, sameRail, 1, path));
    QVERIFY(!cutRouter.route(src, dst, 1, path));
    QVERIFY(!cutRouter.whyUnreachable(src, dst).empty());
}

QTEST_APPLESS_MAIN(TestFabricRouter)
#include "tst_fabric_router.moc"
