// Framing (fitCamera): for point sets seen from several directions and picture shapes, every
// point lands inside the picture's window, and the fit is tight: the points reach both edges of
// the window along the axis that binds, so the picture is as large as the window allows; it
// beats framing the bounding box's corners around their centre (what the view did before).
#include "CameraFit.h"
#include "Presets.h"
#include "SceneLayout.h"
#include "TopologyIndex.h"

#include <QTest>

#include <cmath>

using namespace cs;

Q_DECLARE_METATYPE(std::vector<cs::Vec3>)

namespace {

std::vector<Vec3> cornersOf(const std::vector<Box>& boxes) {
    std::vector<Vec3> out;
    for (const Box& b : boxes)
        if (b.drawn())
            for (int i = 0; i < 8; ++i)
                out.push_back({b.center.x + (i & 1 ? 0.5f : -0.5f) * b.size.x,
                               b.center.y + (i & 2 ? 0.5f : -0.5f) * b.size.y,
                               b.center.z + (i & 4 ? 0.5f : -0.5f) * b.size.z});
    return out;
}

std::vector<Vec3> floorOf(const char* preset) {
    const Topology t = generatePreset(preset);
    const TopologyIndex ix(t);
    return cornersOf(computeLayout(t, ix, LayoutKind::Floor).racks);
}

} // namespace

class TestCameraFit : public QObject {
    Q_OBJECT
private slots:
    void everyPointInsideAndTight_data();
    void everyPointInsideAndTight();
    void keepingTheCentreInTheMiddle();
    void nothingToFrame();
};

void TestCameraFit::everyPointInsideAndTight_data() {
    QTest::addColumn<std::vector<Vec3>>("points");
    QTest::addColumn<double>("dirX");
    QTest::addColumn<double>("dirY");
    QTest::addColumn<double>("dirZ");
    QTest::addColumn<double>("aspect");
    const std::vector<Vec3> strip = cornersOf({{{0, 50, 1}, {4, 100, 2}}}); // deep and narrow
    const std::vector<Vec3> cube = cornersOf({{{0, 0, 0}, {2, 2, 2}}});
    const std::vector<Vec3> meta = floorOf("meta-roce-24k");
    QTest::newRow("a deep strip, front, wide picture") << strip << 0.25 << -1.0 << 0.85 << 16.0 / 9;
    QTest::newRow("a deep strip, side, wide picture") << strip << 1.0 << 0.25 << 0.85 << 16.0 / 9;
    QTest::newRow("a cube, tall picture") << cube << 0.2 << -1.0 << 1.2 << 0.5;
    QTest::newRow("meta-roce-24k's racks, front") << meta << 0.25 << -1.0 << 0.85 << 16.0 / 9;
    QTest::newRow("meta-roce-24k's racks, turned") << meta << -0.74 << -0.72 << 0.85 << 16.0 / 9;
    QTest::newRow("meta-roce-24k's racks, narrow") << meta << 0.25 << -1.0 << 0.85 << 0.4;
}

