#include "CellTextureLayer.h"

#include <vtkActor.h>
#include <vtkCellArray.h>
#include <vtkFloatArray.h>
#include <vtkImageData.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkTexture.h>

#include <algorithm>
#include <cstring>

namespace cs::views {
namespace {
constexpr int kAtlasWidth = 2048;
constexpr Rgba kEmptySlot{40, 44, 52, 255}; // grid slots without a GPU
} // namespace

CellTextureLayer::CellTextureLayer(vtkRenderer* renderer) : renderer_(renderer) {
    poly_->SetPoints(points_);
    vtkNew<vtkPolyDataMapper> mapper;
    mapper->SetInputData(poly_);
    mapper->ScalarVisibilityOff();
    texture_->SetInputData(image_);
    texture_->InterpolateOff(); // one texel, one GPU: never blended with its neighbours
    texture_->RepeatOff();
    texture_->EdgeClampOn();
    texture_->SetColorModeToDirectScalars();
    actor_->SetMapper(mapper);
    actor_->SetTexture(texture_);
    actor_->GetProperty()->LightingOff(); // colours read exactly against the colour bar
    actor_->SetVisibility(false);
    renderer->AddActor(actor_);
}

CellTextureLayer::~CellTextureLayer() {
    renderer_->RemoveActor(actor_);
}

void CellTextureLayer::setQuads(const std::vector<Quad>& quads) {
    quads_ = quads;
    texelOfCell_.clear();
    // Shelf packing: each quad a block of cols x rows texels, left to right, then up.
    struct Origin {
        int x, y;
    };
    std::vector<Origin> origin;
    int x = 0, y = 0, shelf = 0, width = 1;
    for (const Quad& q : quads_) {
        if (x + q.cols > kAtlasWidth) {
            x = 0;
            y += shelf;
            shelf = 0;
        }
        origin.push_back({x, y});
        x += q.cols;
        width = std::max(width, x);
        shelf = std::max(shelf, q.rows);
    }
    const int height = std::max(1, y + shelf);
    image_->SetDimensions(width, height, 1);
    image_->AllocateScalars(VTK_UNSIGNED_CHAR, 4);
    auto* texels = static_cast<Rgba*>(image_->GetScalarPointer());
    std::fill(texels, texels + size_t(width) * size_t(height), kEmptySlot);

    vtkNew<vtkCellArray> polys;
    vtkNew<vtkFloatArray> tcoords;
    tcoords->SetNumberOfComponents(2);
    points_->SetNumberOfPoints(vtkIdType(quads_.size() * 4));
    tcoords->SetNumberOfTuples(vtkIdType(quads_.size() * 4));
    for (size_t i = 0; i < quads_.size(); ++i) {
        const Quad& q = quads_[i];
        for (int k = 0; k < q.cells; ++k)
            texelOfCell_.push_back(size_t(origin[i].y + k / q.cols) * size_t(width) +
                                   size_t(origin[i].x + k % q.cols));
        const float u0 = float(origin[i].x) / float(width),
                    u1 = float(origin[i].x + q.cols) / float(width);
        const float v0 = float(origin[i].y) / float(height),
                    v1 = float(origin[i].y + q.rows) / float(height);
        const float uv[4][2] = {{u0, v0}, {u1, v0}, {u1, v1}, {u0, v1}};
        const vtkIdType ids[4] = {vtkIdType(4 * i), vtkIdType(4 * i + 1), vtkIdType(4 * i + 2),
                                  vtkIdType(4 * i + 3)};
        for (int c = 0; c < 4; ++c)
            tcoords->SetTypedTuple(ids[c], uv[c]);
        polys->InsertNextCell(4, ids);
        showQuad(i);
    }
    poly_->SetPolys(polys);
    poly_->GetPointData()->SetTCoords(tcoords);
    geometryChanged_ = true;
    commit();
}

void CellTextureLayer::setColor(size_t cell, Rgba c) {
    static_cast<Rgba*>(image_->GetScalarPointer())[texelOfCell_[cell]] = c;
}

void CellTextureLayer::hideQuad(size_t q) {
    const Vec3 c = quads_[q].face.center;
    for (int k = 0; k < 4; ++k)
        points_->SetPoint(vtkIdType(4 * q + k), c.x, c.y, c.z);
    geometryChanged_ = true;
}

void CellTextureLayer::showQuad(size_t q) {
    const Box& b = quads_[q].face;
    const Vec3 lo = b.center - b.size * 0.5f;
    // Just above the top, clear of its faces at any distance.
    const float z = lo.z + b.size.z * 1.01f + 0.01f;
    const float xy[4][2] = {{lo.x, lo.y},
                            {lo.x + b.size.x, lo.y},
                            {lo.x + b.size.x, lo.y + b.size.y},
                            {lo.x, lo.y + b.size.y}};
    for (int k = 0; k < 4; ++k)
        points_->SetPoint(vtkIdType(4 * q + k), xy[k][0], xy[k][1], z);
    geometryChanged_ = true;
}

void CellTextureLayer::setVisible(bool visible) {
    actor_->SetVisibility(visible && !quads_.empty());
}

void CellTextureLayer::commit() {
    if (geometryChanged_) {
        points_->Modified();
        poly_->Modified();
        geometryChanged_ = false;
    }
    image_->Modified();
}

} // namespace cs::views
