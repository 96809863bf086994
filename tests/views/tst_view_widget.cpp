// The interactive 3D widget under a real X server (xvfb-run): it draws, a click selects
// the entity under the pointer, framing an entity brings it into view, and it survives
// resizing, device-pixel-ratio 2 (run again with QT_SCALE_FACTOR=2) and close / reopen.
#include "ImageCompare.h"
#include "VtkViewWidget.h"

#include "FrameDifference.h"
#include "MetricCatalogue.h"

#include "VtkSurfaceFormat.h"

#include <QApplication>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QOpenGLContext>
#include <QOpenGLExtraFunctions>
#include <QSignalSpy>
#include <QSplitter>
#include <QTest>
#include <QToolTip>
#include <QWheelEvent>

#include <vtkCamera.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkRenderer.h>

using namespace cs;
using namespace cs::views;

Q_DECLARE_METATYPE(cs::Endpoint)
Q_DECLARE_METATYPE(cs::LayoutKind)

namespace {
std::unique_ptr<TopologyDocument> smallDoc() {
    return openTopology("small-256", {});
}

void wheel(VtkViewWidget& w, QPoint at, int notches) {
    QWheelEvent e(at, w.mapToGlobal(at), QPoint(), QPoint(0, 120 * notches), Qt::NoButton,
                  Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(&w, &e);
}

// The top face of a rack, where the overview camera sees it.
Vec3 rackTop(const VtkViewWidget& w, int32_t rack) {
    const Box& b = const_cast<VtkViewWidget&>(w).scene().layout()->racks[size_t(rack)];
    return {b.center.x, b.center.y, b.center.z + b.size.z / 2 - 0.05f};
}

bool showAndRender(VtkViewWidget& w) {
    w.show();
    if (!QTest::qWaitForWindowExposed(&w)) return false;
    const int before = w.renderCount();
    w.update();
    return QTest::qWaitFor([&] { return w.renderCount() > before; }, 5000);
}
} // namespace

class TestViewWidget : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void drawsTheScene();
    void clickSelectsTheRack();
    void clickSelectsAGpuUpClose();
    void framingAnEntityOpensItsRack();
    void survivesResize();
    void framebufferFollowsDevicePixelRatio();
    void survivesCloseAndReopen();
    void hoverShowsWhatIsThere();
    void wheelZoomsTowardThePointer();
    void zoomingOnARackOpensIt();
    void doubleClickFliesToTheEntity();
    void twoViewsShowTheirOwnStates();
    void differenceShowsTheOneChangedLink();
    void overviewFollowsTheViewsShape();
    void overviewFramesAGridOfPods_data();
    void overviewFramesAGridOfPods();
};

void TestViewWidget::initTestCase() {
    if (qEnvironmentVariableIsEmpty("DISPLAY")) QFAIL("needs an X server: run under xvfb-run");
    qRegisterMetaType<cs::Endpoint>();
}

