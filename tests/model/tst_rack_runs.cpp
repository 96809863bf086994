// Far racks drawn by the run (RackRuns.h), without a display: every closed rack in one run,
// each rack's texels where the rack stands, each GPU's cell on its own rack's top.
#include "Presets.h"
#include "RackRuns.h"
#include "SceneDetail.h"
#include "SceneLayout.h"
#include "TopologyIndex.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

using namespace cs;

Q_DECLARE_METATYPE(LayoutKind)

namespace {

std::vector<int32_t> farRacks(const SceneLayout& L) {
    std::vector<int32_t> out;
    for (size_t r = 0; r < L.racks.size(); ++r)
        if (L.racks[r].drawn() && L.rackFar[r]) out.push_back(int32_t(r));
    return out;
}

float lo(const Box& b) {
    return b.center.x - b.size.x / 2;
}
float hi(const Box& b) {
    return b.center.x + b.size.x / 2;
}

// Every property the layer relies on, for one atlas built from `racks`.
void checkAtlas(const Topology& t, const TopologyIndex& ix, const SceneLayout& L,
                const std::vector<int32_t>& racks, const RackRunAtlas& A) {
    // Each rack in exactly one slot.
    std::multiset<int32_t> given(racks.begin(), racks.end()), slotted;
    for (const RackRunSlot& s : A.rackSlots)
        slotted.insert(s.rack);
    QCOMPARE(slotted, given);

    // Rectangles inside the atlas, and no texel in two runs' blocks.
    std::vector<int> owner(size_t(A.width) * size_t(A.height), -1);
    for (size_t k = 0; k < A.runs.size(); ++k)
        for (int f = 0; f <= kRunFaces; ++f) { // the faces, then the plain top
            const TexelRect& r = f < kRunFaces ? A.runs[k].faces[size_t(f)] : A.runs[k].plainTop;
            QVERIFY(r.w > 0 && r.h > 0);
            QVERIFY(r.x0 >= 0 && r.y0 >= 0 && r.x0 + r.w <= A.width && r.y0 + r.h <= A.height);
            if (f < kRunFaces && RunFace(f) == RunFace::Bottom) {
                QCOMPARE(r.x0 + r.y0, 0); // the texel no rack paints
                continue;
            }
            for (int y = r.y0; y < r.y0 + r.h; ++y)
                for (int x = r.x0; x < r.x0 + r.w; ++x) {
                    int& o = owner[A.texelIndex(x, y)];
                    QVERIFY2(o == -1 || o == int(k), "two runs share a texel");
                    QVERIFY(x + y > 0);
                    o = int(k);
                }
        }

    std::set<uint32_t> cellTexels;
    for (size_t i = 0; i < A.rackSlots.size(); ++i) {
        const RackRunSlot& s = A.rackSlots[i];
        const RackRun& run = A.runs[size_t(s.run)];
        const Box& b = L.racks[size_t(s.rack)];
        const Box& rb = run.box;
        // The run stands where its racks stand.
        QVERIFY(std::fabs(b.center.y - rb.center.y) < 1e-4f);
        QVERIFY(std::fabs(b.center.z - rb.center.z) < 1e-4f);
        QVERIFY(std::fabs(b.size.y - rb.size.y) < 1e-4f && std::fabs(b.size.z - rb.size.z) < 1e-4f);
        QVERIFY(lo(b) >= lo(rb) - 1e-4f && hi(b) <= hi(rb) + 1e-4f);
        // Its body's texels cover the rack's own stretch of the run, within a texel.
        const TexelRect& top = run.faces[size_t(RunFace::Top)];
        const float texelM = rb.size.x / float(top.w);
        const float bodyLo = lo(rb) + float(s.bodyX - top.x0) * texelM;
        const float bodyHi = lo(rb) + float(s.bodyX + s.bodyW - top.x0) * texelM;
        QVERIFY2(std::fabs(bodyLo - lo(b)) < 0.6f * texelM &&
                     std::fabs(bodyHi - hi(b)) < 0.6f * texelM,
                 qPrintable(QStringLiteral("rack %1: texels %2..%3 m, box %4..%5 m")
                                .arg(s.rack)
                                .arg(bodyLo)
                                .arg(bodyHi)
                                .arg(lo(b))
                                .arg(hi(b))));
        QVERIFY(s.frontY == run.faces[size_t(RunFace::Front)].y0);
        QVERIFY(s.backY == run.faces[size_t(RunFace::Back)].y0);
        // The plain top: one row, as wide as the top, the rack's columns where they are on it.
        QCOMPARE(s.plainTopY, run.plainTop.y0);
        QCOMPARE(run.plainTop.h, 1);
        QCOMPARE(run.plainTop.x0, top.x0);
        QCOMPARE(run.plainTop.w, top.w);
        // The run's two ends belong to its first and last rack.
        const bool first = i == 0 || A.rackSlots[i - 1].run != s.run;
        const bool last = i + 1 == A.rackSlots.size() || A.rackSlots[i + 1].run != s.run;
        QCOMPARE(s.leftX >= 0, first);
        QCOMPARE(s.rightX >= 0, last);
        if (!last) {
            // The next rack is one pitch along the same line, a background texel between
            // them exactly where the two boxes leave a gap.
            const RackRunSlot& n = A.rackSlots[i + 1];
            const Box& nb = L.racks[size_t(n.rack)];
            QVERIFY(lo(nb) >= hi(b) - 1e-4f);
            QCOMPARE(t.racks[size_t(n.rack)].row, t.racks[size_t(s.rack)].row);
            QCOMPARE(n.bodyX - (s.bodyX + s.bodyW), lo(nb) - hi(b) > 1e-3f ? 1 : 0);
        }
        // Its GPUs, each once, each cell on its top and on no other cell.
        std::multiset<int32_t> gpus, cells;
        for (int32_t h : ix.hostsOfRack(s.rack))
            for (int g = 0; g < t.hosts[size_t(h)].gpuCount; ++g)
                gpus.insert(t.hosts[size_t(h)].firstGpu + g);
        for (int32_t c = s.firstCell; c < s.firstCell + s.cells; ++c) {
            cells.insert(A.cellGpu[size_t(c)]);
            for (int k = 0; k < s.cellW; ++k) {
                const uint32_t texel = A.cellTexel[size_t(c)] + uint32_t(k);
                const int x = int(texel % uint32_t(A.width)), y = int(texel / uint32_t(A.width));
                QVERIFY(x >= s.bodyX && x < s.bodyX + s.bodyW);
                QVERIFY(y >= s.topY && y < s.topY + s.topRows);
                QVERIFY2(cellTexels.insert(texel).second, "two cells share a texel");
            }
        }
        QCOMPARE(cells, gpus);
    }
}

} // namespace

