#include "SceneOutlines.h"

#include "CableRoutes.h"
#include "ColorMaps.h"

#include <vtkActor.h>
#include <vtkCellArray.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>

#include <algorithm>

namespace cs::views {
namespace {

// Appends the outline of an entity (its box's edges, or a link's path) to points and lines.
void outline(const OutlineGeometry& g, Endpoint e, int32_t bundle, vtkPoints* pts,
             vtkCellArray* lines) {
    if (e.kind == EntityKind::Link) {
        const CablePath path =
            bundle != kNone ? bundlePath(*g.layout, bundle) : linkPath(*g.layout, e.index);
        lines->InsertNextCell(path.count);
        for (int k = 0; k < path.count; ++k) {
            const Vec3& p = path.points[size_t(k)];
            lines->InsertCellPoint(pts->InsertNextPoint(p.x, p.y, p.z));
        }
        return;
    }
    const Bounds bb = g.boundsOf(e);
    if (!bb.valid()) return;
    const Vec3 pad = (bb.max - bb.min) * 0.06f + Vec3{0.02f, 0.02f, 0.02f};
    const Vec3 lo = bb.min - pad, hi = bb.max + pad;
    const vtkIdType first = pts->GetNumberOfPoints();
    for (int i = 0; i < 8; ++i)
        pts->InsertNextPoint(i & 1 ? hi.x : lo.x, i & 2 ? hi.y : lo.y, i & 4 ? hi.z : lo.z);
    const int edges[12][2] = {{0, 1}, {2, 3}, {4, 5}, {6, 7}, {0, 2}, {1, 3},
                              {4, 6}, {5, 7}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};
    for (const auto& ed : edges) {
        lines->InsertNextCell(2);
        lines->InsertCellPoint(first + ed[0]);
        lines->InsertCellPoint(first + ed[1]);
    }
}

} // namespace

SceneOutlines::SceneOutlines(vtkRenderer* renderer) : renderer_(renderer) {
    auto style = [&](OutlineKind kind, Rgba colour, double widthPx) {
        Outline& o = of(kind);
        vtkNew<vtkPolyDataMapper> mapper;
        mapper->SetInputData(o.poly);
        o.actor->SetMapper(mapper);
        o.actor->GetProperty()->SetColor(colour[0] / 255.0, colour[1] / 255.0, colour[2] / 255.0);
        o.actor->GetProperty()->SetLineWidth(float(widthPx));
        o.actor->GetProperty()->SetLighting(false);
        o.actor->SetVisibility(false);
        renderer_->AddActor(o.actor);
    };
    style(OutlineKind::Selection, {255, 255, 255, 255}, 4);
    style(OutlineKind::Failed, kindColor(KindClass::StorageRack), 4); // vermillion: failed
    // Okabe-Ito's reddish purple: apart from every viridis colour, and from failed vermillion.
    style(OutlineKind::Outlier, {204, 121, 167, 255}, 4);
    // Okabe-Ito's sky blue: a selected job, apart from the white selection and the outlines
    // of failed and outlying parts; thin, so that racks side by side stay apart.
    style(OutlineKind::Job, {86, 180, 233, 255}, 1.5);
}

SceneOutlines::~SceneOutlines() {
    for (Outline& o : outlines_)
        renderer_->RemoveActor(o.actor);
}

void SceneOutlines::show(OutlineKind kind, const std::vector<Endpoint>& entities,
                         const OutlineGeometry& g, int32_t bundle) {
    vtkNew<vtkPoints> pts;
    vtkNew<vtkCellArray> lines;
    if (g.topology && g.layout) {
        // A GPU is a pixel or two at the overview, its rack a box the eye finds: failed and
        // outlying parts bring their racks' outlines; a job's racks are outlined as they are (a
        // rack it shares is not outlined whole).
        const bool withRacks = kind == OutlineKind::Failed || kind == OutlineKind::Outlier;
        const Topology& t = *g.topology;
        std::vector<int32_t> racks;
        for (const Endpoint& e : entities) {
            if (e.index < 0 || size_t(e.index) >= t.count(e.kind)) continue;
            outline(g, e, kind == OutlineKind::Selection ? bundle : kNone, pts, lines);
            const int32_t rack = t.rackHolding(e);
            if (withRacks && rack != kNone && e.kind != EntityKind::Rack) racks.push_back(rack);
        }
        std::sort(racks.begin(), racks.end());
        racks.erase(std::unique(racks.begin(), racks.end()), racks.end());
        for (int32_t r : racks)
            outline(g, {EntityKind::Rack, r}, kNone, pts, lines);
    }
    Outline& o = of(kind);
    o.poly->SetPoints(pts);
    o.poly->SetLines(lines);
    o.poly->Modified();
    o.actor->SetVisibility(pts->GetNumberOfPoints() > 0);
}

size_t SceneOutlines::lineCells(OutlineKind kind) const {
    return size_t(of(kind).poly->GetNumberOfCells());
}

} // namespace cs::views
