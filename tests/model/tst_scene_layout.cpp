// Layouts, level of detail and picking, without a display: the geometry the 3D view draws
// and the lookups it picks with.
#include "CableRoutes.h"
#include "CableSegments.h"
#include "FrameValues.h"
#include "Presets.h"
#include "SceneDetail.h"
#include "SceneLabels.h"
#include "SceneLayout.h"
#include "TopologyDocument.h"
#include "TopologyIndex.h"

#include <QTest>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <random>
#include <set>

using namespace cs;

namespace {
struct Fixture {
    Topology t = generatePreset("small-256");
    TopologyIndex ix{t};
};

// A ray from high above straight down onto a point.
Ray downOnto(Vec3 p) {
    return {{p.x, p.y, p.z + 500}, {0, 0, -1}};
}
} // namespace

Q_DECLARE_METATYPE(LayoutKind)

class TestSceneLayout : public QObject {
    Q_OBJECT
private slots:
    void everyEntityHasAPlace_data();
    void everyEntityHasAPlace();
    void racksDoNotOverlap_data();
    void racksDoNotOverlap();
    void largeSitesStandAsAGridOfPods_data();
    void largeSitesStandAsAGridOfPods();
    void bundlesCoverInterGroupLinks_data();
    void bundlesCoverInterGroupLinks();
    void detailOpensRacksLargeOnScreen();
    void aSmallFabricOpensWholeAtTheOverview();
    void pickFindsWhatIsUnderTheRay_data();
    void pickFindsWhatIsUnderTheRay();
    void cablesRunBehindTheRacks();
    void sharedStretchesDrawOnceAndShowTheHottest();
    void nicsStandOnTheirHostsFront();
    void nvl72SwitchTraysStandBetweenTheComputeTrays();
    void labelsNeitherCollideNorCrowd();
    void aggregatesFollowTheMode();
    void outliersAreAMinorityFarFromTheirRack();
    void gpusColourByAnyStoredMetric();
    void rayGeometry();
};

void TestSceneLayout::everyEntityHasAPlace_data() {
    QTest::addColumn<LayoutKind>("kind");
    QTest::newRow("floor") << LayoutKind::Floor;
    QTest::newRow("fabric") << LayoutKind::Fabric;
}

void TestSceneLayout::everyEntityHasAPlace() {
    QFETCH(LayoutKind, kind);
    Fixture f;
    const SceneLayout L = computeLayout(f.t, f.ix, kind);
    for (const Box& b : L.gpus)
        QVERIFY(b.drawn());
    for (const Box& b : L.hosts)
        QVERIFY(b.drawn());
    for (const Box& b : L.storage)
        QVERIFY(b.drawn());
    // Each GPU sits inside its rack's footprint (x, y) in both layouts.
    for (size_t g = 0; g < f.t.gpus.size(); ++g) {
        const Box& rack = L.racks[size_t(f.t.hosts[size_t(f.t.gpus[g].host)].rack)];
        const Vec3 c = L.gpus[g].center;
        QVERIFY(std::fabs(c.x - rack.center.x) <= rack.size.x / 2 + 0.1f);
        QVERIFY(std::fabs(c.y - rack.center.y) <= rack.size.y / 2 + 0.1f);
    }
    QVERIFY(L.bounds.valid());
    for (const Bounds& b : L.podBounds)
        QVERIFY(b.valid());
    if (kind == LayoutKind::Fabric) {
        // Tiers stack: rack switches above GPUs, spines above them, cores on top.
        float leaf = 0, spine = 0, core = 0;
        for (size_t s = 0; s < f.t.switches.size(); ++s) {
            const float z = L.switches[s].center.z;
            if (f.t.switches[s].role == SwitchRole::Rtsw) leaf = z;
            if (f.t.switches[s].role == SwitchRole::Ctsw) spine = z;
            if (f.t.switches[s].role == SwitchRole::Atsw) core = z;
        }
        QVERIFY(0 < leaf && leaf < spine && spine < core);
    }
}

void TestSceneLayout::racksDoNotOverlap_data() {
    everyEntityHasAPlace_data();
}

void TestSceneLayout::racksDoNotOverlap() {
    QFETCH(LayoutKind, kind);
    const Topology t = generatePreset("meta-both");
    const TopologyIndex ix(t);
    const SceneLayout L = computeLayout(t, ix, kind);
    // Sort drawn racks by x and sweep: no two footprints intersect.
    std::vector<int32_t> order;
    for (size_t r = 0; r < L.racks.size(); ++r)
        if (L.racks[r].drawn()) order.push_back(int32_t(r));
    std::sort(order.begin(), order.end(), [&](int32_t a, int32_t b) {
        return L.racks[size_t(a)].center.x < L.racks[size_t(b)].center.x;
    });
    for (size_t i = 0; i < order.size(); ++i) {
        const Box& a = L.racks[size_t(order[i])];
        for (size_t j = i + 1; j < order.size(); ++j) {
            const Box& b = L.racks[size_t(order[j])];
            if (b.center.x - a.center.x >= (a.size.x + b.size.x) / 2) break;
            const bool overlapY = std::fabs(a.center.y - b.center.y) < (a.size.y + b.size.y) / 2;
            QVERIFY2(!overlapY, qPrintable(QString("%1 and %2")
                                               .arg(t.racks[size_t(order[i])].name.c_str(),
                                                    t.racks[size_t(order[j])].name.c_str())));
        }
    }
}

