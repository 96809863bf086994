// Render tests: fixed cameras, multisampling off, pictures compared with baselines under a
// threshold (tests/views/baselines). Needs an X server: run under xvfb-run.
#include "HeadlessRenderer.h"
#include "ImageCompare.h"
#include "RunFrameShading.h"

#include <QTest>

using namespace cs;
using namespace cs::views;

class TestRender : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void matchesBaseline_data();
    void matchesBaseline();
    void valuesChangeThePicture();
    void tinyRacksShowTheirAggregateOnTop();
    void theOverviewFillsThePicture_data();
    void theOverviewFillsThePicture();
    void oneOutlierShowsAtTheOverview_data();
    void oneOutlierShowsAtTheOverview();
    void anOutlierOrAFailureOutlinesItsRack();
    void gpusOutsideEveryJobAreIdle();
    void labelsNameTiersPodsAndTheSelection();
    void busyLinksDrawWider();
    void nicsShowTheirCablesLoad();
    void comparisonCatchesADifference();
};

void TestRender::initTestCase() {
    if (qEnvironmentVariableIsEmpty("DISPLAY"))
        QFAIL("render tests need an X server: run them under xvfb-run -a -s \"-screen 0 "
              "1920x1080x24\"");
}

void TestRender::matchesBaseline_data() {
    QTest::addColumn<QString>("preset");
    QTest::addColumn<QString>("layout");
    QTest::addColumn<QString>("camera");
    QTest::addColumn<QString>("values");
    QTest::addColumn<QString>("select");
    QTest::newRow("small-floor") << "small-256"
                                 << "floor"
                                 << "overview"
                                 << ""
                                 << "";
    QTest::newRow("small-fabric") << "small-256"
                                  << "fabric"
                                  << "overview"
                                  << ""
                                  << "";
    QTest::newRow("small-floor-values") << "small-256"
                                        << "floor"
                                        << "pod:1"
                                        << "test"
                                        << "";
    QTest::newRow("roce-floor") << "meta-roce-24k"
                                << "floor"
                                << "overview"
                                << ""
                                << "";
    QTest::newRow("roce-rack-closeup") << "meta-roce-24k"
                                       << "floor"
                                       << "rack:roce.pod2.rack40"
                                       << ""
                                       << "roce.pod2.rack40.host1.gpu3";
    // GB200 NVL72 racks: the NVLink switch trays between the compute trays, in the legend.
    QTest::newRow("nvl72-rack-closeup") << "gb200-nvl72-su"
                                        << "floor"
                                        << "rack:nvl72.pod0.rack3"
                                        << ""
                                        << "nvl72.pod0.rack3.nvlsw4";
    // A fabric from another tool's file: the title says so, the legend lists only what it holds.
    QTest::newRow("ibsim-fabric") << "file:ibsim-net-examples-net.txt"
                                  << "fabric"
                                  << "overview"
                                  << ""
                                  << "";
    QTest::newRow("both-fabric") << "meta-both"
                                 << "fabric"
                                 << "overview"
                                 << ""
                                 << "";
}

void TestRender::matchesBaseline() {
    QFETCH(QString, preset);
    QFETCH(QString, layout);
    QFETCH(QString, camera);
    QFETCH(QString, values);
    QFETCH(QString, select);
    const auto doc =
        preset.startsWith("file:")
            ? openTopology({}, CS_SOURCE_DIR "/tests/fixtures/real/" + preset.mid(5).toStdString())
            : openTopology(preset.toStdString(), {});
    HeadlessRenderer r(640, 360);
    ClusterScene& scene = r.scene();
    scene.setDocument(doc.get(), *kLayoutNames.parse(layout.toStdString()));
    if (values == "test") {
        FrameValues v;
        fillTestPattern(doc->topology(), 1.0, v);
        scene.setValues(v);
        scene.setColorMode(ColorMode::Value);
    }
    QCOMPARE(QString::fromStdString(applyCameraSpec(scene, *doc, camera.toStdString())), QString());
    if (!select.isEmpty())
        scene.select(PickHit{*doc->index().find(select.toStdString()), kNone, 0});
    r.render();
    const QImage img = r.grab();
    QCOMPARE(img.size(), QSize(640, 360));
    QVERIFY(test::countDrawnPixels(img) > 500);
    const QString problem = test::checkAgainstBaseline(img, QTest::currentDataTag());
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
}

