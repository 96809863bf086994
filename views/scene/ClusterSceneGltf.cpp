#include "ClusterScene.h"

#include "GlyphLayer.h"
#include "LineLayer.h"
#include "RackRunLayer.h"
#include "TopologyFile.h"

#include <vtkActor.h>
#include <vtkCamera.h>
#include <vtkGLTFExporter.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>

#include <sstream>

// The scene as one glTF file: what the exporter cannot read (instanced glyphs) made plain.
namespace cs::views {

void ClusterScene::exportGltf(const std::string& path) const {
    // VTK's exporter reads plain polygon mappers: the instanced boxes are materialised first.
    vtkNew<vtkRenderWindow> window;
    vtkNew<vtkRenderer> out;
    window->AddRenderer(out);
    out->GetActiveCamera()->DeepCopy(renderer_->GetActiveCamera());
    auto add = [&](vtkPolyData* poly, vtkActor* like, bool cellColours) {
        if (!like->GetVisibility() || poly->GetNumberOfPoints() == 0) return;
        vtkNew<vtkPolyDataMapper> mapper;
        mapper->SetInputData(poly);
        mapper->SetColorModeToDirectScalars();
        if (cellColours) mapper->SetScalarModeToUseCellData();
        vtkNew<vtkActor> actor;
        actor->SetMapper(mapper);
        actor->GetProperty()->DeepCopy(like->GetProperty());
        out->AddActor(actor);
    };
    for (const GlyphLayer* g : {farSwitches_.get(), hosts_.get(), gpus_.get(), nics_.get(),
                                switches_.get(), storage_.get()})
        add(g->boxesAsPolyData(), g->actor(), false);
    for (const LineLayer* l : {bundles_.get(), links_.get()})
        add(l->polyData(), l->actor(), true);
    // The far racks are plain textured polygons already.
    if (rackRuns_->actor()->GetVisibility()) out->AddActor(rackRuns_->actor());
    vtkNew<vtkGLTFExporter> exporter;
    exporter->SetRenderWindow(window);
    exporter->InlineDataOn();
    std::ostringstream text; // written whole, then replaces the file: never half a scene
    exporter->WriteToStream(text);
    out->RemoveActor(rackRuns_->actor());
    const std::string gltf = text.str();
    if (gltf.empty() || gltf.front() != '{')
        throw std::runtime_error("cannot write " + path + ": the exporter produced no scene");
    writeFileAtomically(QString::fromStdString(path), QByteArray::fromStdString(gltf));
}

} // namespace cs::views