void TestSceneLayout::largeSitesStandAsAGridOfPods_data() {
    QTest::addColumn<int>("pods");
    QTest::addColumn<int>("podRows"); // 0: more than one
    QTest::newRow("16 pods: one line") << 16 << 1;
    QTest::newRow("17 pods: a grid") << 17 << 0;
    QTest::newRow("64 pods: a grid") << 64 << 0;
}

// The fabric layout puts a cluster of many pods in rows of pods: a field about twice as wide as
// deep, no two pods on each other, every pod's racks inside its own footprint; up to 16 pods
// stay in one line.
void TestSceneLayout::largeSitesStandAsAGridOfPods() {
    QFETCH(int, pods);
    QFETCH(int, podRows);
    TopologyReadOptions o;
    o.sets = {"generator.clusters[0].pods=" + std::to_string(pods),
              "generator.clusters[0].racksPerPod=16", "generator.clusters[0].coreRadix=4096"};
    const auto doc = openTopology("meta-roce-24k", {}, o);
    const Topology& t = doc->topology();
    QCOMPARE(int(t.pods.size()), pods);
    const SceneLayout L = computeLayout(t, doc->index(), LayoutKind::Fabric);
    // Each pod's footprint from its racks alone.
    std::vector<Bounds> racksOf(t.pods.size());
    for (size_t r = 0; r < t.racks.size(); ++r)
        if (t.podOfRack(int32_t(r)) != kNone && L.racks[r].drawn())
            racksOf[size_t(t.podOfRack(int32_t(r)))].add(L.racks[r]);
    Bounds site;
    std::set<int> rowsY;
    for (size_t a = 0; a < racksOf.size(); ++a) {
        QVERIFY(racksOf[a].valid());
        site.add(racksOf[a].min), site.add(racksOf[a].max);
        rowsY.insert(int(std::lround(racksOf[a].min.y)));
        for (size_t b = a + 1; b < racksOf.size(); ++b) {
            const bool apartX =
                racksOf[a].max.x < racksOf[b].min.x || racksOf[b].max.x < racksOf[a].min.x;
            const bool apartY =
                racksOf[a].max.y < racksOf[b].min.y || racksOf[b].max.y < racksOf[a].min.y;
            QVERIFY2(apartX || apartY, qPrintable(QString("pods %1 and %2").arg(a).arg(b)));
        }
    }
    if (podRows == 1) {
        QCOMPARE(int(rowsY.size()), 1);
        return;
    }
    QVERIFY(rowsY.size() > 1);
    const float width = site.max.x - site.min.x, depth = site.max.y - site.min.y;
    QVERIFY2(width > depth && width < 4 * depth,
             qPrintable(QString("%1 m by %2 m").arg(width).arg(depth)));
    // The cores stand above the field, within it.
    int cores = 0;
    for (size_t s = 0; s < t.switches.size(); ++s)
        if (t.switches[s].role == SwitchRole::Atsw) {
            const Box& b = L.switches[s];
            QVERIFY(b.center.x >= site.min.x && b.center.x <= site.max.x);
            QVERIFY(b.center.y >= site.min.y && b.center.y <= site.max.y);
            ++cores;
        }
    QVERIFY(cores > 0);
}

void TestSceneLayout::bundlesCoverInterGroupLinks_data() {
    everyEntityHasAPlace_data();
}

void TestSceneLayout::bundlesCoverInterGroupLinks() {
    QFETCH(LayoutKind, kind);
    const Topology t = generatePreset("meta-roce-24k");
    const TopologyIndex ix(t);
    const SceneLayout L = computeLayout(t, ix, kind);
    size_t bundled = 0;
    for (size_t k = 0; k < L.bundles.a.size(); ++k) {
        const auto m = L.bundles.members.of(int32_t(k));
        QVERIFY(!m.empty());
        for (int32_t l : m)
            QCOMPARE(L.bundles.bundleOf[size_t(l)], int32_t(k));
        bundled += m.size();
    }
    size_t expected = 0;
    for (int32_t b : L.bundles.bundleOf)
        expected += b != kNone;
    QCOMPARE(bundled, expected);
    // Far away, tens of thousands of fibres become a few thousand bundles.
    QVERIFY2(L.bundles.a.size() * 10 < t.links.size(),
             qPrintable(QString::number(L.bundles.a.size())));
    // Every RTSW-CTSW uplink is in some bundle.
    for (size_t i = 0; i < t.links.size(); ++i) {
        const Link& l = t.links[i];
        if (l.a.kind == EntityKind::Switch && l.b.kind == EntityKind::Switch &&
            t.switches[size_t(l.a.index)].role == SwitchRole::Rtsw &&
            t.switches[size_t(l.b.index)].role == SwitchRole::Ctsw)
            QVERIFY(L.bundles.bundleOf[i] != kNone);
    }
}

