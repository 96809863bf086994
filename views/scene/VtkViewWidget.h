#pragma once
// A QOpenGLWidget hosting VTK's generic OpenGL render window (Debian's VTK Qt widget is
// built for Qt 5 and cannot be used here; see docs/reference/vtk-in-qt6.md). VTK renders
// into its own framebuffer inside paintGL; the result is blitted into the widget's. The
// camera is driven from Qt events: left drag orbits, right or middle drag (or Shift+left)
// pans, the wheel zooms toward the pointer, a click picks through the model's own lookup and a
// double click flies to what it picked.
#include "CameraPose.h"
#include "ClusterScene.h"

#include <QOpenGLWidget>
#include <QPoint>
#include <QRect>

#include <vtkNew.h>

#include <memory>

class QVariantAnimation;
class vtkGenericOpenGLRenderWindow;
class vtkRenderer;

namespace cs::views {

class VtkViewWidget : public QOpenGLWidget {
    Q_OBJECT
public:
    explicit VtkViewWidget(QWidget* parent = nullptr);
    ~VtkViewWidget() override;

    ClusterScene& scene() { return *scene_; }
    vtkRenderer* renderer() const;
    vtkGenericOpenGLRenderWindow* renderWindow() const;

    CameraPose cameraPose() const;
    void setCameraPose(const CameraPose& pose);
    ViewState state() const { return scene_->state(); }
    // Shows `s` (ClusterScene::apply) and tells the controls that mirror it (stateChanged).
    void applyState(const ViewState& s);
    // Moves the camera to what `moveCamera` sets up, over `durationMs` (0: at once).
    template <typename F> void flyTo(F&& moveCamera, int durationMs = 450) {
        const CameraPose from = cameraPose();
        moveCamera();
        const CameraPose to = cameraPose();
        setCameraPose(from);
        animateTo(to, durationMs);
    }
    // Display position (device pixels, origin bottom-left) to widget position (logical).
    QPoint widgetPointOf(double displayX, double displayY) const;
    // Where the 3D view is drawn in the widget (logical pixels): all but the legend panel.
    QRect sceneRect() const;
    // A world point projected to the widget (logical pixels).
    QPoint projectToWidget(Vec3 world) const;
    std::optional<PickHit> pickAt(QPoint widgetPos) const;
    // Zooms by `factor` (> 1: closer) toward what is under the widget position.
    void zoomToward(QPoint widgetPos, double factor);
    int renderCount() const { return renderCount_; }

signals:
    void picked(cs::Endpoint entity, int bundle); // a click on something
    void pickedNothing();
    void cameraMoved();
    void stateChanged(); // applyState: layout, colouring, aggregate or labels may differ

protected:
    void initializeGL() override;
    void paintGL() override;
    void resizeGL(int w, int h) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;
    void wheelEvent(QWheelEvent* e) override;
    void mouseDoubleClickEvent(QMouseEvent* e) override; // flies to what was clicked
    void keyPressEvent(QKeyEvent* e) override;
    bool event(QEvent* e) override;

private:
    void cleanupGL();
    void cameraChanged();
    void animateTo(const CameraPose& to, int durationMs);

    vtkNew<vtkGenericOpenGLRenderWindow> window_;
    vtkNew<vtkRenderer> renderer_;
    std::unique_ptr<ClusterScene> scene_;
    QVariantAnimation* animation_ = nullptr;
    bool painting_ = false;
    int renderCount_ = 0;
    QPoint pressPos_, lastPos_;
    Qt::MouseButton dragButton_ = Qt::NoButton;
    bool dragged_ = false;
};

} // namespace cs::views
