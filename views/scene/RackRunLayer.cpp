#include "RackRunLayer.h"

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

namespace cs::views {
namespace {

constexpr Rgba kEmptySlot{40, 44, 52, 255}; // grid rackSlots without a GPU
// Fixed shades per face in place of lighting: the top reads exactly, the sides darker, so
// a run still looks like boxes from every side.
constexpr float kFrontShade = 0.82f, kEndShade = 0.64f;

std::array<uint8_t, 3> rgb(Rgba c) {
    return {c[0], c[1], c[2]};
}

std::array<uint8_t, 3> shade(Rgba c, float f) {
    return {uint8_t(float(c[0]) * f + 0.5f), uint8_t(float(c[1]) * f + 0.5f),
            uint8_t(float(c[2]) * f + 0.5f)};
}

// A face's four corners, counter-clockwise seen from outside, with their texel corners
// (0: the rectangle's low side, 1: its high side) along u and v.
struct Corner {
    int x, y, z, u, v; // 0: the box's low side, 1: its high side
};
constexpr Corner kFaces[kRunFaces][4] = {
    {{0, 0, 1, 0, 0},
     {1, 0, 1, 1, 0},
     {1, 1, 1, 1, 1},
     {0, 1, 1, 0, 1}}, // top: u along x, v along y
    {{0, 0, 0, 0, 0}, {1, 0, 0, 1, 0}, {1, 0, 1, 1, 1}, {0, 0, 1, 0, 1}}, // front (-y)
    {{1, 1, 0, 1, 0}, {0, 1, 0, 0, 0}, {0, 1, 1, 0, 1}, {1, 1, 1, 1, 1}}, // back (+y)
    {{0, 1, 0, 0, 0}, {0, 0, 0, 1, 0}, {0, 0, 1, 1, 1}, {0, 1, 1, 0, 1}}, // left (-x)
    {{1, 0, 0, 0, 0}, {1, 1, 0, 1, 0}, {1, 1, 1, 1, 1}, {1, 0, 1, 0, 1}}, // right (+x)
    {{0, 0, 0, 0, 0}, {0, 1, 0, 0, 1}, {1, 1, 0, 1, 1}, {1, 0, 0, 1, 0}}, // bottom
};
constexpr float kInset = 1.f / 64; // texels: a face's edge never samples its neighbour

// A face corner's texture coordinates, a little inside its rectangle of the atlas.
std::array<float, 2> texelCorner(const RackRunAtlas& a, const TexelRect& r, const Corner& c) {
    const float W = float(a.width), H = float(a.height);
    return {(c.u ? float(r.x0 + r.w) - kInset : float(r.x0) + kInset) / W,
            (c.v ? float(r.y0 + r.h) - kInset : float(r.y0) + kInset) / H};
}

} // namespace

RackRunLayer::RackRunLayer(vtkRenderer* renderer) : renderer_(renderer) {
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
    actor_->GetProperty()->LightingOff(); // the faces carry their shades (kFrontShade)
    actor_->GetProperty()->BackfaceCullingOn();
    actor_->SetVisibility(false);
    renderer->AddActor(actor_);
}

RackRunLayer::~RackRunLayer() {
    renderer_->RemoveActor(actor_);
}

void RackRunLayer::setAtlas(RackRunAtlas atlas) {
    atlas_ = std::move(atlas);
    image_->SetDimensions(atlas_.width, atlas_.height, 1);
    image_->AllocateScalars(VTK_UNSIGNED_CHAR, 3);
    texels_ = static_cast<Rgb*>(image_->GetScalarPointer());
    std::fill(texels_, texels_ + size_t(atlas_.width) * size_t(atlas_.height),
              rgb(sceneBackground()));
    cellW_.assign(atlas_.cellGpu.size(), 1);
    for (const RackRunSlot& s : atlas_.rackSlots)
        std::fill(cellW_.begin() + s.firstCell, cellW_.begin() + s.firstCell + s.cells,
                  uint8_t(s.cellW));
    topIsCells_.assign(atlas_.rackSlots.size(), 0);

    vtkNew<vtkPoints> points;
    vtkNew<vtkFloatArray> tcoords;
    tcoords->SetNumberOfComponents(2);
    vtkNew<vtkCellArray> quads;
    for (const RackRun& run : atlas_.runs) {
        const Vec3 lo = run.box.center - run.box.size * 0.5f,
                   hi = run.box.center + run.box.size * 0.5f;
        for (int f = 0; f < kRunFaces; ++f) {
            vtkIdType ids[4];
            for (int k = 0; k < 4; ++k) {
                const Corner& c = kFaces[f][k];
                ids[k] = points->InsertNextPoint(c.x ? hi.x : lo.x, c.y ? hi.y : lo.y,
                                                 c.z ? hi.z : lo.z);
                tcoords->InsertNextTypedTuple(texelCorner(atlas_, run.faces[size_t(f)], c).data());
            }
            quads->InsertNextCell(4, ids);
        }
    }
    tcoords_ = tcoords;
    topShowsCells_ = true; // the tops read their cells' rows
    poly_->SetPoints(points);
    poly_->SetPolys(quads);
    poly_->GetPointData()->SetTCoords(tcoords);
    poly_->Modified();
    actor_->SetVisibility(!atlas_.runs.empty());
    image_->Modified();
}

void RackRunLayer::setTopShowsCells(bool on) {
    if (on == topShowsCells_ || !tcoords_) return;
    topShowsCells_ = on;
    const auto top = size_t(RunFace::Top);
    for (size_t i = 0; i < atlas_.runs.size(); ++i) {
        const RackRun& run = atlas_.runs[i];
        for (int k = 0; k < 4; ++k)
            tcoords_->SetTypedTuple(
                vtkIdType(i * kRunFaces * 4 + top * 4 + size_t(k)),
                texelCorner(atlas_, on ? run.faces[top] : run.plainTop, kFaces[top][k]).data());
    }
    tcoords_->Modified();
    poly_->Modified();
}

void RackRunLayer::paintRack(size_t slot, Rgba color, bool topShowsCells) {
    const RackRunSlot& s = atlas_.rackSlots[slot];
    Rgb* t = texels_;
    const auto W = size_t(atlas_.width);
    const Rgb side = shade(color, kFrontShade), end = shade(color, kEndShade);
    std::fill_n(t + size_t(s.frontY) * W + size_t(s.bodyX), s.bodyW, side);
    std::fill_n(t + size_t(s.backY) * W + size_t(s.bodyX), s.bodyW, side);
    if (s.leftX >= 0) t[size_t(s.endsY) * W + size_t(s.leftX)] = end;
    if (s.rightX >= 0) t[size_t(s.endsY) * W + size_t(s.rightX)] = end;
    if (!topShowsCells) { // the top reads the plain row
        std::fill_n(t + size_t(s.plainTopY) * W + size_t(s.bodyX), s.bodyW, rgb(color));
        return;
    }
    const bool cells = s.cells > 0;
    if (cells && topIsCells_[slot]) return; // the cells are painted one by one
    for (int row = s.topY; row < s.topY + s.topRows; ++row)
        std::fill_n(t + size_t(row) * W + size_t(s.bodyX), s.bodyW,
                    rgb(cells ? kEmptySlot : color));
    topIsCells_[slot] = cells;
}

void RackRunLayer::commit() {
    image_->Modified();
}

} // namespace cs::views
