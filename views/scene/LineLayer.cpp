#include "LineLayer.h"

#include <vtkActor.h>
#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkIdTypeArray.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkUnsignedCharArray.h>

#include <algorithm>
#include <array>
#include <cmath>

namespace cs::views {

LineLayer::LineLayer(vtkRenderer* renderer) : renderer_(renderer) {
    for (int k = 0; k < kWidths; ++k) {
        polys_[size_t(k)]->SetPoints(points_);
        polys_[size_t(k)]->GetPointData()->SetScalars(pointColors_);
        vtkNew<vtkPolyDataMapper> mapper;
        mapper->SetInputData(polys_[size_t(k)]);
        mapper->SetScalarModeToUsePointData();
        mapper->SetColorModeToDirectScalars();
        vtkActor* a = actors_[size_t(k)];
        a->SetMapper(mapper);
        a->GetProperty()->SetLineWidth(kWidthPx[size_t(k)]);
        a->GetProperty()->SetLighting(false);
        a->SetVisibility(false);
        renderer->AddActor(a);
    }
    pointColors_->SetName("color");
    pointColors_->SetNumberOfComponents(4);
    allColors_->SetName("color");
    allColors_->SetNumberOfComponents(4);
}

LineLayer::~LineLayer() {
    for (auto& a : actors_)
        renderer_->RemoveActor(a);
}

void LineLayer::setLines(const std::vector<CablePath>& paths) {
    size_t total = 0;
    for (const CablePath& path : paths)
        total += size_t(path.count);
    points_->SetNumberOfPoints(vtkIdType(total));
    firstPoint_.resize(paths.size());
    pointCount_.resize(paths.size());
    vtkIdType p = 0;
    for (size_t i = 0; i < paths.size(); ++i) {
        firstPoint_[i] = p;
        pointCount_[i] = paths[i].count;
        for (int k = 0; k < paths[i].count; ++k) {
            const Vec3& v = paths[i].points[size_t(k)];
            points_->SetPoint(p++, v.x, v.y, v.z);
        }
    }
    points_->Modified();
    pointColors_->SetNumberOfTuples(vtkIdType(total));
    geometryChanged_ = true;
    colors_.assign(paths.size(), Rgba{200, 200, 200, 255});
    widthClass_.assign(paths.size(), 0);
    hidden_.assign(paths.size(), 0);
    commit();
}

void LineLayer::setLoad(size_t i, float fraction) {
    widthClass_[i] = hidden_[i] ? kWidths : !(fraction >= 1.f / 3) ? 0 : fraction < 2.f / 3 ? 1 : 2;
}

void LineLayer::setHidden(size_t i, bool hidden) {
    hidden_[i] = hidden;
    if (hidden)
        widthClass_[i] = kWidths;
    else if (widthClass_[i] == kWidths)
        widthClass_[i] = 0;
}

void LineLayer::commit() {
    // A line's colour is on each of its points (VTK's cell colours cost a buffer texture
    // rebuilt every frame); its width class picks the polydata whose topology holds it, and
    // that topology is rebuilt only when a line changes class.
    const bool colorsChanged = geometryChanged_ || colors_ != committedColors_;
    const bool widthsChanged = geometryChanged_ || widthClass_ != committedWidths_;
    geometryChanged_ = false;
    if (colorsChanged) {
        auto* c = reinterpret_cast<Rgba*>(pointColors_->GetPointer(0));
        for (size_t i = 0; i < colors_.size(); ++i)
            std::fill(c + firstPoint_[i], c + firstPoint_[i] + pointCount_[i], colors_[i]);
        pointColors_->Modified();
        committedColors_ = colors_;
    }
    if (widthsChanged) {
        // Each width's lines written straight into offset and connectivity arrays: a frame of
        // a large site moves thousands of lines between widths (InsertNextCell took 2 ms for
        // 78,000 lines).
        std::array<vtkIdType, kWidths> cells{}, points{};
        for (size_t i = 0; i < colors_.size(); ++i)
            if (widthClass_[i] < kWidths) {
                ++cells[widthClass_[i]];
                points[widthClass_[i]] += pointCount_[i];
            }
        for (int k = 0; k < kWidths; ++k) {
            vtkNew<vtkIdTypeArray> offsets, connectivity;
            offsets->SetNumberOfValues(cells[size_t(k)] + 1);
            connectivity->SetNumberOfValues(points[size_t(k)]);
            vtkIdType* offset = offsets->GetPointer(0);
            vtkIdType* point = connectivity->GetPointer(0);
            vtkIdType at = 0;
            *offset++ = 0;
            for (size_t i = 0; i < colors_.size(); ++i) {
                if (widthClass_[i] != k) continue;
                for (int j = 0; j < pointCount_[i]; ++j)
                    point[at++] = firstPoint_[i] + j;
                *offset++ = at;
            }
            vtkNew<vtkCellArray> lines;
            lines->SetData(offsets, connectivity);
            actors_[size_t(k)]->SetVisibility(cells[size_t(k)] > 0);
            polys_[size_t(k)]->SetLines(lines);
        }
        committedWidths_ = widthClass_;
    }
    if (colorsChanged || widthsChanged)
        for (auto& p : polys_)
            p->Modified();
}

vtkPolyData* LineLayer::polyData() const {
    vtkNew<vtkCellArray> lines;
    allColors_->SetNumberOfTuples(0);
    for (size_t i = 0; i < colors_.size(); ++i) {
        if (hidden_[i]) continue;
        lines->InsertNextCell(pointCount_[i]);
        for (int j = 0; j < pointCount_[i]; ++j)
            lines->InsertCellPoint(firstPoint_[i] + j);
        allColors_->InsertNextTypedTuple(colors_[i].data());
    }
    all_->SetPoints(points_);
    all_->SetLines(lines);
    all_->GetCellData()->SetScalars(allColors_);
    return all_.Get();
}

vtkActor* LineLayer::actor() const {
    for (const auto& a : actors_)
        if (a->GetVisibility()) return a.Get();
    return actors_[0].Get();
}

} // namespace cs::views
