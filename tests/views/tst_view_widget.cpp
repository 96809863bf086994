// The interactive 3D widget under a real X server (xvfb-run): it draws, a click selects
// the entity under the pointer, framing an entity brings it into view, and it survives
// resizing, device-pixel-ratio 2 (run again with QT_SCALE_FACTOR=2) and close / reopen.
#include "ImageCompare.h"
#include "VtkViewWidget.h"

#include "VtkSurfaceFormat.h"

#include <QApplication>
#include <QHelpEvent>
#include <QSignalSpy>
#include <QTest>
#include <QToolTip>

#include <vtkCamera.h>
#include <vtkRenderer.h>

using namespace cs;
using namespace cs::views;

Q_DECLARE_METATYPE(cs::Endpoint)

namespace {
std::unique_ptr<TopologyDocument> smallDoc() {
    return openTopology("small-256", {});
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
        return (w.projectToWidget(box.center) - w.rect().center()).manhattanLength();
    };
    QVERIFY2(QTest::qWaitFor([&] { return offCentre() < 40; }, 3000),
             "the host is not in the middle of the view");
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
    const int* size = w.renderer()->GetSize();
    QCOMPARE(size[0], int(500 * dpr));
    QCOMPARE(size[1], int(300 * dpr));
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

int main(int argc, char** argv) {
    cs::views::useVtkSurfaceFormat(); // as the app does
    QApplication app(argc, argv);
    TestViewWidget t;
    return QTest::qExec(&t, argc, argv);
}

#include "tst_view_widget.moc"
