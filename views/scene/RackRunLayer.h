#pragma once
// The far racks as runs (RackRuns.h): one polydata of a box per run, its faces textured from
// one atlas. A rack's colour goes on the run's sides, shaded by a fixed factor per face (the
// top is never shaded, so cells read exactly against the colour bar); its top shows its GPUs'
// cells or, colouring by kind, the rack's colour. Unlit: the faces' shades do not follow the
// camera, and the shader is a texture read.
#include "ColorMaps.h"
#include "RackRuns.h"

#include <vtkNew.h>
#include <vtkSmartPointer.h>

#include <cmath>
#include <vector>

class vtkActor;
class vtkFloatArray;
class vtkImageData;
class vtkPolyData;
class vtkRenderer;
class vtkTexture;

namespace cs::views {

class RackRunLayer {
public:
    explicit RackRunLayer(vtkRenderer* renderer);
    ~RackRunLayer();
    RackRunLayer(const RackRunLayer&) = delete;
    RackRunLayer& operator=(const RackRunLayer&) = delete;

    // New geometry; every rack starts in the no-data colour.
    void setAtlas(RackRunAtlas atlas);
    const RackRunAtlas& atlas() const { return atlas_; }
    // A rack's colour on the sides; its top in that colour too, or left for its cells.
    void paintRack(size_t slot, Rgba color, bool topShowsCells);
    // Whether the tops read their cells or the racks' plain colours (a row of its own, written
    // by paintRack without cells): a frame of the largest sites at the overview then writes one
    // row per rack instead of its whole cell grid.
    void setTopShowsCells(bool on);
    // Each cell in the colour `shade` gives its GPU's value (NaN where `gpu` has none): the
    // loop a frame of a large site spends most of its time in, one cell per GPU.
    template <typename Shade> void paintCells(const std::vector<float>& gpu, Shade&& shade) {
        const size_t n = atlas_.cellGpu.size();
        for (size_t c = 0; c < n; ++c) {
            const auto g = size_t(atlas_.cellGpu[c]);
            const Rgba color = shade(g < gpu.size() ? gpu[g] : std::nanf(""));
            Rgb* t = texels_ + atlas_.cellTexel[c];
            for (int k = 0; k < cellW_[c]; ++k)
                t[k] = {color[0], color[1], color[2]};
        }
    }
    void commit(); // pushes the texels to VTK
    size_t racks() const { return atlas_.rackSlots.size(); }
    size_t cells() const { return atlas_.cellGpu.size(); }
    vtkActor* actor() const { return actor_.Get(); }

private:
    // Three components: VTK scans a texture with an alpha channel for translucency each time
    // it changes (a third of a frame's time for 49,152 GPUs), and the racks are opaque.
    using Rgb = std::array<uint8_t, 3>;
    Rgb* texels_ = nullptr; // the image's scalars, as allocated by setAtlas
    vtkRenderer* renderer_; // outlives the layer
    RackRunAtlas atlas_;
    std::vector<uint8_t> cellW_;      // per cell, texels across (its slot's cellW)
    std::vector<uint8_t> topIsCells_; // per slot: its top holds cells, not its colour
    bool topShowsCells_ = true;       // what the tops' texture coordinates point at
    vtkSmartPointer<vtkFloatArray> tcoords_;
    vtkNew<vtkPolyData> poly_;
    vtkNew<vtkImageData> image_;
    vtkNew<vtkTexture> texture_;
    vtkNew<vtkActor> actor_;
};

} // namespace cs::views
