#pragma once
// One kind of box-shaped object drawn with a single glyph-instancing mapper: positions,
// per-instance sizes and colours in flat arrays that are updated in place.
#include "ColorMaps.h"
#include "SceneGeometry.h"

#include <vtkNew.h>
#include <vtkSmartPointer.h>

#include <vector>

class vtkActor;
class vtkFloatArray;
class vtkGlyph3DMapper;
class vtkPoints;
class vtkPolyData;
class vtkRenderer;
class vtkUnsignedCharArray;

namespace cs::views {

class GlyphLayer {
public:
    explicit GlyphLayer(vtkRenderer* renderer);
    ~GlyphLayer();
    GlyphLayer(const GlyphLayer&) = delete;
    GlyphLayer& operator=(const GlyphLayer&) = delete;

    void setBoxes(const std::vector<Box>& boxes); // one instance per box
    void setColor(size_t i, Rgba c) { colors_[i] = c; }
    // Pushes what changed to VTK. Nothing changed, nothing pushed: a glyph mapper rebuilds
    // all its instances on any change, so unchanged layers must not look changed.
    void commit();
    size_t size() const { return boxes_.size(); }
    vtkActor* actor() const;
    // The boxes as plain triangles with their colours (hidden ones left out), for exporters
    // that cannot read an instancing mapper.
    vtkSmartPointer<vtkPolyData> boxesAsPolyData() const;

private:
    vtkRenderer* renderer_; // outlives the layer
    std::vector<Box> boxes_;
    std::vector<Rgba> colors_;
    bool colorsStale_ = true;
    vtkNew<vtkPolyData> poly_;
    vtkNew<vtkPoints> points_;
    vtkNew<vtkFloatArray> scale_;
    vtkNew<vtkUnsignedCharArray> color_;
    vtkNew<vtkGlyph3DMapper> mapper_;
    vtkNew<vtkActor> actor_;
};

} // namespace cs::views