void TestRender::theOverviewFillsThePicture_data() {
    QTest::addColumn<QString>("preset");
    QTest::addColumn<QString>("layout");
    for (const char* preset : {"meta-roce-24k", "meta-both", "small-256", "dgx-h100-superpod"})
        QTest::newRow(preset) << preset << "floor";
    QTest::newRow("meta-both fabric") << "meta-both"
                                      << "fabric";
}

void TestRender::theOverviewFillsThePicture() {
    // A presentation frame at the overview: what is drawn spans the 3D view (left of the
    // legend panel, below the title line) nearly edge to edge along one axis (the margins keep
    // room for the tiers' names) and covers most of it: before, 27 % x 70 % on meta-roce-24k.
    QFETCH(QString, preset);
    QFETCH(QString, layout);
    const auto doc = openTopology(preset.toStdString(), {});
    HeadlessRenderer r(1600, 900);
    r.scene().setDocument(doc.get(), *kLayoutNames.parse(layout.toStdString()));
    r.scene().viewOverview();
    r.render();
    const QImage img = r.grab().convertToFormat(QImage::Format_RGB888);
    const Rgba bg = sceneBackground();
    // The 3D view ends where the panel's own background begins.
    int viewW = img.width();
    while (viewW > 1) {
        const QRgb p = img.pixel(viewW - 1, img.height() - 1);
        if (std::abs(qRed(p) - bg[0]) + std::abs(qGreen(p) - bg[1]) + std::abs(qBlue(p) - bg[2]) <
            6)
            break;
        --viewW;
    }
    QVERIFY(viewW > img.width() / 2);
    const int top = img.height() * 6 / 100; // the title line
    int x0 = viewW, x1 = -1, y0 = img.height(), y1 = -1;
    for (int y = top; y < img.height(); ++y)
        for (int x = 0; x < viewW; ++x) {
            const QRgb p = img.pixel(x, y);
            if (std::max({std::abs(qRed(p) - bg[0]), std::abs(qGreen(p) - bg[1]),
                          std::abs(qBlue(p) - bg[2])}) < 30)
                continue;
            x0 = std::min(x0, x), x1 = std::max(x1, x), y0 = std::min(y0, y), y1 = std::max(y1, y);
        }
    const double across = double(x1 - x0 + 1) / viewW,
                 down = double(y1 - y0 + 1) / (img.height() - top);
    const QString what = QStringLiteral("drawn over %1% of the width, %2% of the height")
                             .arg(across * 100, 0, 'f', 0)
                             .arg(down * 100, 0, 'f', 0);
    qInfo("%s: %s", qPrintable(preset), qPrintable(what));
    QVERIFY2(across >= 0.85 || down >= 0.85, qPrintable(what));
    QVERIFY2(across * down >= 0.5, qPrintable(what));
}

void TestRender::valuesChangeThePicture() {
    const auto doc = openTopology("small-256", {});
    HeadlessRenderer r(320, 200);
    r.scene().setDocument(doc.get(), LayoutKind::Floor);
    r.scene().setColorMode(ColorMode::Value);
    FrameValues v;
    fillTestPattern(doc->topology(), 0.0, v);
    r.scene().setValues(v);
    r.render();
    const QImage a = r.grab();
    fillTestPattern(doc->topology(), 2.0, v);
    r.scene().setValues(v);
    r.render();
    const QImage b = r.grab();
    const test::ImageDiff d = test::compareImages(a, b, 10);
    QVERIFY2(d.fractionDiffering > 0.001, qPrintable(QString::number(d.fractionDiffering)));
}

// Every rack holds idle and busy GPUs, by Max all racks are busy: where racks are large enough
// for their GPUs' cells, idle cells show on the tops; where a rack is a few pixels (a million
// GPUs at the overview, here a small picture), the tops show the racks' Max as the sides do.
void TestRender::tinyRacksShowTheirAggregateOnTop() {
    const auto doc = openTopology("meta-roce-24k", {});
    const Topology& t = doc->topology();
    FrameValues v;
    v.gpu.resize(t.gpus.size());
    for (size_t g = 0; g < v.gpu.size(); ++g)
        v.gpu[g] = g % 2 ? 1.f : 0.f;
    v.link.assign(t.links.size(), std::nanf(""));
    v.storage.assign(t.storage.size(), std::nanf(""));
    auto idlePixels = [&](int width, int height) {
        HeadlessRenderer r(width, height);
        r.scene().setDocument(doc.get(), LayoutKind::Floor);
        r.scene().setColorMode(ColorMode::Value);
        r.scene().setAggregate(Aggregate::Max);
        r.scene().setValues(v);
        r.scene().viewOverview();
        r.render();
        const QImage picture = r.grab();
        const Rgba idle = valueColor(0);
        int n = 0;
        for (int y = 0; y < picture.height(); ++y)
            for (int x = 0; x < picture.width() * 8 / 10; ++x) { // not the colour bar's 0 %
                const QRgb p = picture.pixel(x, y);
                n += std::abs(qRed(p) - idle[0]) + std::abs(qGreen(p) - idle[1]) +
                         std::abs(qBlue(p) - idle[2]) <
                     30;
            }
        return n;
    };
    QVERIFY(idlePixels(1280, 720) > 100); // the idle GPUs' cells
    QCOMPARE(idlePixels(160, 90), 0);     // racks of a few pixels: their Max only
}