void TestSceneLayout::detailOpensRacksLargeOnScreen() {
    Fixture f;
    const SceneLayout L = computeLayout(f.t, f.ix, LayoutKind::Floor);
    const Vec3 c = L.racks[5].center;
    // From high above the hall every rack is a few pixels: nothing opens.
    const SceneDetail farD = detailFor(L, lookAt(c + Vec3{0, -200, 200}, c, 30, 16.f / 9, 720));
    QVERIFY(!farD.near);
    QVERIFY(farD.openRacks.empty());
    QVERIFY(farD.cells); // a rack is still a few pixels: its GPUs' cells show
    // From so far that the largest rack is under kCellRackPixels, the tops show the racks'
    // aggregates; a little closer, where it is over, the cells again.
    const float pxPerM = 720 / (2 * std::tan(15 * float(M_PI) / 180));
    const float rackM = std::max({L.racks[5].size.x, L.racks[5].size.y, L.racks[5].size.z});
    const Vec3 away = Vec3{0, -1, 1} * (1 / std::sqrt(2.f));
    const float cellsEndM = rackM * pxPerM / kCellRackPixels; // the nearest rack's distance
    QVERIFY(!detailFor(L, lookAt(c + away * (cellsEndM * 3), c, 30, 16.f / 9, 720)).cells);
    QVERIFY(detailFor(L, lookAt(c + away * (cellsEndM * 0.5f), c, 30, 16.f / 9, 720)).cells);
    // A few metres in front of rack 5, looking at it: it opens, and only racks that are large
    // on screen and in front of the camera open with it.
    const SceneView v = lookAt(c + Vec3{0, -4, 1}, c, 30, 16.f / 9, 720);
    const SceneDetail nearD = detailFor(L, v);
    QVERIFY(nearD.near);
    QVERIFY(nearD.isOpen(5));
    QVERIFY(nearD.openRacks.size() <= kMaxOpenRacks);
    const float pxPerRadian = v.heightPx / (2 * v.tanHalfHeight);
    for (int32_t r : nearD.openRacks) {
        const Box& b = L.racks[size_t(r)];
        const float depth = (b.center - v.eye).dot(v.forward);
        QVERIFY(depth > 0);
        QVERIFY(std::max({b.size.x, b.size.y, b.size.z}) / depth * pxPerRadian >= kOpenRackPixels);
    }
    // Turned around, the same spot sees other racks, never rack 5 behind it.
    const SceneDetail behind = detailFor(L, lookAt(v.eye, v.eye - (c - v.eye), 30, 16.f / 9, 720));
    QVERIFY(!behind.isOpen(5));
    // Links drawn one by one are exactly those touching members of open racks.
    for (int32_t l : openLinks(f.t, f.ix, L, nearD)) {
        const Link& link = f.t.links[size_t(l)];
        bool touches = false;
        for (Endpoint e : {link.a, link.b}) {
            int32_t rack = kNone;
            if (e.kind == EntityKind::Gpu)
                rack = f.t.hosts[size_t(f.t.gpus[size_t(e.index)].host)].rack;
            if (e.kind == EntityKind::Nic)
                rack = f.t.hosts[size_t(f.t.nics[size_t(e.index)].host)].rack;
            if (e.kind == EntityKind::Switch) rack = f.t.switches[size_t(e.index)].rack;
            if (e.kind == EntityKind::Storage) rack = f.t.storage[size_t(e.index)].rack;
            touches = touches || (rack != kNone && nearD.isOpen(rack));
        }
        QVERIFY(touches);
    }
}

void TestSceneLayout::aSmallFabricOpensWholeAtTheOverview() {
    // InfraGraph's 16-GPU two-tier Clos, seen whole from far enough for its racks to be small:
    // every rack opens, so every switch and link is drawn on its own, and no bundle is drawn
    // or picked in their place (it drew as 3 spines and one line before).
    const auto doc =
        openTopology({}, CS_SOURCE_DIR
                     "/tests/fixtures/real/infragraph-two-tier-clos-fabric-infrastructure.yaml");
    const Topology& t = doc->topology();
    const SceneLayout L = computeLayout(t, doc->index(), LayoutKind::Fabric);
    QVERIFY(L.racks.size() <= kSmallFabricRacks);
    const Vec3 c = L.bounds.center();
    const SceneView v = lookAt(c + Vec3{0, -60, 20}, c, 30, 16.f / 9, 900);
    const float pxPerRadian = v.heightPx / (2 * v.tanHalfHeight);
    int drawn = 0;
    for (size_t r = 0; r < L.racks.size(); ++r) {
        const Box& b = L.racks[r];
        if (!b.drawn()) continue;
        ++drawn;
        // small on screen: a big fabric would keep these closed
        QVERIFY(std::max({b.size.x, b.size.y, b.size.z}) / (b.center - v.eye).dot(v.forward) *
                    pxPerRadian <
                kOpenRackPixels);
    }
    const SceneDetail d = detailFor(L, v);
    QCOMPARE(int(d.openRacks.size()), drawn);
    const std::vector<int32_t> open = openLinks(t, doc->index(), L, d);
    for (size_t l = 0; l < t.links.size(); ++l)
        if (L.linkDrawn[l]) QVERIFY(std::binary_search(open.begin(), open.end(), int32_t(l)));
    const std::vector<uint8_t> asLinks = bundlesDrawnAsLinks(L, open);
    QVERIFY(!asLinks.empty());
    QVERIFY(std::all_of(asLinks.begin(), asLinks.end(), [](uint8_t x) { return x == 1; }));
    // A ray down one leaf-spine link's middle picks that link, not a bundle.
    for (size_t l = 0; l < t.links.size(); ++l) {
        if (t.links[l].medium != LinkMedium::Fibre || !L.linkDrawn[l]) continue;
        const CablePath path = linkPath(L, int32_t(l));
        const Vec3 mid = (path.points[0] + path.points[size_t(path.count - 1)]) * 0.5f;
        const auto hit = pickRay(t, doc->index(), L, d, {v.eye, mid - v.eye}, 0.002f);
        QVERIFY(hit);
        QCOMPARE(hit->bundle, kNone);
        QVERIFY(hit->entity.kind == EntityKind::Link);
        break;
    }
}