class TestRackRuns : public QObject {
    Q_OBJECT
private slots:
    void everyRackInOneRunWhereItStands_data();
    void everyRackInOneRunWhereItStands();
    void openRacksCutTheirRun();
    void runsFitANarrowAtlas();
};

void TestRackRuns::everyRackInOneRunWhereItStands_data() {
    QTest::addColumn<QString>("preset");
    QTest::addColumn<LayoutKind>("kind");
    QTest::addColumn<int>("maxRunsPerRow");  // a row of racks is a few runs, never a run a rack
    QTest::addColumn<double>("racksPerRun"); // at least, on average
    QTest::newRow("small-256 floor") << "small-256" << LayoutKind::Floor << 2 << 3.0;
    QTest::newRow("small-256 fabric") << "small-256" << LayoutKind::Fabric << 2 << 3.0;
    QTest::newRow("meta-roce-24k floor") << "meta-roce-24k" << LayoutKind::Floor << 2 << 12.0;
    QTest::newRow("meta-ib-24k fabric") << "meta-ib-24k" << LayoutKind::Fabric << 2 << 12.0;
}

void TestRackRuns::everyRackInOneRunWhereItStands() {
    QFETCH(QString, preset);
    QFETCH(LayoutKind, kind);
    QFETCH(int, maxRunsPerRow);
    QFETCH(double, racksPerRun);
    const Topology t = generatePreset(preset.toStdString());
    const TopologyIndex ix(t);
    const SceneLayout L = computeLayout(t, ix, kind);
    const std::vector<int32_t> racks = farRacks(L);
    const RackRunAtlas A = buildRackRuns(t, ix, L, racks);
    checkAtlas(t, ix, L, racks, A);
    QCOMPARE(A.cellGpu.size(), t.gpus.size()); // every GPU stands in a rack here
    QVERIFY(A.width <= kRackAtlasWidth);
    std::map<int32_t, std::set<int32_t>> runsOfRow;
    for (const RackRunSlot& s : A.rackSlots)
        runsOfRow[t.racks[size_t(s.rack)].row].insert(s.run);
    for (const auto& [row, runs] : runsOfRow)
        QVERIFY2(int(runs.size()) <= maxRunsPerRow, qPrintable(QString::number(row)));
    // What a software rasteriser is spared: 12 triangles a run against 14 a rack before.
    qInfo("%zu racks in %zu runs", racks.size(), A.runs.size());
    QVERIFY(double(racks.size()) / double(A.runs.size()) >= racksPerRun);
}

