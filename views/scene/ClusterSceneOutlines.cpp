// The scene's outlines: the selection (white), failed entities (vermillion), outliers
// (reddish purple) and a selected job (sky blue), each a box around the entity, and around its rack
// when it sits in one.
#include "ClusterScene.h"

#include <vtkActor.h>
#include <vtkCellArray.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>

#include <algorithm>

namespace cs::views {

void ClusterScene::select(std::optional<PickHit> hit) {
    state_.selection = hit;
    updateSelectionActor();
}

void ClusterScene::outline(Endpoint e, int32_t bundle, vtkPoints* pts, vtkCellArray* lines) const {
    if (e.kind == EntityKind::Link) {
        const CablePath path =
            bundle != kNone ? bundlePath(*layout_, bundle) : linkPath(*layout_, e.index);
        lines->InsertNextCell(path.count);
        for (int k = 0; k < path.count; ++k) {
            const Vec3& p = path.points[size_t(k)];
            lines->InsertCellPoint(pts->InsertNextPoint(p.x, p.y, p.z));
        }
        return;
    }
    const Bounds bb = boundsOf(e);
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

void ClusterScene::updateSelectionActor() {
    vtkNew<vtkPoints> pts;
    vtkNew<vtkCellArray> lines;
    if (state_.selection && layout_ && doc_)
        outline(state_.selection->entity, state_.selection->bundle, pts, lines);
    selectionPoly_->SetPoints(pts);
    selectionPoly_->SetLines(lines);
    selectionPoly_->Modified();
    selectionActor_->SetVisibility(pts->GetNumberOfPoints() > 0);
}

void ClusterScene::setMarked(std::vector<Endpoint> entities) {
    if (entities == state_.marked) return;
    state_.marked = std::move(entities);
    updateMarkedActor();
}

// Each entity's outline and, for one inside a rack (a GPU, a NIC, a host), its rack's too: a
// GPU is a pixel or two at the overview, its rack a box the eye finds.
void ClusterScene::outlineWithRacks(const std::vector<Endpoint>& entities, vtkPolyData* poly,
                                    vtkActor* actor, bool withRacks) const {
    vtkNew<vtkPoints> pts;
    vtkNew<vtkCellArray> lines;
    if (layout_ && doc_) {
        const Topology& t = doc_->topology();
        std::vector<int32_t> racks;
        for (const Endpoint& e : entities) {
            if (e.index < 0 || size_t(e.index) >= t.count(e.kind)) continue;
            outline(e, kNone, pts, lines);
            const int32_t rack = t.rackHolding(e);
            if (withRacks && rack != kNone && e.kind != EntityKind::Rack) racks.push_back(rack);
        }
        std::sort(racks.begin(), racks.end());
        racks.erase(std::unique(racks.begin(), racks.end()), racks.end());
        for (int32_t r : racks)
            outline({EntityKind::Rack, r}, kNone, pts, lines);
    }
    poly->SetPoints(pts);
    poly->SetLines(lines);
    poly->Modified();
    actor->SetVisibility(pts->GetNumberOfPoints() > 0);
}

void ClusterScene::updateMarkedActor() {
    outlineWithRacks(state_.marked, markedPoly_, markedActor_);
}

void ClusterScene::setHighlighted(std::vector<Endpoint> entities) {
    if (entities == highlighted_) return;
    highlighted_ = std::move(entities);
    // A job's own racks and hosts as they are: a rack it shares is not outlined whole.
    outlineWithRacks(highlighted_, highlightedPoly_, highlightedActor_, false);
}

size_t ClusterScene::highlightedLines() const {
    return size_t(highlightedPoly_->GetNumberOfCells());
}

void ClusterScene::setFlagged(std::vector<Endpoint> entities) {
    if (entities == flagged_) return;
    flagged_ = std::move(entities);
    outlineWithRacks(flagged_, flaggedPoly_, flaggedActor_);
}

} // namespace cs::views
