#pragma once
// Many small per-entity colours drawn as the texels of one texture on a few quads: a quad per
// far rack top, its GPUs a block of texels. A frame of values rewrites the texture only (no
// geometry, no per-instance matrices), so 49,152 GPUs cost little more than their racks.
#include "ColorMaps.h"
#include "SceneGeometry.h"

#include <vtkNew.h>

#include <vector>

class vtkActor;
class vtkImageData;
class vtkPoints;
class vtkPolyData;
class vtkRenderer;
class vtkTexture;

namespace cs::views {

class CellTextureLayer {
public:
    struct Quad {
        Box face; // drawn just above the box's top
        int cols = 0, rows = 0;
        int cells = 0; // the first `cells` slots of the grid hold cells
    };

    explicit CellTextureLayer(vtkRenderer* renderer);
    ~CellTextureLayer();
    CellTextureLayer(const CellTextureLayer&) = delete;
    CellTextureLayer& operator=(const CellTextureLayer&) = delete;

    // Cells are numbered quad by quad, row-major inside each quad.
    void setQuads(const std::vector<Quad>& quads);
    void setColor(size_t cell, Rgba c);
    void hideQuad(size_t q); // collapses it: draws nothing
    void showQuad(size_t q);
    void setVisible(bool visible);
    void commit(); // pushes the colours (and moved quads) to VTK
    size_t cells() const { return texelOfCell_.size(); }
    vtkActor* actor() const { return actor_.Get(); }

private:
    vtkRenderer* renderer_;
    std::vector<Quad> quads_;
    std::vector<size_t> texelOfCell_; // index into the RGBA texture
    vtkNew<vtkPolyData> poly_;
    vtkNew<vtkPoints> points_;
    vtkNew<vtkImageData> image_;
    vtkNew<vtkTexture> texture_;
    vtkNew<vtkActor> actor_;
    bool geometryChanged_ = false;
};

} // namespace cs::views