namespace {
// The largest difference of any channel of any pixel between two pictures.
int largestDifference(const QImage& a, const QImage& b) {
    int most = 0;
    for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x) {
            const QRgb p = a.pixel(x, y), q = b.pixel(x, y);
            most = std::max({most, std::abs(qRed(p) - qRed(q)), std::abs(qGreen(p) - qGreen(q)),
                             std::abs(qBlue(p) - qBlue(q))});
        }
    return most;
}
} // namespace

void TestRender::oneOutlierShowsAtTheOverview_data() {
    QTest::addColumn<QString>("what");
    QTest::addColumn<QString>("layout");
    QTest::newRow("idle GPU, floor") << "gpu"
                                     << "floor";
    QTest::newRow("idle GPU, fabric") << "gpu"
                                      << "fabric";
    QTest::newRow("saturated link, floor") << "link"
                                           << "floor";
}

// The fabric overview names each tier and every pod; selecting a switch adds its name first.
// The labels are drawn: hiding them changes the picture where they stood.
void TestRender::labelsNameTiersPodsAndTheSelection() {
    const auto doc = openTopology("meta-roce-24k", {});
    HeadlessRenderer r(1280, 720);
    ClusterScene& scene = r.scene();
    scene.setDocument(doc.get(), LayoutKind::Fabric);
    r.render();
    const std::vector<std::string>& texts = scene.labelTexts();
    for (const char* expected : {"RTSW (leaf)", "CTSW (spine)", "ATSW (core)", "pod0", "pod7"})
        QVERIFY2(std::find(texts.begin(), texts.end(), expected) != texts.end(), expected);
    const Endpoint core = *doc->index().find("roce.atsw3");
    scene.select(PickHit{core});
    r.render();
    QCOMPARE(QString::fromStdString(scene.labelTexts().front()), QString("roce.atsw3"));
    // Where the selection's label stands, the picture shows it: text over the background.
    const PlacedLabel& p = scene.placedLabels().front();
    const QImage img = r.grab();
    int bright = 0;
    for (int y = int(720 - p.top); y < int(720 - p.bottom); ++y)
        for (int x = int(p.left); x < int(p.right); ++x)
            bright += qGray(img.pixel(std::clamp(x, 0, 1279), std::clamp(y, 0, 719))) > 200;
    QVERIFY2(bright > 20, qPrintable(QString::number(bright)));
}

// Issue 10: among 24,576 GPUs at 100 %, one at 0 % must show at the overview (a rack's mean
// moves by 1/16 of the scale, a few levels); so must one saturated link among idle ones.
void TestRender::oneOutlierShowsAtTheOverview() {
    QFETCH(QString, what);
    QFETCH(QString, layout);
    const auto doc = openTopology("meta-roce-24k", {});
    const Topology& t = doc->topology();
    HeadlessRenderer r(1280, 720);
    ClusterScene& scene = r.scene();
    scene.setDocument(doc.get(), *kLayoutNames.parse(layout.toStdString()));
    scene.setColorMode(ColorMode::Value);
    scene.setAggregate(Aggregate::Max); // bundles by their hottest member
    QCOMPARE(QString::fromStdString(applyCameraSpec(scene, *doc, "overview")), QString());
    FrameValues v;
    v.gpu.assign(t.gpus.size(), what == "gpu" ? 1.0f : 0.5f);
    v.link.assign(t.links.size(), 0.0f);
    scene.setValues(v);
    r.render();
    const QImage uniform = r.grab();
    // An entity in the middle of the cluster, not under the colour bar.
    if (what == "gpu") {
        v.gpu[t.gpus.size() / 2 + 5] = 0.0f;
    } else {
        size_t uplink = 0;
        for (size_t i = 0; i < t.links.size(); ++i)
            if (t.links[i].a.kind == EntityKind::Switch &&
                t.links[i].b.kind == EntityKind::Switch &&
                t.switches[size_t(t.links[i].a.index)].role == SwitchRole::Rtsw &&
                t.switches[size_t(t.links[i].a.index)].pod == 4)
                uplink = i;
        v.link[uplink] = 1.0f;
    }
    scene.setValues(v);
    r.render();
    const int most = largestDifference(uniform, r.grab());
    QVERIFY2(most > 100, qPrintable(QString("largest change %1 levels").arg(most)));
}

