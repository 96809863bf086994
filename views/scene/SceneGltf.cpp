#include "SceneGltf.h"

#include "TopologyFile.h"

#include <vtkActor.h>
#include <vtkCamera.h>
#include <vtkGLTFExporter.h>
#include <vtkNew.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>

#include <sstream>
#include <stdexcept>

namespace cs::views {

void exportSceneGltf(vtkCamera* camera, const std::vector<GltfPart>& parts, vtkActor* racks,
                     const std::string& path) {
    vtkNew<vtkRenderWindow> window;
    vtkNew<vtkRenderer> out;
    window->AddRenderer(out);
    out->GetActiveCamera()->DeepCopy(camera);
    for (const GltfPart& p : parts) {
        if (!p.like->GetVisibility() || p.poly->GetNumberOfPoints() == 0) continue;
        vtkNew<vtkPolyDataMapper> mapper;
        mapper->SetInputData(p.poly);
        mapper->SetColorModeToDirectScalars();
        if (p.cellColours) mapper->SetScalarModeToUseCellData();
        vtkNew<vtkActor> actor;
        actor->SetMapper(mapper);
        actor->GetProperty()->DeepCopy(p.like->GetProperty());
        out->AddActor(actor);
    }
    const bool withRacks = racks && racks->GetVisibility();
    if (withRacks) out->AddActor(racks);
    vtkNew<vtkGLTFExporter> exporter;
    exporter->SetRenderWindow(window);
    exporter->InlineDataOn();
    std::ostringstream text; // written whole, then replaces the file: never half a scene
    exporter->WriteToStream(text);
    if (withRacks) out->RemoveActor(racks);
    const std::string gltf = text.str();
    if (gltf.empty() || gltf.front() != '{')
        throw std::runtime_error("cannot write " + path + ": the exporter produced no scene");
    writeFileAtomically(QString::fromStdString(path), QByteArray::fromStdString(gltf));
}

} // namespace cs::views