void TestSceneLayout::pickFindsWhatIsUnderTheRay_data() {
    QTest::addColumn<QString>("id");
    QTest::addColumn<bool>("near");
    QTest::addColumn<int>("expectKind");
    QTest::newRow("closed rack") << "demo.pod1.rack3" << false << int(EntityKind::Rack);
    QTest::newRow("rack switch on top of an open rack")
        << "demo.pod1.rack3" << true << int(EntityKind::Switch);
    QTest::newRow("storage rack") << "site.storage-rack1" << false << int(EntityKind::Rack);
}

void TestSceneLayout::pickFindsWhatIsUnderTheRay() {
    QFETCH(QString, id);
    QFETCH(bool, near);
    QFETCH(int, expectKind);
    Fixture f;
    const SceneLayout L = computeLayout(f.t, f.ix, LayoutKind::Floor);
    const int32_t rack = f.ix.find(id.toStdString())->index;
    const Vec3 c = L.racks[size_t(rack)].center;
    const SceneDetail d = detailFor(L, near ? lookAt(c + Vec3{0, -2, 2}, c, 30, 16.f / 9, 720)
                                            : lookAt(c + Vec3{0, -300, 300}, c, 30, 16.f / 9, 720));
    const auto hit = pickRay(f.t, f.ix, L, d, downOnto(c), 0.f);
    QVERIFY(hit.has_value());
    QCOMPARE(int(hit->entity.kind), expectKind);
    if (hit->entity.kind == EntityKind::Rack) QCOMPARE(hit->entity.index, rack);
    if (hit->entity.kind == EntityKind::Switch)
        QCOMPARE(f.t.switches[size_t(hit->entity.index)].rack, rack);
    // A ray level with the cable tray, above every box, meets a bundle's run there.
    const size_t k = L.bundles.a.size() / 2;
    const Vec3 a{L.bundles.a[k].x, L.bundles.a[k].y, L.trayHeight},
        b{L.bundles.b[k].x, L.bundles.b[k].y, L.trayHeight};
    const Vec3 mid = (a + b) * 0.5f;
    Vec3 across{-(b - a).y, (b - a).x, 0};
    across = across * (1.f / std::max(1e-3f, across.length()));
    const Ray level{mid - across * 100.f, across};
    const auto cable =
        pickRay(f.t, f.ix, L, detailFor(L, lookAt(c + Vec3{0, -300, 300}, c, 30, 16.f / 9, 720)),
                level, 0.001f);
    QVERIFY(cable.has_value());
    QCOMPARE(int(cable->entity.kind), int(EntityKind::Link));
    QVERIFY(cable->bundle != kNone);
    // Nothing above empty floor far from everything.
    QVERIFY(!pickRay(f.t, f.ix, L, d, downOnto({-1000, -1000, 0}), 0.f).has_value());
}

void TestSceneLayout::cablesRunBehindTheRacks() {
    Fixture f;
    const SceneLayout L = computeLayout(f.t, f.ix, LayoutKind::Floor);
    auto inFootprint = [&](Vec3 p) {
        for (const Box& b : L.racks)
            if (b.drawn() && std::fabs(p.x - b.center.x) < b.size.x / 2 &&
                std::fabs(p.y - b.center.y) < b.size.y / 2)
                return true;
        return false;
    };
    int inside = 0, between = 0;
    for (size_t i = 0; i < f.t.links.size(); ++i) {
        if (!L.linkDrawn[i]) continue;
        const CablePath p = linkPath(L, int32_t(i));
        QVERIFY(p.count >= 2);
        QCOMPARE(p.points[0].x, L.linkA[i].x);
        QCOMPARE(p.points[size_t(p.count - 1)].y, L.linkB[i].y);
        const int32_t ra = L.linkRackA[i], rb = L.linkRackB[i];
        if (ra != kNone && ra == rb) {
            // Inside a rack: every bend is on the rack's rear face, none in front of the GPUs.
            ++inside;
            const float rear = L.racks[size_t(ra)].center.y + L.racks[size_t(ra)].size.y / 2;
            for (int k = 1; k + 1 < p.count; ++k)
                QCOMPARE(p.points[size_t(k)].y, rear);
            continue;
        }
        if (ra == kNone || rb == kNone) continue;
        // Between racks: the run along the tray is over an aisle, never over a rack.
        ++between;
        for (int k = 0; k < p.count; ++k)
            if (p.points[size_t(k)].z >= L.trayHeight)
                QVERIFY2(!inFootprint(p.points[size_t(k)]), qPrintable(QString::number(i)));
    }
    QVERIFY(inside > 100);
    QVERIFY(between > 100);
    // The fabric layout draws straight lines.
    const SceneLayout F = computeLayout(f.t, f.ix, LayoutKind::Fabric);
    QCOMPARE(linkPath(F, 0).count, 2);
}

