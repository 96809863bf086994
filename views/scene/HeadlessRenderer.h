#pragma once
// Renders a ClusterScene without a window (VTK's X render window, off screen; needs an X
// server such as Xvfb) and returns the picture. Used by `clusterscope render`, the render
// tests and the render benchmark.
#include "CameraPose.h"
#include "ClusterScene.h"

#include <QImage>

#include <vtkNew.h>

class vtkRenderWindow;
class vtkRenderer;

namespace cs::views {

class HeadlessRenderer {
public:
    HeadlessRenderer(int width, int height);
    ~HeadlessRenderer();

    ClusterScene& scene() { return *scene_; }
    void setCameraPose(const CameraPose& pose); // as the window's view stands, say
    void render();                              // draws one frame
    QImage grab();                              // the last frame as a QImage (top row first)
    vtkRenderWindow* window() const;

private:
    vtkNew<vtkRenderer> renderer_;
    vtkNew<vtkRenderWindow> window_;
    std::unique_ptr<ClusterScene> scene_;
};

// "overview", "pod:N" (index or id), "rack:R" (index or id) or any entity id. Returns an
// empty string on success, else what was wrong.
std::string applyCameraSpec(ClusterScene& scene, const TopologyDocument& doc,
                            const std::string& spec);

// A picture as a PNG file, encoded first and then written whole (writeFileAtomically): a
// failed write keeps the picture that was there. Throws std::runtime_error saying why.
void writePngAtomically(const QString& path, const QImage& image);

} // namespace cs::views