// One idle GPU among 24,576 busy ones, at 1600 x 900: the value alone moves a pixel or two;
// flagged as an outlier (reddish purple) or marked failed (vermillion), its rack's outline
// changes dozens.
void TestRender::anOutlierOrAFailureOutlinesItsRack() {
    const auto doc = openTopology("meta-roce-24k", {});
    const Topology& t = doc->topology();
    HeadlessRenderer r(1600, 900);
    ClusterScene& scene = r.scene();
    scene.setDocument(doc.get(), LayoutKind::Floor);
    scene.setColorMode(ColorMode::Value);
    QCOMPARE(QString::fromStdString(applyCameraSpec(scene, *doc, "overview")), QString());
    FrameValues v;
    v.gpu.assign(t.gpus.size(), 1.0f);
    v.link.assign(t.links.size(), 0.0f);
    scene.setValues(v);
    r.render();
    const QImage uniform = r.grab();
    auto changedPixels = [&](const QImage& a, const QImage& b) {
        int n = 0;
        for (int y = 0; y < a.height(); ++y)
            for (int x = 0; x < a.width(); ++x) {
                const QRgb p = a.pixel(x, y), q = b.pixel(x, y);
                n += std::max({std::abs(qRed(p) - qRed(q)), std::abs(qGreen(p) - qGreen(q)),
                               std::abs(qBlue(p) - qBlue(q))}) > 40;
            }
        return n;
    };
    const auto idle = int32_t(t.gpus.size() / 2 + 5);
    v.gpu[size_t(idle)] = 0.0f;
    scene.setValues(v);
    r.render();
    const int valueOnly = changedPixels(uniform, r.grab());
    QCOMPARE(rackOutliers(RackMembers::of(t), v.gpu),
             (std::vector<Endpoint>{{EntityKind::Gpu, idle}}));
    scene.setFlagged(rackOutliers(RackMembers::of(t), v.gpu));
    r.render();
    const int flagged = changedPixels(uniform, r.grab());
    scene.setFlagged({});
    scene.setMarked({{EntityKind::Gpu, idle}});
    r.render();
    const int failed = changedPixels(uniform, r.grab());
    // A stored run's frame as `render --run` and `movie` show it (showRunFrame, as the
    // window does): the outlier's rack outlined without anyone flagging it.
    scene.setMarked({});
    RunFrame frame;
    frame.values[size_t(Metric::GpuBusy)] = v.gpu;
    frame.values[size_t(Metric::LinkBytesPerS)].assign(t.links.size(), 0.0f);
    showRunFrame(scene, t, frame, Metric::GpuBusy, {});
    QCOMPARE(scene.flagged(), (std::vector<Endpoint>{{EntityKind::Gpu, idle}}));
    r.render();
    const int asStored = changedPixels(uniform, r.grab());
    qInfo("changed pixels: value alone %d, flagged %d, failed %d, a stored frame %d", valueOnly,
          flagged, failed, asStored);
    QVERIFY2(flagged >= 30 && flagged > 5 * std::max(1, valueOnly),
             qPrintable(QString("%1 vs %2").arg(flagged).arg(valueOnly)));
    QVERIFY2(failed >= 30, qPrintable(QString::number(failed)));
    QCOMPARE(asStored, flagged);
}

// A simulated run leaves the GPUs outside every job without a value: the legend and the
// tooltip call them idle; recorded telemetry without a value is "no data".
void TestRender::gpusOutsideEveryJobAreIdle() {
    const auto doc = openTopology("small-256", {});
    const Topology& t = doc->topology();
    HeadlessRenderer r(320, 200);
    ClusterScene& scene = r.scene();
    scene.setDocument(doc.get(), LayoutKind::Floor);
    scene.setColorMode(ColorMode::Value);
    FrameValues v;
    v.gpu.assign(t.gpus.size(), std::nanf(""));
    v.gpu[0] = 0.5f;
    v.link.assign(t.links.size(), 0.0f);
    scene.setValues(v);
    const PickHit outside{{EntityKind::Gpu, 1}, kNone, 0}, inside{{EntityKind::Gpu, 0}, kNone, 0};
    RunInfo run;
    run.kind = "simulated";
    labelMissingValues(scene, run);
    QVERIFY2(QString::fromStdString(scene.describe(outside)).endsWith("\nidle"),
             scene.describe(outside).c_str());
    QVERIFY(QString::fromStdString(scene.describe(inside)).endsWith("\n50%"));
    run.kind = "recorded";
    labelMissingValues(scene, run);
    QVERIFY(QString::fromStdString(scene.describe(outside)).endsWith("\nno data"));
}