void TestSceneLayout::sharedStretchesDrawOnceAndShowTheHottest() {
    const Topology t = generatePreset("meta-roce-24k");
    const TopologyIndex ix(t);
    const SceneLayout L = computeLayout(t, ix, LayoutKind::Floor);
    // The links drawn one by one at a close-up of a rack.
    const Vec3 c = L.racks[40].center;
    const SceneDetail d = detailFor(L, lookAt(c + Vec3{0, -6, 4}, c, 30, 16.f / 9, 720));
    const std::vector<int32_t> links = openLinks(t, ix, L, d);
    QVERIFY(links.size() > 100);
    const CableSegments s = cableSegments(L, links);
    QCOMPARE(s.links.offsets.size(), s.a.size() + 1);
    // No segment twice, none of zero length; every stretch of every path is one of them, and
    // lists that path's link.
    auto mm = [](Vec3 p) {
        return std::array<long, 3>{std::lround(double(p.x) * 1000), std::lround(double(p.y) * 1000),
                                   std::lround(double(p.z) * 1000)};
    };
    using End = std::array<long, 3>;
    auto keyOf = [&](Vec3 a, Vec3 b) {
        const End x = mm(a), y = mm(b);
        return x < y ? std::make_pair(x, y) : std::make_pair(y, x);
    };
    std::map<std::pair<End, End>, int32_t> index;
    for (size_t k = 0; k < s.a.size(); ++k) {
        const auto key = keyOf(s.a[k], s.b[k]);
        QVERIFY(key.first != key.second);
        QVERIFY(index.emplace(key, int32_t(k)).second);
    }
    double drawnM = 0, pathsM = 0;
    for (size_t k = 0; k < s.a.size(); ++k)
        drawnM += (s.b[k] - s.a[k]).length();
    for (int32_t l : links) {
        const CablePath p = linkPath(L, l);
        for (int i = 0; i + 1 < p.count; ++i) {
            const Vec3 a = p.points[size_t(i)], b = p.points[size_t(i + 1)];
            pathsM += (b - a).length();
            if (keyOf(a, b).first == keyOf(a, b).second) continue; // a bend of no length
            const auto it = index.find(keyOf(a, b));
            QVERIFY(it != index.end());
            const auto members = s.links.of(it->second);
            QVERIFY(std::find(members.begin(), members.end(), l) != members.end());
        }
    }
    // What sharing saves: the trays of a close-up are drawn a fraction of their paths' length.
    qInfo("%zu links: %.0f m of paths drawn as %.0f m", links.size(), pathsM, drawnM);
    QVERIFY(drawnM < 0.5 * pathsM);

    // Each segment takes the largest value of its links; NaN only where all are NaN.
    size_t shared = 0;
    while (shared < s.a.size() && s.links.of(int32_t(shared)).size() < 2)
        ++shared;
    QVERIFY(shared < s.a.size());
    const int32_t cool = s.links.of(int32_t(shared))[0], hot = s.links.of(int32_t(shared))[1];
    std::vector<float> values(t.links.size(), std::nanf(""));
    values[size_t(cool)] = 0.2f;
    values[size_t(hot)] = 0.9f;
    std::vector<float> out;
    hottestPerSegment(s, values, out);
    QCOMPARE(out.size(), s.a.size());
    for (size_t k = 0; k < s.a.size(); ++k) {
        const auto m = s.links.of(int32_t(k));
        const bool hasHot = std::find(m.begin(), m.end(), hot) != m.end();
        const bool hasCool = std::find(m.begin(), m.end(), cool) != m.end();
        if (hasHot)
            QCOMPARE(out[k], 0.9f);
        else if (hasCool)
            QCOMPARE(out[k], 0.2f);
        else
            QVERIFY(std::isnan(out[k]));
    }
}

