#include "GlyphLayer.h"

#include <vtkActor.h>
#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkCubeSource.h>
#include <vtkFloatArray.h>
#include <vtkGlyph3D.h>
#include <vtkGlyph3DMapper.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkShaderProperty.h>
#include <vtkUnsignedCharArray.h>

#include <cstring>

namespace cs::views {

GlyphLayer::GlyphLayer(vtkRenderer* renderer) : renderer_(renderer) {
    vtkNew<vtkCubeSource> cube; // unit cube, scaled per instance
    scale_->SetName("scale");
    scale_->SetNumberOfComponents(3);
    color_->SetName("color");
    color_->SetNumberOfComponents(4);
    poly_->SetPoints(points_);
    poly_->GetPointData()->AddArray(scale_);
    poly_->GetPointData()->SetScalars(color_);
    mapper_->SetInputData(poly_);
    mapper_->SetSourceConnection(cube->GetOutputPort());
    mapper_->SetScaling(true);
    mapper_->SetScaleModeToScaleByVectorComponents();
    mapper_->SetScaleArray("scale");
    mapper_->OrientOff();
    mapper_->SetScalarModeToUsePointData();
    mapper_->SetColorModeToDirectScalars();
    mapper_->ScalarVisibilityOn();
    actor_->SetMapper(mapper_);
    actor_->GetProperty()->SetAmbient(0.35);
    actor_->GetProperty()->SetDiffuse(0.75);
    actor_->GetProperty()->BackfaceCullingOn(); // closed boxes: their far faces never show
    // VTK's generic fragment shader computes a specular power (no specular here) and may
    // discard (never: boxes are opaque); a software rasteriser runs it for every pixel of
    // every box. The same light, ambient plus diffuse from the headlight, costs less: a rack
    // close-up drew 3 ms a frame faster (bench_render).
    vtkShaderProperty* shader = actor_->GetShaderProperty();
    shader->AddFragmentShaderReplacement(
        "//VTK::Light::Impl", true,
        "float df = max(0.0, normalVCVSOutput.z);\n"
        "  gl_FragData[0] = vec4(ambientColor + df * diffuseColor * lightColor0, opacity);\n",
        false);
    shader->AddFragmentShaderReplacement("if (gl_FragData[0].a <= 0.0)", true, "if (false)", false);
    renderer->AddActor(actor_);
}

vtkSmartPointer<vtkPolyData> GlyphLayer::boxesAsPolyData() const {
    vtkNew<vtkCubeSource> cube;
    vtkNew<vtkGlyph3D> glyphs;
    glyphs->SetInputData(poly_);
    glyphs->SetSourceConnection(cube->GetOutputPort());
    glyphs->OrientOff();
    glyphs->SetScaleModeToScaleByVectorComponents();
    glyphs->SetInputArrayToProcess(1, 0, 0, vtkDataObject::FIELD_ASSOCIATION_POINTS, "scale");
    glyphs->SetColorModeToColorByScalar();
    glyphs->Update();
    return glyphs->GetOutput();
}

GlyphLayer::~GlyphLayer() {
    renderer_->RemoveActor(actor_);
}

vtkActor* GlyphLayer::actor() const {
    return actor_.Get();
}

void GlyphLayer::setBoxes(const std::vector<Box>& boxes) {
    boxes_ = boxes;
    colors_.assign(boxes.size(), Rgba{255, 255, 255, 255});
    colorsStale_ = true;
    points_->SetNumberOfPoints(vtkIdType(boxes.size()));
    scale_->SetNumberOfTuples(vtkIdType(boxes.size()));
    color_->SetNumberOfTuples(vtkIdType(boxes.size()));
    for (size_t i = 0; i < boxes.size(); ++i) {
        points_->SetPoint(vtkIdType(i), boxes[i].center.x, boxes[i].center.y, boxes[i].center.z);
        const float s[3] = {boxes[i].size.x, boxes[i].size.y, boxes[i].size.z};
        scale_->SetTypedTuple(vtkIdType(i), s);
    }
    points_->Modified();
    scale_->Modified();
    poly_->Modified();
    commit();
}

void GlyphLayer::commit() {
    const size_t bytes = colors_.size() * sizeof(Rgba);
    const bool colorsChanged =
        bytes > 0 && (colorsStale_ || std::memcmp(color_->GetPointer(0), colors_.data(), bytes));
    colorsStale_ = false;
    if (colorsChanged) {
        std::memcpy(color_->GetPointer(0), colors_.data(), bytes);
        color_->Modified();
    }
    if (colorsChanged) poly_->Modified();
    actor_->SetVisibility(!boxes_.empty());
}

} // namespace cs::views