namespace {
// Every GPU half busy, every link idle: what the link tests change one thing against.
FrameValues halfBusyIdleLinks(const Topology& t) {
    FrameValues v;
    v.gpu.assign(t.gpus.size(), 0.5f);
    v.link.assign(t.links.size(), 0.0f);
    return v;
}
} // namespace

// A link's width says its load: the same uplink bundle at 100 % covers several times the
// pixels it covers at 20 %, against the same idle fabric.
void TestRender::busyLinksDrawWider() {
    const auto doc = openTopology("small-256", {});
    const Topology& t = doc->topology();
    HeadlessRenderer r(1280, 720);
    ClusterScene& scene = r.scene();
    scene.setDocument(doc.get(), LayoutKind::Fabric);
    scene.setColorMode(ColorMode::Value);
    scene.setAggregate(Aggregate::Max);
    FrameValues v = halfBusyIdleLinks(t);
    scene.setValues(v);
    r.render();
    const QImage idle = r.grab();
    size_t uplink = 0;
    for (size_t i = 0; i < t.links.size(); ++i)
        if (t.links[i].a.kind == EntityKind::Switch && t.links[i].b.kind == EntityKind::Switch &&
            t.switches[size_t(t.links[i].a.index)].role == SwitchRole::Ctsw &&
            t.switches[size_t(t.links[i].b.index)].role == SwitchRole::Atsw)
            uplink = i;
    auto covered = [&](float load) {
        v.link[uplink] = load;
        scene.setValues(v);
        r.render();
        return test::compareImages(idle, r.grab(), 12).fractionDiffering;
    };
    const double light = covered(0.2f), full = covered(1.0f);
    QVERIFY2(light > 0, "the lightly loaded link should show in colour");
    QVERIFY2(full > 3 * light, qPrintable(QString("%1 against %2").arg(full).arg(light)));
}

void TestRender::nicsShowTheirCablesLoad() {
    const auto doc = openTopology("small-256", {});
    const Topology& t = doc->topology();
    HeadlessRenderer r(1280, 720);
    ClusterScene& scene = r.scene();
    scene.setDocument(doc.get(), LayoutKind::Floor);
    scene.setColorMode(ColorMode::Value);
    QVERIFY(applyCameraSpec(scene, *doc, "demo.pod0.rack0.host0").empty());
    FrameValues v = halfBusyIdleLinks(t);
    scene.setValues(v);
    r.render();
    const QImage idle = r.grab();
    // The host's NICs' cables at 100 %: the NICs change colour, and so do the cables.
    const TopologyIndex& ix = doc->index();
    int cables = 0;
    for (int32_t n : ix.nicsOfHost(0))
        for (int32_t l : ix.linksOf({EntityKind::Nic, n}))
            if (t.links[size_t(l)].medium == LinkMedium::Fibre ||
                t.links[size_t(l)].medium == LinkMedium::CopperDac)
                v.link[size_t(l)] = 1.0f, ++cables;
    QVERIFY(cables > 0);
    scene.setValues(v);
    r.render();
    const double changed = test::compareImages(idle, r.grab(), 40).fractionDiffering;
    // Measured: the cables alone change 0.08 % of the picture; with their NICs 0.27 %.
    QVERIFY2(changed > 0.0018, qPrintable(QString::number(changed)));
}

void TestRender::comparisonCatchesADifference() {
    QImage a(100, 100, QImage::Format_RGB888);
    a.fill(Qt::black);
    QImage b = a;
    for (int y = 0; y < 10; ++y)
        for (int x = 0; x < 10; ++x)
            b.setPixelColor(x, y, Qt::white);
    const test::ImageDiff d = test::compareImages(a, b, 40);
    QCOMPARE(d.fractionDiffering, 0.01);
    QCOMPARE(d.picture.pixelColor(0, 0), QColor(Qt::red));
    QVERIFY(!test::compareImages(a, QImage(50, 50, QImage::Format_RGB888), 40).sameSize);
}

QTEST_MAIN(TestRender)
#include "tst_render.moc"
