// The camera: what it sees (for the level of detail), rays and picks through a point of the
// view, the bounds of an entity, and the framings (overview, a pod, a rack, an entity).
#include "ClusterScene.h"

#include <vtkCamera.h>
#include <vtkRenderer.h>

#include <algorithm>
#include <array>
#include <cmath>

namespace cs::views {

SceneView ClusterScene::sceneView() const {
    vtkCamera* cam = renderer_->GetActiveCamera();
    double pos[3], dir[3], up[3];
    cam->GetPosition(pos);
    cam->GetDirectionOfProjection(dir);
    cam->GetViewUp(up);
    SceneView v;
    v.eye = {float(pos[0]), float(pos[1]), float(pos[2])};
    v.forward = {float(dir[0]), float(dir[1]), float(dir[2])};
    // The view up made orthogonal to the direction, as VTK projects with it.
    const Vec3 u{float(up[0]), float(up[1]), float(up[2])};
    const Vec3 ortho = u - v.forward * u.dot(v.forward);
    v.up = ortho * (1.f / std::max(1e-6f, ortho.length()));
    v.tanHalfHeight = float(std::tan(cam->GetViewAngle() * M_PI / 360.0));
    const int* size = renderer_->GetSize();
    // Before the first render the renderer has no size: assume the default view's.
    const bool sized = size[0] > 1 && size[1] > 1;
    v.heightPx = sized ? float(size[1]) : 720.f;
    v.aspect = sized ? float(size[0]) / float(size[1]) : 16.f / 9;
    return v;
}

std::optional<Ray> ClusterScene::rayAt(double x, double y) const {
    double nearW[4], farW[4];
    renderer_->SetDisplayPoint(x, y, 0);
    renderer_->DisplayToWorld();
    renderer_->GetWorldPoint(nearW);
    renderer_->SetDisplayPoint(x, y, 1);
    renderer_->DisplayToWorld();
    renderer_->GetWorldPoint(farW);
    if (nearW[3] == 0 || farW[3] == 0) return std::nullopt;
    const Vec3 a{float(nearW[0] / nearW[3]), float(nearW[1] / nearW[3]),
                 float(nearW[2] / nearW[3])};
    const Vec3 b{float(farW[0] / farW[3]), float(farW[1] / farW[3]), float(farW[2] / farW[3])};
    return Ray{a, (b - a) * (1.f / std::max(1e-6f, (b - a).length()))};
}

std::optional<Vec3> ClusterScene::worldPointAt(double x, double y) const {
    const std::optional<Ray> ray = rayAt(x, y);
    if (!ray) return std::nullopt;
    if (const std::optional<PickHit> hit = pickDisplay(x, y))
        return ray->origin + ray->direction * hit->distance;
    // Nothing there: the floor (z = 0) where the ray comes down to it.
    if (ray->direction.z < -1e-4f) {
        const float t = -ray->origin.z / ray->direction.z;
        if (t > 0) return ray->origin + ray->direction * t;
    }
    return std::nullopt;
}

std::optional<PickHit> ClusterScene::pickDisplay(double x, double y) const {
    if (!layout_ || !doc_) return std::nullopt;
    const std::optional<Ray> ray = rayAt(x, y);
    if (!ray) return std::nullopt;
    // 4 pixels of tolerance around lines, as metres per metre of distance.
    const int* size = renderer_->GetSize();
    const double angle = renderer_->GetActiveCamera()->GetViewAngle() * M_PI / 180.0;
    const float tolerance = float(4.0 * 2.0 * std::tan(angle / 2) / std::max(1, size[1]));
    return pickRay(doc_->topology(), doc_->index(), *layout_, detail_, *ray, tolerance);
}

Bounds ClusterScene::boundsOf(Endpoint e) const {
    Bounds b;
    if (!layout_ || !doc_) return b;
    const Topology& t = doc_->topology();
    switch (e.kind) {
    case EntityKind::Cluster:
        for (int32_t p : doc_->index().podsOfCluster(e.index))
            if (layout_->podBounds[size_t(p)].valid()) {
                b.add(layout_->podBounds[size_t(p)].min);
                b.add(layout_->podBounds[size_t(p)].max);
            }
        break;
    case EntityKind::Pod:
        return layout_->podBounds[size_t(e.index)];
    case EntityKind::Link: {
        b.add(layout_->linkA[size_t(e.index)]);
        b.add(layout_->linkB[size_t(e.index)]);
        break;
    }
    case EntityKind::Nic:
        if (layout_->nics[size_t(e.index)].drawn()) {
            b.add(layout_->nics[size_t(e.index)]);
            return b;
        }
        return boundsOf({EntityKind::Host, t.nics[size_t(e.index)].host});
    case EntityKind::Row:
        for (int32_t r = 0; r < int32_t(t.racks.size()); ++r)
            if (t.racks[size_t(r)].row == e.index) b.add(layout_->racks[size_t(r)]);
        break;
    default: {
        const Box& box = layout_->boxOf(e);
        if (box.drawn())
            b.add(box);
        else if (e.kind == EntityKind::Switch) {
            const Switch& w = t.switches[size_t(e.index)];
            if (w.host != kNone) return boundsOf({EntityKind::Host, w.host});
            if (w.rack != kNone) return boundsOf({EntityKind::Rack, w.rack});
        }
    }
    }
    return b;
}

void ClusterScene::frame(const Bounds& b, double closeness, bool closeUp) {
    if (!b.valid()) return;
    const Box box{b.center(), b.max - b.min};
    frameBoxes({&box, 1}, closeness, closeUp, false, true);
}

namespace {
std::array<Vec3, 8> cornersOf(const Box& b) {
    std::array<Vec3, 8> out;
    for (int i = 0; i < 8; ++i)
        out[size_t(i)] = {b.center.x + (i & 1 ? 0.5f : -0.5f) * b.size.x,
                          b.center.y + (i & 2 ? 0.5f : -0.5f) * b.size.y,
                          b.center.z + (i & 4 ? 0.5f : -0.5f) * b.size.z};
    return out;
}
} // namespace

void ClusterScene::frameBoxes(std::span<const Box> boxes, double closeness, bool closeUp,
                              bool turnToFill, bool keepCentre) {
    vtkCamera* cam = renderer_->GetActiveCamera();
    Vec3d dir{0.25, -1.0, 0.85}; // from the front, above: rows read left to right
    if (state_.layout == LayoutKind::Fabric) dir.x = 0.15, dir.z = 0.45;
    // Close up, look down into the aisle at about 50 degrees: the row in front of a rack
    // hides nothing of its front, where the GPUs are.
    if (closeUp && state_.layout == LayoutKind::Floor) dir.x = 0.2, dir.z = 1.2;
    std::vector<Vec3> points; // a box's corners, or a point for a box of no size
    std::vector<size_t> firstPoint;
    points.reserve(8 * boxes.size());
    for (const Box& b : boxes) {
        firstPoint.push_back(points.size());
        if (b.size.x == 0 && b.size.y == 0 && b.size.z == 0) {
            points.push_back(b.center);
            continue;
        }
        const auto corners = cornersOf(b);
        points.insert(points.end(), corners.begin(), corners.end());
    }
    firstPoint.push_back(points.size());
    const int* size = renderer_->GetSize();
    const double aspect = size[1] > 0 ? double(size[0]) / double(size[1]) : 16.0 / 9.0;
    const double tanHalf = std::tan(cam->GetViewAngle() * M_PI / 360.0);
    // The top 12 % stay clear for the title line above the fabric, and in the fabric layout
    // the left 15 % for the tiers' names; a little room elsewhere.
    const bool fabric = state_.layout == LayoutKind::Fabric;
    const PictureWindow window{fabric ? -0.7 : -0.97, 0.97, -0.95, 0.88};
    std::optional<CameraFit> fit = fitCamera(points, dir, tanHalf, aspect, window, keepCentre);
    if (!fit) return;
    if (turnToFill) {
        // A floor much deeper than wide fills a wide picture better seen from another side:
        // of views turned about the vertical (the racks' fronts still towards the camera),
        // the one whose boxes cover most of the picture (cells of a coarse grid under a
        // box's outline), taken only when it covers 15 % more than the front view.
        auto covered = [&](const CameraFit& f, Vec3d d) {
            constexpr int kCols = 64, kRows = 36;
            std::vector<uint8_t> cells(kCols * kRows, 0);
            auto cell = [](double v, int n) { return std::clamp(int((v + 1) / 2 * n), 0, n - 1); };
            for (size_t b = 0; b < boxes.size(); ++b) {
                double x0 = 2, x1 = -2, y0 = 2, y1 = -2;
                for (size_t i = firstPoint[b]; i < firstPoint[b + 1]; ++i) {
                    const PicturePoint q = projectThrough(f, d, tanHalf, aspect, points[i]);
                    x0 = std::min(x0, q.x), x1 = std::max(x1, q.x);
                    y0 = std::min(y0, q.y), y1 = std::max(y1, q.y);
                }
                for (int r = cell(y0, kRows); r <= cell(y1, kRows); ++r)
                    for (int c = cell(x0, kCols); c <= cell(x1, kCols); ++c)
                        cells[size_t(r * kCols + c)] = 1;
            }
            return double(std::count(cells.begin(), cells.end(), 1));
        };
        double best = 1.15 * covered(*fit, dir);
        for (double turnDeg : {-60.0, -30.0, 30.0, 60.0}) {
            const double a = turnDeg * M_PI / 180, c = std::cos(a), s = std::sin(a);
            const Vec3d turned{dir.x * c - dir.y * s, dir.x * s + dir.y * c, dir.z};
            const auto turnedFit = fitCamera(points, turned, tanHalf, aspect, window);
            if (!turnedFit) continue;
            const double cells = covered(*turnedFit, turned);
            if (cells > best) best = cells, fit = turnedFit, dir = turned;
        }
    }
    const double n = std::sqrt(dir.x * dir.x + dir.y * dir.y + dir.z * dir.z);
    const double distance = std::max(fit->distance, 1.5) * closeness / n; // a GPU shows its host
    const Vec3d& c = fit->focalPoint;
    cam->SetFocalPoint(c.x, c.y, c.z);
    cam->SetPosition(c.x + dir.x * distance, c.y + dir.y * distance, c.z + dir.z * distance);
    cam->SetViewUp(0, 0, 1);
    renderer_->ResetCameraClippingRange();
    updateDetail();
}

std::vector<Box> ClusterScene::overviewBoxes() const {
    std::vector<Box> out;
    for (size_t r = 0; r < layout_->racks.size(); ++r)
        if (layout_->rackFar[r] && layout_->racks[r].drawn()) out.push_back(layout_->racks[r]);
    for (size_t s = 0; s < layout_->switches.size(); ++s)
        if (layout_->switchFar[s] && layout_->switches[s].drawn())
            out.push_back(layout_->switches[s]);
    // The bundles' paths too: cable trays run above the racks.
    for (size_t k = 0; k < layout_->bundles.a.size(); ++k) {
        const CablePath path = bundlePath(*layout_, int32_t(k));
        for (int i = 0; i < path.count; ++i)
            out.push_back({path.points[size_t(i)], {0, 0, 0}});
    }
    // And the pods' and tiers' names: a line of text above or below their anchor.
    for (const LabelCandidate& c : labelCandidates_)
        if (c.kind == LabelKind::Pod || c.kind == LabelKind::Tier)
            out.push_back(
                {c.anchor + Vec3{0, 0, (c.below ? -1.5f : 1.5f) * c.worldSizeM}, {0, 0, 0}});
    return out;
}

void ClusterScene::viewOverview() {
    if (!layout_) return;
    // Every rack and lone switch in the picture, as large as the picture allows.
    const std::vector<Box> boxes = overviewBoxes();
    if (boxes.empty())
        frame(layout_->bounds, 1.0);
    else
        frameBoxes(boxes, 1.0, false, state_.layout == LayoutKind::Floor);
    overviewPose_ = cameraPose();
}

bool ClusterScene::atOverview() const {
    return overviewPose_ && cameraPose() == *overviewPose_;
}

bool ClusterScene::viewPod(int32_t pod) {
    if (!layout_ || pod < 0 || size_t(pod) >= layout_->podBounds.size()) return false;
    frame(layout_->podBounds[size_t(pod)], 1.0);
    return true;
}

bool ClusterScene::viewRack(int32_t rack) {
    if (!layout_ || rack < 0 || size_t(rack) >= layout_->racks.size() ||
        !layout_->racks[size_t(rack)].drawn())
        return false;
    frame(boundsOf({EntityKind::Rack, rack}), 2.2, true);
    return true;
}

bool ClusterScene::viewEntity(Endpoint e) {
    if (!layout_ || !doc_ || e.index < 0 || size_t(e.index) >= doc_->topology().count(e.kind))
        return false;
    if (e.kind == EntityKind::Pod) return viewPod(e.index);
    if (e.kind == EntityKind::Cluster) {
        frame(boundsOf(e), 1.0);
        return true;
    }
    const Bounds b = boundsOf(e);
    if (!b.valid()) return false;
    // Small things (hosts, GPUs, NICs) a few times their own size away: their host and its
    // neighbours fill the view.
    frame(b, e.kind == EntityKind::Link ? 1.0 : 2.0, true);
    return true;
}

} // namespace cs::views