// An NVL72 rack as NVIDIA builds it: 8 compute trays, the 9 NVLink switch trays, then 10
// compute trays, each inside the rack and none overlapping another.
void TestSceneLayout::nvl72SwitchTraysStandBetweenTheComputeTrays() {
    const Topology t = generatePreset("gb200-nvl72-su");
    const TopologyIndex ix(t);
    const SceneLayout L = computeLayout(t, ix, LayoutKind::Floor);
    const int32_t rack = t.hosts.front().rack;
    std::vector<std::pair<float, bool>> stack; // (height, is a switch tray)
    std::vector<Box> boxes;
    for (int32_t h : ix.hostsOfRack(rack))
        stack.push_back({L.hosts[size_t(h)].center.z, false}), boxes.push_back(L.hosts[size_t(h)]);
    for (size_t s = 0; s < t.switches.size(); ++s)
        if (t.switches[s].rack == rack && t.switches[s].role == SwitchRole::NvSwitch) {
            QVERIFY(L.switches[s].drawn());
            QCOMPARE(L.rackOfSwitch[s], rack);
            stack.push_back({L.switches[s].center.z, true}), boxes.push_back(L.switches[s]);
        }
    QCOMPARE(stack.size(), size_t(18 + 9));
    std::sort(stack.begin(), stack.end());
    for (size_t k = 0; k < stack.size(); ++k)
        QCOMPARE(stack[k].second, k >= 8 && k < 17);
    const Box& r = L.racks[size_t(rack)];
    std::sort(boxes.begin(), boxes.end(),
              [](const Box& a, const Box& b) { return a.center.z < b.center.z; });
    for (size_t k = 0; k < boxes.size(); ++k) {
        QVERIFY(boxes[k].center.z - boxes[k].size.z / 2 >= r.center.z - r.size.z / 2);
        QVERIFY(boxes[k].center.z + boxes[k].size.z / 2 <= r.center.z + r.size.z / 2);
        if (k > 0)
            QVERIFY(boxes[k - 1].center.z + boxes[k - 1].size.z / 2 <
                    boxes[k].center.z - boxes[k].size.z / 2);
    }
}

void TestSceneLayout::nicsStandOnTheirHostsFront() {
    Fixture f;
    const SceneLayout L = computeLayout(f.t, f.ix, LayoutKind::Floor);
    auto overlaps = [](const Box& a, const Box& b) {
        return std::fabs(a.center.x - b.center.x) * 2 < a.size.x + b.size.x &&
               std::fabs(a.center.y - b.center.y) * 2 < a.size.y + b.size.y &&
               std::fabs(a.center.z - b.center.z) * 2 < a.size.z + b.size.z;
    };
    for (size_t n = 0; n < f.t.nics.size(); ++n) {
        const Box& nic = L.nics[n];
        QVERIFY(nic.drawn());
        const Host& host = f.t.hosts[size_t(f.t.nics[n].host)];
        const Box& hb = L.hosts[size_t(f.t.nics[n].host)];
        // On the host's front face, within its width and height, clear of its GPUs.
        QVERIFY(nic.center.y < hb.center.y - hb.size.y / 2);
        QVERIFY(std::fabs(nic.center.x - hb.center.x) + nic.size.x / 2 <= hb.size.x / 2);
        QVERIFY(std::fabs(nic.center.z - hb.center.z) + nic.size.z / 2 <= hb.size.z / 2);
        for (int g = 0; g < host.gpuCount; ++g)
            QVERIFY(!overlaps(nic, L.gpus[size_t(host.firstGpu + g)]));
        for (size_t m = 0; m < n; ++m)
            if (f.t.nics[m].host == f.t.nics[n].host) QVERIFY(!overlaps(nic, L.nics[m]));
    }
    // Up close, a ray from the front onto a NIC picks that NIC.
    const int32_t nic = 3;
    const Box& b = L.nics[size_t(nic)];
    const SceneDetail d =
        detailFor(L, lookAt(b.center + Vec3{0, -1.5f, 0.3f}, b.center, 30, 16.f / 9, 720));
    const auto hit = pickRay(f.t, f.ix, L, d, {b.center + Vec3{0, -2, 0}, {0, 1, 0}}, 0.f);
    QVERIFY(hit.has_value());
    QCOMPARE(hit->entity, (Endpoint{EntityKind::Nic, nic}));
    // Its cables start there.
    for (int32_t l : f.ix.linksOf({EntityKind::Nic, nic})) {
        const Link& link = f.t.links[size_t(l)];
        const Vec3 end =
            link.a == Endpoint{EntityKind::Nic, nic} ? L.linkA[size_t(l)] : L.linkB[size_t(l)];
        QCOMPARE(end.x, b.center.x);
        QCOMPARE(end.z, b.center.z);
    }
}

