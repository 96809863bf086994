#pragma once
// The scene's outlines: the selection (white), failed entities (vermillion), outliers
// (reddish purple) and a selected job (sky blue), each a box around the entity (a link: its
// cable's path), and for failed and outlying parts around their rack too.
#include "SceneDetail.h"
#include "Topology.h"

#include <vtkNew.h>

#include <array>
#include <functional>
#include <vector>

class vtkActor;
class vtkPolyData;
class vtkRenderer;

namespace cs::views {

enum class OutlineKind { Selection, Failed, Outlier, Job };

// Where the scene draws things now: the layout and each entity's box at the current detail.
struct OutlineGeometry {
    const Topology* topology = nullptr;
    const SceneLayout* layout = nullptr;
    std::function<Bounds(Endpoint)> boundsOf;
};

class SceneOutlines {
public:
    explicit SceneOutlines(vtkRenderer* renderer);
    ~SceneOutlines();
    SceneOutlines(const SceneOutlines&) = delete;
    SceneOutlines& operator=(const SceneOutlines&) = delete;

    // Outlines `entities` as `kind` draws them (`bundle`: the selection is that link bundle);
    // none without a geometry.
    void show(OutlineKind kind, const std::vector<Endpoint>& entities, const OutlineGeometry& g,
              int32_t bundle = kNone);
    size_t lineCells(OutlineKind kind) const; // 12 a box, 1 a link

private:
    struct Outline {
        vtkNew<vtkPolyData> poly;
        vtkNew<vtkActor> actor;
    };
    Outline& of(OutlineKind kind) { return outlines_[size_t(kind)]; }
    const Outline& of(OutlineKind kind) const { return outlines_[size_t(kind)]; }

    vtkRenderer* renderer_;
    std::array<Outline, 4> outlines_;
};

} // namespace cs::views
