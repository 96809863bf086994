#include "LineLayer.h"

#include <vtkActor.h>
#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkUnsignedCharArray.h>

#include <cmath>

namespace cs::views {

LineLayer::LineLayer(vtkRenderer* renderer) : renderer_(renderer) {
    for (int k = 0; k < kWidths; ++k) {
        colorArrays_[size_t(k)]->SetName("color");
        colorArrays_[size_t(k)]->SetNumberOfComponents(4);
        polys_[size_t(k)]->SetPoints(points_);
        polys_[size_t(k)]->GetCellData()->SetScalars(colorArrays_[size_t(k)]);
        vtkNew<vtkPolyDataMapper> mapper;
        mapper->SetInputData(polys_[size_t(k)]);
        mapper->SetScalarModeToUseCellData();
        mapper->SetColorModeToDirectScalars();
        vtkActor* a = actors_[size_t(k)];
        a->SetMapper(mapper);
        a->GetProperty()->SetLineWidth(kWidthPx[size_t(k)]);
        a->GetProperty()->SetLighting(false);
        a->SetVisibility(false);
        renderer->AddActor(a);
    }
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
    geometryChanged_ = true;
    colors_.assign(paths.size(), Rgba{200, 200, 200, 255});
    widthClass_.assign(paths.size(), 0);
    commit();
}

void LineLayer::setLoad(size_t i, float fraction) {
    widthClass_[i] = !(fraction >= 1.f / 3) ? 0 : fraction < 2.f / 3 ? 1 : 2;
}

void LineLayer::commit() {
    // Unchanged lines are not pushed again: VTK would rebuild their buffers.
    if (colors_ == committedColors_ && widthClass_ == committedWidths_ && !geometryChanged_) return;
    committedColors_ = colors_;
    committedWidths_ = widthClass_;
    geometryChanged_ = false;
    // Lines are sorted into their width's polydata; each keeps its own colour there.
    std::array<vtkIdType, kWidths> count{};
    for (uint8_t c : widthClass_)
        ++count[c];
    for (int k = 0; k < kWidths; ++k) {
        vtkNew<vtkCellArray> lines;
        vtkUnsignedCharArray* colors = colorArrays_[size_t(k)];
        colors->SetNumberOfTuples(count[size_t(k)]);
        vtkIdType cell = 0;
        for (size_t i = 0; i < colors_.size(); ++i) {
            if (widthClass_[i] != k) continue;
            lines->InsertNextCell(pointCount_[i]);
            for (int j = 0; j < pointCount_[i]; ++j)
                lines->InsertCellPoint(firstPoint_[i] + j);
            colors->SetTypedTuple(cell++, colors_[i].data());
        }
        polys_[size_t(k)]->SetLines(lines);
        colors->Modified();
        polys_[size_t(k)]->Modified();
        actors_[size_t(k)]->SetVisibility(cell > 0);
    }
}

vtkPolyData* LineLayer::polyData() const {
    vtkNew<vtkCellArray> lines;
    allColors_->SetNumberOfTuples(vtkIdType(colors_.size()));
    for (size_t i = 0; i < colors_.size(); ++i) {
        lines->InsertNextCell(pointCount_[i]);
        for (int j = 0; j < pointCount_[i]; ++j)
            lines->InsertCellPoint(firstPoint_[i] + j);
        allColors_->SetTypedTuple(vtkIdType(i), colors_[i].data());
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