void TestRackRuns::openRacksCutTheirRun() {
    const Topology t = generatePreset("small-256");
    const TopologyIndex ix(t);
    const SceneLayout L = computeLayout(t, ix, LayoutKind::Floor);
    std::vector<int32_t> racks = farRacks(L);
    const RackRunAtlas whole = buildRackRuns(t, ix, L, racks);
    // Open one rack in the middle of a run: its neighbours end up in two runs.
    const RackRunSlot& mid = whole.rackSlots[size_t(
        std::find_if(whole.rackSlots.begin() + 1, whole.rackSlots.end() - 1,
                     [&](const RackRunSlot& s) { return s.leftX < 0 && s.rightX < 0; }) -
        whole.rackSlots.begin())];
    const int32_t open = mid.rack;
    std::erase(racks, open);
    const RackRunAtlas cut = buildRackRuns(t, ix, L, racks);
    checkAtlas(t, ix, L, racks, cut);
    QCOMPARE(cut.runs.size(), whole.runs.size() + 1);
    std::map<int32_t, int32_t> runOf;
    for (const RackRunSlot& s : cut.rackSlots)
        runOf[s.rack] = s.run;
    const Box& ob = L.racks[size_t(open)];
    int32_t left = kNone, right = kNone; // the open rack's neighbours in its row
    for (int32_t r : racks) {
        const Box& b = L.racks[size_t(r)];
        if (t.racks[size_t(r)].row != t.racks[size_t(open)].row || b.center.y != ob.center.y)
            continue;
        if (b.center.x < ob.center.x &&
            (left == kNone || b.center.x > L.racks[size_t(left)].center.x))
            left = r;
        if (b.center.x > ob.center.x &&
            (right == kNone || b.center.x < L.racks[size_t(right)].center.x))
            right = r;
    }
    QVERIFY(left != kNone && right != kNone);
    QVERIFY(runOf[left] != runOf[right]);
}

void TestRackRuns::runsFitANarrowAtlas() {
    const Topology t = generatePreset("small-256");
    const TopologyIndex ix(t);
    const SceneLayout L = computeLayout(t, ix, LayoutKind::Floor);
    const std::vector<int32_t> racks = farRacks(L);
    const RackRunAtlas wide = buildRackRuns(t, ix, L, racks);
    const RackRunAtlas narrow = buildRackRuns(t, ix, L, racks, 40);
    checkAtlas(t, ix, L, racks, narrow);
    QVERIFY(narrow.width <= 40);
    QVERIFY(narrow.runs.size() > wide.runs.size()); // long runs were cut to fit
}

QTEST_APPLESS_MAIN(TestRackRuns)
#include "tst_rack_runs.moc"
