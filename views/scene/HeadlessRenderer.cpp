#include "HeadlessRenderer.h"

#include "AtomicFileWrite.h"

#include <QBuffer>

#include <vtkCamera.h>
#include <vtkImageData.h>
#include <vtkPointData.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkUnsignedCharArray.h>
#include <vtkWindowToImageFilter.h>

#include <cstring>
#include <stdexcept>

namespace cs::views {

HeadlessRenderer::HeadlessRenderer(int width, int height) {
    window_->SetOffScreenRendering(1);
    window_->SetMultiSamples(0); // identical pictures everywhere, and fast on llvmpipe
    // Frames are read back from VTK's own framebuffer; presenting each to the hidden X window
    // as well (an image copied to the X server per frame) would only cost time: about 9 ms a
    // frame at 1280x720 on Xvfb, measured with bench_render.
    window_->SwapBuffersOff();
    window_->SetSize(width, height);
    window_->AddRenderer(renderer_);
    scene_ = std::make_unique<ClusterScene>(renderer_);
}

HeadlessRenderer::~HeadlessRenderer() {
    scene_.reset();
    window_->Finalize();
}

vtkRenderWindow* HeadlessRenderer::window() const {
    return window_.Get();
}

void HeadlessRenderer::setCameraPose(const CameraPose& p) {
    scene_->setCameraPose(p); // the racks near this camera open, as in the window
}

void HeadlessRenderer::render() {
    scene_->fitOverlays(window_->GetSize()[0], window_->GetSize()[1]);
    renderer_->ResetCameraClippingRange();
    window_->Render();
}

QImage HeadlessRenderer::grab() {
    vtkNew<vtkWindowToImageFilter> filter;
    filter->SetInput(window_);
    filter->SetInputBufferTypeToRGB();
    filter->ReadFrontBufferOff();
    filter->Update();
    vtkImageData* img = filter->GetOutput();
    int dims[3];
    img->GetDimensions(dims);
    QImage out(dims[0], dims[1], QImage::Format_RGB888);
    auto* data = static_cast<unsigned char*>(img->GetScalarPointer());
    for (int y = 0; y < dims[1]; ++y) // VTK's rows start at the bottom
        std::memcpy(out.scanLine(dims[1] - 1 - y), data + size_t(y) * size_t(dims[0]) * 3,
                    size_t(dims[0]) * 3);
    return out;
}

namespace {
std::optional<int32_t> parseIndexOrId(const TopologyDocument& doc, const std::string& s,
                                      EntityKind kind) {
    if (!s.empty() && s.find_first_not_of("0123456789") == std::string::npos && s.size() < 10) {
        const long v = std::stol(s);
        if (size_t(v) < doc.topology().count(kind)) return int32_t(v);
        return std::nullopt;
    }
    const auto e = doc.index().find(s);
    if (e && e->kind == kind) return e->index;
    return std::nullopt;
}
} // namespace

std::string applyCameraSpec(ClusterScene& scene, const TopologyDocument& doc,
                            const std::string& spec) {
    if (spec.empty() || spec == "overview") {
        scene.viewOverview();
        return {};
    }
    if (spec.rfind("pod:", 0) == 0) {
        const auto pod = parseIndexOrId(doc, spec.substr(4), EntityKind::Pod);
        if (!pod || !scene.viewPod(*pod))
            return "no pod \"" + spec.substr(4) + "\" (0 to " +
                   std::to_string(doc.topology().pods.size() - 1) + " or a pod id)";
        return {};
    }
    if (spec.rfind("rack:", 0) == 0) {
        const auto rack = parseIndexOrId(doc, spec.substr(5), EntityKind::Rack);
        if (!rack || !scene.viewRack(*rack))
            return "no rack \"" + spec.substr(5) + "\" (0 to " +
                   std::to_string(doc.topology().racks.size() - 1) + " or a rack id)";
        return {};
    }
    const auto e = doc.index().find(spec);
    if (!e || !scene.viewEntity(*e))
        return "expected overview, pod:N, rack:R or an entity id, got \"" + spec + "\"";
    return {};
}

void writePngAtomically(const QString& path, const QImage& image) {
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    if (!image.save(&buffer, "PNG"))
        throw std::runtime_error("cannot write " + path.toStdString() +
                                 ": the picture could not be encoded as PNG");
    writeFileAtomically(path, png);
}

} // namespace cs::views
