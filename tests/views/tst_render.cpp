// Render tests: fixed cameras, multisampling off, pictures compared with baselines under a
// threshold (tests/views/baselines). Needs an X server: run under xvfb-run.
#include "HeadlessRenderer.h"
#include "ImageCompare.h"

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
    scene.setDocument(doc.get(), layout == "floor" ? LayoutKind::Floor : LayoutKind::Fabric);
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