void TestCameraFit::everyPointInsideAndTight() {
    QFETCH(std::vector<Vec3>, points);
    QFETCH(double, dirX);
    QFETCH(double, dirY);
    QFETCH(double, dirZ);
    QFETCH(double, aspect);
    const Vec3d dir{dirX, dirY, dirZ};
    const double tanHalf = std::tan(30 * M_PI / 360);
    const PictureWindow w{-0.97, 0.97, -0.95, 0.88};
    const auto fit = fitCamera(points, dir, tanHalf, aspect, w);
    QVERIFY(fit);
    double x0 = 9, x1 = -9, y0 = 9, y1 = -9;
    for (const Vec3& p : points) {
        const PicturePoint q = projectThrough(*fit, dir, tanHalf, aspect, p);
        QVERIFY(q.inFront);
        x0 = std::min(x0, q.x), x1 = std::max(x1, q.x), y0 = std::min(y0, q.y),
        y1 = std::max(y1, q.y);
    }
    const double eps = 1e-4;
    QVERIFY2(x0 >= w.left - eps && x1 <= w.right + eps && y0 >= w.bottom - eps && y1 <= w.top + eps,
             qPrintable(QStringLiteral("x %1..%2, y %3..%4").arg(x0).arg(x1).arg(y0).arg(y1)));
    // Tight: one axis spans its window edge to edge (to 0.5 %).
    const bool widthBinds = x1 - x0 >= 0.995 * (w.right - w.left);
    const bool heightBinds = y1 - y0 >= 0.995 * (w.top - w.bottom);
    QVERIFY2(widthBinds || heightBinds,
             qPrintable(QStringLiteral("x %1..%2, y %3..%4").arg(x0).arg(x1).arg(y0).arg(y1)));
    // The other axis centred in its window, to the same 0.5 % of the window.
    if (!widthBinds) QVERIFY(std::fabs((x0 - w.left) - (w.right - x1)) < 0.01 * (w.right - w.left));
    if (!heightBinds)
        QVERIFY(std::fabs((y0 - w.bottom) - (w.top - y1)) < 0.01 * (w.top - w.bottom));

    // What the view did before: the bounding box's corners around its centre, 4 % spare.
    Bounds b;
    for (const Vec3& p : points)
        b.add(p);
    const std::vector<Vec3> corners = cornersOf({{b.center(), b.max - b.min}});
    CameraFit old;
    old.focalPoint = {b.center().x, b.center().y, b.center().z};
    const double n = std::sqrt(dirX * dirX + dirY * dirY + dirZ * dirZ);
    const Vec3d f{-dirX / n, -dirY / n, -dirZ / n};
    const Vec3d right = fit->right, up = fit->up;
    for (const Vec3& p : corners) {
        const Vec3d d{p.x - b.center().x, p.y - b.center().y, p.z - b.center().z};
        const double r = d.x * right.x + d.y * right.y + d.z * right.z;
        const double u = d.x * up.x + d.y * up.y + d.z * up.z;
        const double depth = d.x * f.x + d.y * f.y + d.z * f.z;
        old.distance = std::max(
            old.distance,
            std::max(std::fabs(r) / (tanHalf * aspect), std::fabs(u) / (tanHalf * 0.88)) - depth);
    }
    old.distance *= 1.04;
    QVERIFY2(fit->distance < old.distance,
             qPrintable(QStringLiteral("fit %1 m, old %2 m").arg(fit->distance).arg(old.distance)));
}

void TestCameraFit::keepingTheCentreInTheMiddle() {
    // One entity flown to: its centre in the middle of the picture, every corner inside, from
    // no nearer than the shifted fit.
    const std::vector<Vec3> box = cornersOf({{{3, 7, 1}, {2, 0.5f, 0.3f}}});
    const Vec3d dir{0.2, -1, 1.2};
    const double tanHalf = std::tan(30 * M_PI / 360), aspect = 16.0 / 9;
    const PictureWindow w{-0.97, 0.97, -0.95, 0.88};
    const auto centred = fitCamera(box, dir, tanHalf, aspect, w, true);
    const auto shifted = fitCamera(box, dir, tanHalf, aspect, w);
    QVERIFY(centred && shifted);
    const PicturePoint mid = projectThrough(*centred, dir, tanHalf, aspect, {3, 7, 1});
    QVERIFY(std::fabs(mid.x) < 1e-6 && std::fabs(mid.y) < 1e-6);
    for (const Vec3& p : box) {
        const PicturePoint q = projectThrough(*centred, dir, tanHalf, aspect, p);
        QVERIFY(q.x >= w.left - 1e-4 && q.x <= w.right + 1e-4);
        QVERIFY(q.y >= w.bottom - 1e-4 && q.y <= w.top + 1e-4);
    }
    QVERIFY(centred->distance >= shifted->distance - 1e-9);
}

void TestCameraFit::nothingToFrame() {
    QVERIFY(!fitCamera({}, {0, -1, 1}, 0.27, 1.6, {}));
    const std::vector<Vec3> one{{1, 2, 3}};
    QVERIFY(!fitCamera(one, {0, -1, 1}, 0, 1.6, {})); // no view angle
    const auto single = fitCamera(one, {0, -1, 1}, 0.27, 1.6, {});
    QVERIFY(single); // a point: framed in front of the camera, at the centre
    const PicturePoint q = projectThrough(*single, {0, -1, 1}, 0.27, 1.6, one[0]);
    QVERIFY(q.inFront && std::fabs(q.x) < 1e-6 && std::fabs(q.y) < 1e-6);
}

QTEST_GUILESS_MAIN(TestCameraFit)
#include "tst_camera_fit.moc"