void TestViewWidget::drawsTheScene() {
    const auto doc = smallDoc();
    VtkViewWidget w;
    w.resize(640, 400);
    w.scene().setDocument(doc.get());
    QVERIFY(showAndRender(w));
    const QImage img = w.grabFramebuffer();
    QVERIFY2(test::countDrawnPixels(img) > 1000, "the widget shows nothing but background");
    // Opaque everywhere in the widget's own framebuffer (grabFramebuffer drops the alpha): a
    // compositor would blend a lower alpha with what lies behind the window.
    w.makeCurrent();
    QOpenGLExtraFunctions* f = w.context()->extraFunctions();
    f->glBindFramebuffer(GL_READ_FRAMEBUFFER, w.defaultFramebufferObject());
    std::vector<uint8_t> rgba(size_t(w.width()) * size_t(w.height()) * 4);
    f->glReadPixels(0, 0, w.width(), w.height(), GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
    w.doneCurrent();
    size_t translucent = 0;
    for (size_t i = 3; i < rgba.size(); i += 4)
        translucent += rgba[i] != 255;
    QCOMPARE(translucent, size_t(0));
}

void TestViewWidget::clickSelectsTheRack() {
    const auto doc = smallDoc();
    VtkViewWidget w;
    w.resize(640, 400);
    w.scene().setDocument(doc.get());
    QVERIFY(showAndRender(w));
    QSignalSpy spy(&w, &VtkViewWidget::picked);
    for (const char* id : {"demo.pod0.rack5", "demo.pod1.rack2", "site.storage-rack1"}) {
        const Endpoint rack = *doc->index().find(id);
        const Box& box = w.scene().layout()->racks[size_t(rack.index)];
        const QPoint at =
            w.projectToWidget({box.center.x, box.center.y, box.center.z + box.size.z / 2 - 0.05f});
        QVERIFY2(w.rect().contains(at), id);
        QTest::mouseClick(&w, Qt::LeftButton, {}, at);
        QVERIFY(!spy.isEmpty());
        const auto args = spy.takeLast();
        QCOMPARE(QString::fromStdString(doc->topology().nameOf(args.at(0).value<cs::Endpoint>())),
                 QString(id));
        QVERIFY(w.scene().selection().has_value());
    }
}

void TestViewWidget::clickSelectsAGpuUpClose() {
    const auto doc = smallDoc();
    VtkViewWidget w;
    w.resize(640, 400);
    w.scene().setDocument(doc.get());
    const Endpoint gpu = *doc->index().find("demo.pod1.rack6.host1.gpu2");
    QVERIFY(w.scene().viewEntity(gpu));
    QVERIFY(showAndRender(w));
    QVERIFY(w.scene().detail().near);
    const Box& box = w.scene().layout()->gpus[size_t(gpu.index)];
    QSignalSpy spy(&w, &VtkViewWidget::picked);
    QTest::mouseClick(&w, Qt::LeftButton, {}, w.projectToWidget(box.center));
    QCOMPARE(spy.size(), 1);
    QCOMPARE(spy.at(0).at(0).value<cs::Endpoint>(), gpu);
}

void TestViewWidget::framingAnEntityOpensItsRack() {
    const auto doc = smallDoc();
    VtkViewWidget w;
    w.resize(640, 400);
    w.scene().setDocument(doc.get());
    QVERIFY(showAndRender(w));
    QVERIFY(!w.scene().detail().near); // the overview shows racks
    const Endpoint host = *doc->index().find("demo.pod0.rack3.host0");
    w.flyTo([&] { w.scene().viewEntity(host); }, 150);
    const int32_t rack = doc->topology().hosts[size_t(host.index)].rack;
    // The flight ends with the host's rack open.
    QVERIFY(QTest::qWaitFor(
        [&] { return w.scene().detail().near && w.scene().detail().isOpen(rack); }, 3000));
    // ... and the host in the middle of the view, once the camera has arrived (on a loaded
    // machine the rack may open before the flight's last frame).
    const Box& box = w.scene().layout()->hosts[size_t(host.index)];
    auto offCentre = [&] {
        return (w.projectToWidget(box.center) - w.sceneRect().center()).manhattanLength();
    };
    QVERIFY2(QTest::qWaitFor([&] { return offCentre() < 40; }, 3000),
             "the host is not in the middle of the view");
    // ... and close enough to tell its GPUs apart: the host spans over 55 px of the 400 px
    // view (framed from 9 m, as before, it spanned at most 43).
    const Vec3 half = box.size * 0.5f;
    const int spanPx = std::abs(w.projectToWidget(box.center + Vec3{half.x, 0, 0}).x() -
                                w.projectToWidget(box.center - Vec3{half.x, 0, 0}).x());
    QVERIFY2(spanPx > 55, qPrintable(QString::number(spanPx)));
}

void TestViewWidget::survivesResize() {
    const auto doc = smallDoc();
    VtkViewWidget w;
    w.scene().setDocument(doc.get());
    for (QSize s : {QSize(640, 400), QSize(300, 200), QSize(900, 500)}) {
        w.resize(s);
        QVERIFY(showAndRender(w));
        const QImage img = w.grabFramebuffer();
        QCOMPARE(img.size(), s * w.devicePixelRatioF());
        QVERIFY(test::countDrawnPixels(img) > 200);
    }
}

void TestViewWidget::framebufferFollowsDevicePixelRatio() {
    const auto doc = smallDoc();
    VtkViewWidget w;
    w.resize(500, 300);
    w.scene().setDocument(doc.get());
    QVERIFY(showAndRender(w));
    const qreal dpr = w.devicePixelRatioF();
    if (qEnvironmentVariableIntValue("QT_SCALE_FACTOR") == 2) QCOMPARE(dpr, 2.0);
    const int* size = w.renderWindow()->GetSize();
    QCOMPARE(size[0], int(500 * dpr));
    QCOMPARE(size[1], int(300 * dpr));
    // The 3D view is the window less the legend panel at its right.
    const int* view = w.renderer()->GetSize();
    QCOMPARE(view[1], int(300 * dpr));
    QVERIFY(std::abs(view[0] - int(w.sceneRect().width() * dpr)) <= 2);
    QVERIFY(view[0] < size[0]);
    // Picking converts logical to device pixels: the projected rack is found again.
    const Endpoint rack = *doc->index().find("demo.pod1.rack4");
    const Box& box = w.scene().layout()->racks[size_t(rack.index)];
    const auto hit = w.pickAt(
        w.projectToWidget({box.center.x, box.center.y, box.center.z + box.size.z / 2 - 0.05f}));
    QVERIFY(hit.has_value());
    QCOMPARE(hit->entity, rack);
}

void TestViewWidget::survivesCloseAndReopen() {
    const auto doc = smallDoc();
    for (int round = 0; round < 3; ++round) {
        auto w = std::make_unique<VtkViewWidget>();
        w->resize(400, 300);
        w->scene().setDocument(doc.get());
        QVERIFY(showAndRender(*w));
        QVERIFY(test::countDrawnPixels(w->grabFramebuffer()) > 200);
        w->close();
        w.reset();
        QCoreApplication::processEvents();
    }
}

void TestViewWidget::hoverShowsWhatIsThere() {
    const auto doc = smallDoc();
    VtkViewWidget w;
    w.resize(640, 400);
    w.scene().setDocument(doc.get());
    QVERIFY(showAndRender(w));
    const Endpoint rack = *doc->index().find("demo.pod1.rack2");
    const Box& box = w.scene().layout()->racks[size_t(rack.index)];
    const QPoint at =
        w.projectToWidget({box.center.x, box.center.y, box.center.z + box.size.z / 2 - 0.05f});
    QHelpEvent help(QEvent::ToolTip, at, w.mapToGlobal(at));
    QApplication::sendEvent(&w, &help);
    QTRY_VERIFY(QToolTip::isVisible());
    QCOMPARE(QToolTip::text(), QString("rack demo.pod1.rack2"));
}

void TestViewWidget::wheelZoomsTowardThePointer() {
    const auto doc = smallDoc();
    VtkViewWidget w;
    w.resize(640, 400);
    w.scene().setDocument(doc.get());
    QVERIFY(showAndRender(w));
    // A rack away from the middle of the view: zooming keeps it under the pointer.
    const int32_t rack = doc->index().find("demo.pod1.rack6")->index;
    const Vec3 top = rackTop(w, rack);
    const QPoint at = w.projectToWidget(top);
    QVERIFY((at - w.sceneRect().center()).manhattanLength() > 60);
    const auto dist = [&](const double* p) {
        return std::sqrt(std::pow(p[0] - top.x, 2) + std::pow(p[1] - top.y, 2) +
                         std::pow(p[2] - top.z, 2));
    };
    const CameraPose before = w.cameraPose();
    wheel(w, at, 3);
    QVERIFY((w.projectToWidget(top) - at).manhattanLength() <= 3);
    // Three notches of 1.15 each: the camera is that much closer to the rack.
    const double ratio = dist(before.position) / dist(w.cameraPose().position);
    QVERIFY2(std::fabs(ratio - std::pow(1.15, 3)) < 0.05, qPrintable(QString::number(ratio)));
    // Under the pointer: the rack, or (once it is large enough on screen to open, as at
    // device-pixel-ratio 2) one of its members.
    const Endpoint hit = w.pickAt(at)->entity;
    const Topology& t = doc->topology();
    const int32_t hitRack =
        hit.kind == EntityKind::Rack     ? hit.index
        : hit.kind == EntityKind::Host   ? t.hosts[size_t(hit.index)].rack
        : hit.kind == EntityKind::Switch ? t.switches[size_t(hit.index)].rack
        : hit.kind == EntityKind::Gpu    ? t.hosts[size_t(t.gpus[size_t(hit.index)].host)].rack
        : hit.kind == EntityKind::Nic    ? t.hosts[size_t(t.nics[size_t(hit.index)].host)].rack
                                         : kNone;
    QCOMPARE(hitRack, rack);
    // Zooming out moves away from it again, and it stays under the pointer.
    wheel(w, at, -3);
    QVERIFY((w.projectToWidget(top) - at).manhattanLength() <= 3);
    QVERIFY(std::fabs(dist(before.position) / dist(w.cameraPose().position) - 1) < 0.01);
}

void TestViewWidget::zoomingOnARackOpensIt() {
    const auto doc = smallDoc();
    VtkViewWidget w;
    w.resize(640, 400);
    w.scene().setDocument(doc.get());
    QVERIFY(showAndRender(w));
    const int32_t rack = doc->index().find("demo.pod0.rack2")->index;
    const QPoint at = w.projectToWidget(rackTop(w, rack));
    QVERIFY(!w.scene().detail().near);
    // Notch by notch toward the rack, as a user zooms in on it, until it opens.
    int notches = 0;
    while (!w.scene().detail().isOpen(rack) && notches < 60) {
        wheel(w, at, 1);
        ++notches;
    }
    QVERIFY2(w.scene().detail().isOpen(rack), qPrintable(QString::number(notches)));
    // The racks that opened are in front of the camera, around what the view shows.
    const SceneView v = w.scene().sceneView();
    for (int32_t r : w.scene().detail().openRacks) {
        const Vec3 c = w.scene().layout()->racks[size_t(r)].center;
        QVERIFY((c - v.eye).dot(v.forward) > 0);
        QVERIFY(w.sceneRect().adjusted(-200, -200, 200, 200).contains(w.projectToWidget(c)));
    }
}

void TestViewWidget::doubleClickFliesToTheEntity() {
    const auto doc = smallDoc();
    VtkViewWidget w;
    w.resize(640, 400);
    w.scene().setDocument(doc.get());
    QVERIFY(showAndRender(w));
    const int32_t rack = doc->index().find("demo.pod1.rack3")->index;
    QTest::mouseDClick(&w, Qt::LeftButton, {}, w.projectToWidget(rackTop(w, rack)));
    // The flight ends close up on the rack: open, in the middle of the view.
    QVERIFY(QTest::qWaitFor([&] { return w.scene().detail().isOpen(rack); }, 3000));
    const Vec3 centre = w.scene().layout()->racks[size_t(rack)].center;
    QVERIFY(QTest::qWaitFor(
        [&] { return (w.projectToWidget(centre) - w.sceneRect().center()).manhattanLength() < 40; },
        3000));
}

int main(int argc, char** argv) {
    cs::views::useVtkSurfaceFormat(); // as the app does
    QApplication app(argc, argv);
    TestViewWidget t;
    return QTest::qExec(&t, argc, argv);
}

#include "tst_view_widget.moc"

namespace {
bool renderAgain(VtkViewWidget& w) {
    const int before = w.renderCount();
    w.update();
    return QTest::qWaitFor([&] { return w.renderCount() > before; }, 5000);
}
} // namespace

// Two views side by side in one window, each driven by its own ViewState: each picture is the
// picture of its state alone. Swapping the states swaps the pictures.
void TestViewWidget::twoViewsShowTheirOwnStates() {
    const auto doc = smallDoc();
    QWidget window;
    auto* row = new QHBoxLayout(&window);
    auto* left = new VtkViewWidget;
    auto* right = new VtkViewWidget;
    for (VtkViewWidget* v : {left, right}) {
        v->setFixedSize(480, 320);
        row->addWidget(v);
        v->scene().setDocument(doc.get());
    }
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    ViewState floorKinds; // the floor by kind, labels on
    left->applyState(floorKinds);
    ViewState fabricPattern = coloredBy(ViewState{}, ValueMetric::TestPattern);
    fabricPattern.layout = LayoutKind::Fabric;
    fabricPattern.aggregate = Aggregate::Max;
    fabricPattern.labels = false;
    fabricPattern.selection = PickHit{*doc->index().find("demo.pod1.rack2.host0.gpu4")};
    right->applyState(fabricPattern);
    QVERIFY(renderAgain(*left) && renderAgain(*right));
    // Each view holds the state it was given, not the other's.
    const ViewState a = left->state(), b = right->state();
    QCOMPARE(a.layout, LayoutKind::Floor);
    QCOMPARE(a.colorMode, ColorMode::Kind);
    QCOMPARE(b.layout, LayoutKind::Fabric);
    QCOMPARE(b.metric, ValueMetric::TestPattern);
    QCOMPARE(b.aggregate, Aggregate::Max);
    QVERIFY(b.selection.has_value() && !a.selection.has_value());
    // What the user sees: labels in the left view only, different pictures.
    QVERIFY(!left->scene().labelTexts().empty());
    QVERIFY(right->scene().labelTexts().empty());
    const QImage leftShows = left->grabFramebuffer(), rightShows = right->grabFramebuffer();
    QVERIFY(test::countDrawnPixels(leftShows) > 1000 && test::countDrawnPixels(rightShows) > 1000);
    const test::ImageDiff apart = test::compareImages(leftShows, rightShows, 24);
    QVERIFY2(apart.fractionDiffering > 0.05, qPrintable(QString::number(apart.fractionDiffering)));
    // Swapped states, swapped pictures: nothing of one view's state leaks into the other.
    left->applyState(b);
    right->applyState(a);
    QVERIFY(renderAgain(*left) && renderAgain(*right));
    for (const auto& [shown, expected] : {std::pair{left->grabFramebuffer(), rightShows},
                                          std::pair{right->grabFramebuffer(), leftShows}}) {
        const test::ImageDiff d = test::compareImages(shown, expected, 24);
        QVERIFY2(d.sameSize && d.fractionDiffering < 0.002,
                 qPrintable(QString::number(d.fractionDiffering)));
    }
}

namespace {
// Pixels near the difference scale's "A higher" end (vermillion) in the 3D part of a view
// (the colour bar beside it holds the whole scale).
int vermillionPixels(const VtkViewWidget& v) {
    const QImage img = const_cast<VtkViewWidget&>(v).grabFramebuffer();
    const qreal dpr = v.devicePixelRatioF();
    const QRect r = v.sceneRect();
    const Rgba hot = differenceColor(1);
    int n = 0;
    for (int y = int(r.top() * dpr); y < int(r.bottom() * dpr) && y < img.height(); ++y)
        for (int x = int(r.left() * dpr); x < int(r.right() * dpr) && x < img.width(); ++x) {
            const QRgb p = img.pixel(x, y);
            n += std::abs(qRed(p) - hot[0]) + std::abs(qGreen(p) - hot[1]) +
                     std::abs(qBlue(p) - hot[2]) <
                 60;
        }
    return n;
}
} // namespace

// The split view of a comparison: run A beside run B, the first coloured by A - B. Where the
// two runs differ in one link only, that link (its bundle, by the max) stands out; where
// they do not differ, nothing does.
void TestViewWidget::differenceShowsTheOneChangedLink() {
    const auto doc = smallDoc();
    const Topology& t = doc->topology();
    QSplitter split;
    auto* a = new VtkViewWidget;
    auto* b = new VtkViewWidget;
    split.addWidget(a);
    split.addWidget(b);
    split.resize(960, 360);
    for (VtkViewWidget* v : {a, b})
        v->scene().setDocument(doc.get(), LayoutKind::Fabric);
    split.show();
    QVERIFY(QTest::qWaitForWindowExposed(&split));
    FrameValues runA, runB;
    runA.gpu.assign(t.gpus.size(), 0.6f);
    runA.link.assign(t.links.size(), 0.4f);
    runB = runA;
    int32_t uplink = kNone; // a rack switch's uplink, in the middle of the fabric
    for (size_t l = 0; l < t.links.size() && uplink == kNone; ++l)
        if (tierOfLink(t, int32_t(l)) == 1) uplink = int32_t(l);
    QVERIFY(uplink != kNone);
    const EntityMatch match = matchEntities(t, t);
    QVERIFY(match.byName);
    ViewState shown = coloredBy(ViewState{}, ValueMetric::Difference);
    shown.layout = LayoutKind::Fabric;
    shown.aggregate = Aggregate::Max;
    a->applyState(shown);
    b->applyState(coloredBy(a->state(), ValueMetric::Run));
    b->scene().setValues(runB);
    a->scene().setValues(frameDifference(t, runA, t, runB, match));
    QVERIFY(renderAgain(*a) && renderAgain(*b));
    QCOMPARE(vermillionPixels(*a), 0); // the same runs: no difference
    runB.link[size_t(uplink)] = 0.f;   // B idles on one uplink: A - B = 0.4
    runA.link[size_t(uplink)] = 1.f;   // and A saturates it: A - B = 1
    b->scene().setValues(runB);
    a->scene().setValues(frameDifference(t, runA, t, runB, match));
    QCOMPARE(a->scene().values().link[size_t(uplink)], 1.f);
    QVERIFY(renderAgain(*a) && renderAgain(*b));
    const int hot = vermillionPixels(*a);
    QVERIFY2(hot > 20, qPrintable(QString::number(hot)));
    QCOMPARE(vermillionPixels(*b), 0); // B shows its own run, not the difference
    if (qEnvironmentVariableIsSet("CS_SAVE_PICTURES")) split.grab().save("difference.png");
}

namespace {
// Every corner of the overview's boxes (racks, lone switches, bundle paths, names) projects
// inside the view.
void checkOverviewInside(VtkViewWidget& w) {
    const std::vector<Box> boxes = w.scene().overviewBoxes();
    QVERIFY(!boxes.empty());
    for (const Box& b : boxes)
        for (int i = 0; i < 8; ++i) {
            const QPoint p = w.projectToWidget({b.center.x + (i & 1 ? 0.5f : -0.5f) * b.size.x,
                                                b.center.y + (i & 2 ? 0.5f : -0.5f) * b.size.y,
                                                b.center.z + (i & 4 ? 0.5f : -0.5f) * b.size.z});
            QVERIFY2(w.sceneRect().adjusted(-2, -2, 2, 2).contains(p),
                     qPrintable(QString("%1,%2").arg(p.x()).arg(p.y())));
        }
}
} // namespace

void TestViewWidget::overviewFramesAGridOfPods_data() {
    QTest::addColumn<LayoutKind>("layout");
    QTest::newRow("fabric") << LayoutKind::Fabric;
    QTest::newRow("floor") << LayoutKind::Floor;
}

// A site of 96 pods (a grid of pods in the fabric layout): the overview shows all of it,
// filling a good part of the view.
void TestViewWidget::overviewFramesAGridOfPods() {
    QFETCH(LayoutKind, layout);
    TopologyReadOptions o;
    o.sets = {"generator.clusters[0].pods=96", "generator.clusters[0].racksPerPod=16",
              "generator.clusters[0].coreRadix=4096"};
    const auto doc = openTopology("meta-roce-24k", {}, o);
    VtkViewWidget w;
    w.resize(960, 540);
    w.scene().setDocument(doc.get(), layout);
    QVERIFY(showAndRender(w));
    w.scene().viewOverview();
    QVERIFY(renderAgain(w));
    checkOverviewInside(w);
    // Filling: the site's corners span most of the view's width.
    int left = w.width(), right = 0;
    for (const Box& b : w.scene().overviewBoxes()) {
        const QPoint p = w.projectToWidget(b.center);
        left = std::min(left, p.x()), right = std::max(right, p.x());
    }
    QVERIFY2(right - left > w.sceneRect().width() / 2, qPrintable(QString::number(right - left)));
}

// At the overview, a view that changes shape (a second view split beside it) frames the whole
// cluster again; once the user moved the camera, it stays where the user put it.
void TestViewWidget::overviewFollowsTheViewsShape() {
    const auto doc = smallDoc();
    VtkViewWidget w;
    w.resize(900, 400);
    w.scene().setDocument(doc.get(), LayoutKind::Floor); // wide: the width bounds the framing
    QVERIFY(showAndRender(w));
    w.scene().viewOverview();
    const CameraPose wide = w.cameraPose();
    QVERIFY(w.scene().atOverview());
    w.resize(300, 400);
    QTRY_COMPARE(w.width(), 300); // the window system resizes in its own time
    QVERIFY(renderAgain(w));
    const CameraPose narrow = w.cameraPose();
    QVERIFY(!(narrow == wide));      // framed again for the narrow view
    QVERIFY(w.scene().atOverview()); // and still the overview
    // The whole cluster is in the narrow view.
    checkOverviewInside(w);
    const CameraPose mine{{30, -60, 40}, {5, 5, 0}, {0, 0, 1}};
    w.setCameraPose(mine);
    w.resize(600, 400);
    QTRY_COMPARE(w.width(), 600);
    QVERIFY(renderAgain(w));
    QVERIFY(w.cameraPose() == mine);
}