void TestSceneLayout::labelsNeitherCollideNorCrowd() {
    Fixture f;
    const SceneLayout L = computeLayout(f.t, f.ix, LayoutKind::Floor);
    std::vector<LabelCandidate> labels = sceneLabels(f.t, L);
    const auto count = [&](LabelKind k) {
        return std::count_if(labels.begin(), labels.end(),
                             [&](const LabelCandidate& c) { return c.kind == k; });
    };
    QCOMPARE(size_t(count(LabelKind::Pod)), f.t.pods.size());
    QVERIFY(count(LabelKind::Row) > 0);
    // The selection, over rack 5, is placed before anything else at every distance.
    const Vec3 c = L.racks[5].center;
    std::vector<LabelCandidate> withSelection = labels;
    withSelection.push_back({"the selection", c + Vec3{0, 0, 1.2f}, 1, LabelKind::Selection});
    for (float distance : {250.f, 40.f, 12.f, 5.f}) {
        const SceneView v = lookAt(c + Vec3{0, -distance, distance}, c, 30, 16.f / 9, 720);
        const std::vector<PlacedLabel> placed = placeLabels(withSelection, v, 1280, 40);
        QVERIFY(!placed.empty());
        QCOMPARE(withSelection[placed.front().candidate].kind, LabelKind::Selection);
    }
    const auto placedKinds = [&](const std::vector<PlacedLabel>& placed, LabelKind k) {
        return std::count_if(placed.begin(), placed.end(),
                             [&](const PlacedLabel& p) { return labels[p.candidate].kind == k; });
    };
    const float width = 1280;
    float podFontFar = 0, podFontNear = 0;
    for (float distance : {250.f, 40.f, 12.f, 5.f}) {
        const SceneView v = lookAt(c + Vec3{0, -distance, distance}, c, 30, width / 720, 720);
        const std::vector<PlacedLabel> placed = placeLabels(labels, v, width, 40);
        QVERIFY(!placed.empty());
        for (size_t i = 0; i < placed.size(); ++i) {
            const PlacedLabel& a = placed[i];
            // On screen, clear of the title band, readable and never oversized.
            QVERIFY(a.left >= 0 && a.right <= width && a.bottom >= 0 && a.top <= 720 - 40);
            QVERIFY(a.fontPx >= kLabelMinPx && a.fontPx <= kLabelMaxPx);
            for (size_t j = 0; j < i; ++j) {
                const PlacedLabel& b = placed[j];
                QVERIFY2(a.right <= b.left || b.right <= a.left || a.top <= b.bottom ||
                             b.top <= a.bottom,
                         qPrintable(QString::fromStdString(labels[a.candidate].text + " over " +
                                                           labels[b.candidate].text)));
            }
            if (labels[a.candidate].kind == LabelKind::Pod)
                (distance == 250.f ? podFontFar : podFontNear) = a.fontPx;
        }
        // Rows are small: named only close up.
        if (distance == 250.f) QCOMPARE(placedKinds(placed, LabelKind::Row), 0);
        if (distance == 5.f) QVERIFY(placedKinds(placed, LabelKind::Row) > 0);
    }
    QVERIFY(podFontFar > 0);
    QVERIFY(podFontFar < podFontNear); // labels grow as the camera comes closer
    // The fabric layout names each switch tier of each cluster once.
    const SceneLayout F = computeLayout(f.t, f.ix, LayoutKind::Fabric);
    std::vector<std::string> tiers;
    for (const LabelCandidate& l : sceneLabels(f.t, F))
        if (l.kind == LabelKind::Tier) tiers.push_back(l.text);
    std::sort(tiers.begin(), tiers.end());
    QCOMPARE(tiers, (std::vector<std::string>{"ATSW (core)", "CTSW (spine)", "RTSW (leaf)"}));
}

void TestSceneLayout::aggregatesFollowTheMode() {
    Fixture f;
    FrameValues v;
    v.gpu.assign(f.t.gpus.size(), 0.1f);
    const Host& h = f.t.hosts[0];
    v.gpu[size_t(h.firstGpu)] = 0.9f;
    v.gpu[size_t(h.firstGpu + 1)] = 0.f; // one idle GPU
    std::vector<float> mean, max, min;
    const RackMembers members = RackMembers::of(f.t);
    aggregateRacks(members, v, Aggregate::Mean, mean);
    aggregateRacks(members, v, Aggregate::Max, max);
    aggregateRacks(members, v, Aggregate::Min, min);
    const auto rack = size_t(h.rack);
    QCOMPARE(max[rack], 0.9f);
    QCOMPARE(min[rack], 0.f);
    QCOMPARE(min[size_t(f.t.hosts.back().rack)], 0.1f); // elsewhere every GPU at 0.1
    const float gpusInRack = 16;
    QVERIFY(std::fabs(mean[rack] - (0.9f + 0.f + 0.1f * (gpusInRack - 2)) / gpusInRack) < 1e-6f);
    // The names the command line, session files and tooltips use, both ways.
    for (const auto& a : kAggregateNames)
        QCOMPARE(kAggregateNames.parse(aggregateName(a.value)), std::optional<Aggregate>(a.value));
    QVERIFY(!kAggregateNames.parse("median"));
    // A network rack has no GPUs: no data.
    for (size_t r = 0; r < f.t.racks.size(); ++r)
        if (f.t.racks[r].role == RackRole::Network) QVERIFY(std::isnan(mean[r]));
    // Every rack's members, whatever order the GPUs come in: GPUs shuffled between hosts
    // (as a foreign fabric numbers them), random values with gaps, against each member's
    // rack looked up one by one.
    Topology shuffled = f.t;
    std::mt19937 rng(7);
    for (size_t g = 0; g + 1 < shuffled.gpus.size(); g += 3)
        std::swap(shuffled.gpus[g].host, shuffled.gpus[rng() % shuffled.gpus.size()].host);
    std::uniform_real_distribution<float> unit(0, 1);
    for (float& x : v.gpu)
        x = rng() % 7 == 0 ? std::nanf("") : unit(rng);
    v.storage.resize(shuffled.storage.size());
    for (float& x : v.storage)
        x = unit(rng);
    QVERIFY(!v.storage.empty());
    const RackMembers shuffledMembers = RackMembers::of(shuffled);
    for (const Aggregate a : {Aggregate::Mean, Aggregate::Max, Aggregate::Min}) {
        std::vector<std::vector<float>> members(shuffled.racks.size());
        for (size_t g = 0; g < shuffled.gpus.size(); ++g)
            if (!std::isnan(v.gpu[g]))
                members[size_t(shuffled.hosts[size_t(shuffled.gpus[g].host)].rack)].push_back(
                    v.gpu[g]);
        for (size_t s = 0; s < shuffled.storage.size(); ++s)
            if (shuffled.storage[s].rack != kNone)
                members[size_t(shuffled.storage[s].rack)].push_back(v.storage[s]);
        std::vector<float> got;
        aggregateRacks(shuffledMembers, v, a, got);
        QCOMPARE(got.size(), shuffled.racks.size());
        for (size_t r = 0; r < members.size(); ++r) {
            const auto& m = members[r];
            if (m.empty()) {
                QVERIFY(std::isnan(got[r]));
                continue;
            }
            const float want = a == Aggregate::Max ? *std::max_element(m.begin(), m.end())
                               : a == Aggregate::Min
                                   ? *std::min_element(m.begin(), m.end())
                                   : std::accumulate(m.begin(), m.end(), 0.f) / float(m.size());
            QVERIFY2(std::fabs(got[r] - want) < 1e-5f, qPrintable(QString::number(r)));
        }
    }
}

