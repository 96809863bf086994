#pragma once
// A scene as one glTF 2.0 file with its data inline, for slides and web viewers: VTK's exporter
// reads plain polygon mappers, so each drawn layer is handed over as polygons.
#include <vtkPolyData.h>
#include <vtkSmartPointer.h>

#include <string>
#include <vector>

class vtkActor;
class vtkCamera;

namespace cs::views {

struct GltfPart {
    vtkSmartPointer<vtkPolyData> poly; // what the layer draws, as plain polygons or lines
    vtkActor* like = nullptr;          // its actor: visibility and look
    bool cellColours = false;          // colours per cell (lines), else per point
};

// `racks`: an actor that is plain textured polygons already (drawn as it is), or null.
// Throws std::runtime_error; the file is replaced whole or not at all.
void exportSceneGltf(vtkCamera* camera, const std::vector<GltfPart>& parts, vtkActor* racks,
                     const std::string& path);

} // namespace cs::views
