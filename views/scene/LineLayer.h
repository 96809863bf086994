#pragma once
// Cables and bundles as polylines, one mapper per line width: a line's width says its load
// (thin below a third of capacity, medium below two thirds, thick above), its colour the
// value. Three mappers for every line in the scene, never one actor per line.
#include "CableRoutes.h"
#include "ColorMaps.h"

#include <vtkNew.h>
#include <vtkType.h>

#include <array>
#include <vector>

class vtkActor;
class vtkPoints;
class vtkPolyData;
class vtkRenderer;
class vtkUnsignedCharArray;

namespace cs::views {

class LineLayer {
public:
    static constexpr int kWidths = 3;
    static constexpr std::array<float, kWidths> kWidthPx = {1.f, 2.5f, 4.5f};

    explicit LineLayer(vtkRenderer* renderer);
    ~LineLayer();
    LineLayer(const LineLayer&) = delete;
    LineLayer& operator=(const LineLayer&) = delete;

    void setLines(const std::vector<CablePath>& paths); // all thin, grey
    void setColor(size_t i, Rgba c) { colors_[i] = c; }
    // Load as a fraction of capacity (NaN: unknown, drawn thin).
    void setLoad(size_t i, float fraction);
    void setHidden(size_t i, bool hidden); // a hidden line is in no width's topology
    void commit();
    size_t size() const { return colors_.size(); }
    // For export: every line in one polydata with cell colours, and an actor drawing some
    // of them (invisible when there are none).
    vtkPolyData* polyData() const;
    vtkActor* actor() const;

private:
    vtkRenderer* renderer_;
    std::vector<Rgba> colors_;
    std::vector<uint8_t> widthClass_; // kWidths: hidden
    std::vector<uint8_t> hidden_;
    std::vector<Rgba> committedColors_; // as last pushed to VTK
    std::vector<uint8_t> committedWidths_;
    bool geometryChanged_ = true;
    std::vector<vtkIdType> firstPoint_;
    std::vector<int> pointCount_;
    vtkNew<vtkPoints> points_;
    std::array<vtkNew<vtkPolyData>, kWidths> polys_;
    vtkNew<vtkUnsignedCharArray> pointColors_; // every point of every line, shared by widths
    std::array<vtkNew<vtkActor>, kWidths> actors_;
    vtkNew<vtkPolyData> all_;
    vtkNew<vtkUnsignedCharArray> allColors_;
};

} // namespace cs::views