void TestSceneLayout::outliersAreAMinorityFarFromTheirRack() {
    Fixture f;
    const Host& h = f.t.hosts[0];
    std::vector<float> busy(f.t.gpus.size(), 0.9f);
    QVERIFY(rackOutliers(RackMembers::of(f.t), busy).empty()); // all alike
    busy[size_t(h.firstGpu + 3)] = 0.f;                        // one idle GPU among busy ones
    QCOMPARE(rackOutliers(RackMembers::of(f.t), busy),
             (std::vector<Endpoint>{{EntityKind::Gpu, h.firstGpu + 3}}));
    busy[size_t(h.firstGpu + 4)] = std::numeric_limits<float>::quiet_NaN(); // no data: not one
    QCOMPARE(rackOutliers(RackMembers::of(f.t), busy).size(), size_t(1));
    // Half of a rack idle, half busy: nobody stands out.
    std::vector<float> half(f.t.gpus.size(), 0.9f);
    std::vector<int32_t> inRack;
    for (size_t g = 0; g < f.t.gpus.size(); ++g)
        if (f.t.hosts[size_t(f.t.gpus[g].host)].rack == h.rack) inRack.push_back(int32_t(g));
    for (size_t k = 0; k < inRack.size() / 2; ++k)
        half[size_t(inRack[k])] = 0.f;
    QVERIFY(rackOutliers(RackMembers::of(f.t), half).empty());
}

void TestSceneLayout::gpusColourByAnyStoredMetric() {
    Fixture f;
    RunFrame frame;
    frame.values[size_t(Metric::GpuBusy)].assign(f.t.gpus.size(), 0.9f);
    frame.values[size_t(Metric::GpuPowerW)].assign(f.t.gpus.size(), 350.f);
    frame.values[size_t(Metric::GpuPowerW)][1] = std::numeric_limits<float>::quiet_NaN();
    frame.values[size_t(Metric::GpuPowerW)][2] = 5000.f; // past the range: its top
    frame.values[size_t(Metric::LinkBytesPerS)].assign(f.t.links.size(), 1e9f);
    const FrameValues busy = fractionsOfCapacity(frame, f.t);
    QCOMPARE(busy.gpu[0], 0.9f);
    QVERIFY(!std::isnan(busy.link[0]));
    const FrameValues power = fractionsOfCapacity(frame, f.t, Metric::GpuPowerW);
    const GpuMetricScale scale = gpuMetricScale(Metric::GpuPowerW);
    QCOMPARE(power.gpu[0], float(350 / (scale.hi - scale.lo)));
    QVERIFY(std::isnan(power.gpu[1]));
    QCOMPARE(power.gpu[2], 1.f);
    QVERIFY(std::isnan(power.link[0])); // links say nothing when GPUs show power
    // A metric the run lacks: every GPU without data, not a crash.
    const FrameValues clock = fractionsOfCapacity(frame, f.t, Metric::GpuSmClockHz);
    QCOMPARE(clock.gpu.size(), f.t.gpus.size());
    QVERIFY(std::isnan(clock.gpu[0]));
    // Every colour metric has a range and a title in its unit.
    for (Metric m : gpuColourMetrics()) {
        const GpuMetricScale s = gpuMetricScale(m);
        QVERIFY(s.hi > s.lo);
        QVERIFY(!s.title.empty());
    }
}

void TestSceneLayout::rayGeometry() {
    const Box unit{{0, 0, 0}, {2, 2, 2}};
    QCOMPARE(rayHitsBox({{0, 0, 10}, {0, 0, -1}}, unit), 9.f);
    QVERIFY(rayHitsBox({{5, 0, 10}, {0, 0, -1}}, unit) < 0);
    float t = 0;
    QCOMPARE(raySegmentDistance({{0, 0, 10}, {0, 0, -1}}, {3, -1, 0}, {3, 1, 0}, &t), 3.f);
    QCOMPARE(t, 10.f);
}

QTEST_APPLESS_MAIN(TestSceneLayout)
#include "tst_scene_layout.moc"
