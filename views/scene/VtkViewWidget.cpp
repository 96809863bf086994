#include "VtkViewWidget.h"

#include "HoverTip.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QOpenGLContext>
#include <QOpenGLExtraFunctions>
#include <QVariantAnimation>
#include <QWheelEvent>

#include <vtkCallbackCommand.h>
#include <vtkCamera.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkMath.h>
#include <vtkOpenGLFramebufferObject.h>
#include <vtkOpenGLState.h>
#include <vtkRenderer.h>

#include <algorithm>
#include <cmath>

namespace cs::views {

namespace {
constexpr int kClickSlopPixels = 4;
}

VtkViewWidget::VtkViewWidget(QWidget* parent) : QOpenGLWidget(parent) {
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(false);
    setMinimumSize(200, 150);
    window_->SetMultiSamples(0);
    window_->SetFrameBlitModeToNoBlit(); // paintGL blits into Qt's framebuffer itself
    // ... straight from the framebuffer VTK renders into: VTK's own copy into its display
    // framebuffer (made only when it swaps) would be a second full-frame copy, about 2 ms at
    // 1280x720 on llvmpipe.
    window_->SwapBuffersOff();
    window_->SetReadyForRendering(false); // until the widget has a context
    window_->AddRenderer(renderer_);
    scene_ = std::make_unique<ClusterScene>(renderer_);

    // VTK asks for its context through these events; answer with the widget's context.
    // QOpenGLWidget::makeCurrent() must not be called here: it rebinds Qt's framebuffer
    // behind VTK's state cache and the widget turns black.
    auto onMakeCurrent = vtkSmartPointer<vtkCallbackCommand>::New();
    onMakeCurrent->SetClientData(this);
    onMakeCurrent->SetCallback([](vtkObject*, unsigned long, void* self, void*) {
        auto* w = static_cast<VtkViewWidget*>(self);
        QOpenGLContext* ctx = w->context();
        if (ctx && QOpenGLContext::currentContext() != ctx) ctx->makeCurrent(ctx->surface());
    });
    window_->AddObserver(vtkCommand::WindowMakeCurrentEvent, onMakeCurrent);
    auto onIsCurrent = vtkSmartPointer<vtkCallbackCommand>::New();
    onIsCurrent->SetClientData(this);
    onIsCurrent->SetCallback([](vtkObject*, unsigned long, void* self, void* callData) {
        auto* w = static_cast<VtkViewWidget*>(self);
        *static_cast<bool*>(callData) =
            w->context() && QOpenGLContext::currentContext() == w->context();
    });
    window_->AddObserver(vtkCommand::WindowIsCurrentEvent, onIsCurrent);
    auto onFrame = vtkSmartPointer<vtkCallbackCommand>::New();
    onFrame->SetClientData(this);
    onFrame->SetCallback([](vtkObject*, unsigned long, void* self, void*) {
        auto* w = static_cast<VtkViewWidget*>(self);
        if (!w->painting_) w->update();
    });
    window_->AddObserver(vtkCommand::WindowFrameEvent, onFrame);
}

VtkViewWidget::~VtkViewWidget() {
    if (animation_) animation_->stop();
    // ~QOpenGLWidget destroys the context after our members are gone: stop listening first.
    if (context()) disconnect(context(), nullptr, this, nullptr);
    makeCurrent();
    scene_.reset();
    cleanupGL();
    doneCurrent();
}

vtkRenderer* VtkViewWidget::renderer() const {
    return renderer_.Get();
}
vtkGenericOpenGLRenderWindow* VtkViewWidget::renderWindow() const {
    return window_.Get();
}

void VtkViewWidget::initializeGL() {
    window_->GetState()->Reset();
    window_->SetOwnContext(false);
    window_->SetForceMaximumHardwareLineWidth(1);
    window_->SetReadyForRendering(true);
    window_->OpenGLInitContext();
    connect(context(), &QOpenGLContext::aboutToBeDestroyed, this, [this] {
        makeCurrent();
        cleanupGL();
        doneCurrent();
    });
}

void VtkViewWidget::cleanupGL() {
    if (!window_->GetReadyForRendering()) return;
    window_->Finalize(); // releases VTK's GL resources while the context is current
    window_->SetReadyForRendering(false);
}

void VtkViewWidget::paintGL() {
    if (!window_->GetReadyForRendering()) return;
    const qreal dpr = devicePixelRatioF();
    const int w = std::max(1, int(std::lround(width() * dpr)));
    const int h = std::max(1, int(std::lround(height() * dpr)));
    painting_ = true;
    if (window_->GetSize()[0] != w || window_->GetSize()[1] != h) window_->SetSize(w, h);
    window_->SetDPI(int(72 * dpr));
    vtkOpenGLState* st = window_->GetState();
    st->Reset();
    st->Push();
    st->vtkglDepthFunc(GL_LEQUAL); // Qt leaves GL_LESS
    scene_->fitOverlays(w, h, dpr);
    renderer_->ResetCameraClippingRange();
    window_->Render();
    QOpenGLExtraFunctions* f = context()->extraFunctions();
    f->glBindFramebuffer(GL_DRAW_FRAMEBUFFER, defaultFramebufferObject());
    const GLenum buffer = GL_COLOR_ATTACHMENT0;
    f->glDrawBuffers(1, &buffer);
    st->PushReadFramebufferBinding();
    window_->GetRenderFramebuffer()->Bind(GL_READ_FRAMEBUFFER);
    window_->GetRenderFramebuffer()->ActivateReadBuffer(0);
    st->vtkglViewport(0, 0, w, h);
    st->vtkglScissor(0, 0, w, h);
    st->vtkglBlitFramebuffer(0, 0, w, h, 0, 0, w, h, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    st->PopReadFramebufferBinding();
    // The picture is opaque already (ClusterScene clears with alpha 1): Mesa would blend a
    // non-opaque alpha with what lies behind the window.
    st->Pop();
    painting_ = false;
    ++renderCount_;
}

void VtkViewWidget::resizeGL(int, int) {
    // The renderer learns its size now, not at the next paint: framing (viewOverview) in
    // between sees the new aspect.
    const qreal dpr = devicePixelRatioF();
    const int w = std::max(1, int(std::lround(width() * dpr)));
    const int h = std::max(1, int(std::lround(height() * dpr)));
    window_->SetSize(w, h);
    // The whole cluster stays in view as the view changes shape, until the user moves away;
    // framed for the 3D part the legend panel leaves at this size.
    if (scene_->atOverview()) {
        scene_->fitOverlays(w, h, dpr);
        scene_->viewOverview();
        cameraChanged();
    }
}

CameraPose VtkViewWidget::cameraPose() const {
    return scene_->cameraPose();
}

void VtkViewWidget::setCameraPose(const CameraPose& p) {
    scene_->setCameraPose(p);
    cameraChanged();
}

void VtkViewWidget::applyState(const ViewState& s) {
    scene_->apply(s);
    cameraChanged();
    emit stateChanged();
}

void VtkViewWidget::animateTo(const CameraPose& to, int durationMs) {
    if (animation_) animation_->stop();
    if (durationMs <= 0) {
        setCameraPose(to);
        return;
    }
    const CameraPose from = cameraPose();
    if (!animation_) animation_ = new QVariantAnimation(this);
    animation_->disconnect(this);
    animation_->setStartValue(0.0);
    animation_->setEndValue(1.0);
    animation_->setDuration(durationMs);
    animation_->setEasingCurve(QEasingCurve::InOutCubic);
    connect(
        animation_, &QVariantAnimation::valueChanged, this, [this, from, to](const QVariant& v) {
            const double s = v.toDouble();
            CameraPose p;
            for (int i = 0; i < 3; ++i) {
                p.position[i] = from.position[i] + (to.position[i] - from.position[i]) * s;
                p.focalPoint[i] = from.focalPoint[i] + (to.focalPoint[i] - from.focalPoint[i]) * s;
                p.viewUp[i] = from.viewUp[i] + (to.viewUp[i] - from.viewUp[i]) * s;
            }
            setCameraPose(p);
        });
    animation_->start();
}

void VtkViewWidget::cameraChanged() {
    renderer_->ResetCameraClippingRange();
    scene_->updateDetail();
    update();
    emit cameraMoved();
}

QPoint VtkViewWidget::widgetPointOf(double x, double y) const {
    const qreal dpr = devicePixelRatioF();
    return {int(std::lround(x / dpr)), int(std::lround(height() - y / dpr))};
}

QRect VtkViewWidget::sceneRect() const {
    double vp[4];
    renderer_->GetViewport(vp);
    return QRect(
        QPoint(int(std::lround(vp[0] * width())), int(std::lround((1 - vp[3]) * height()))),
        QPoint(int(std::lround(vp[2] * width())) - 1,
               int(std::lround((1 - vp[1]) * height())) - 1));
}

QPoint VtkViewWidget::projectToWidget(Vec3 world) const {
    renderer_->SetWorldPoint(world.x, world.y, world.z, 1);
    renderer_->WorldToDisplay();
    double d[3];
    renderer_->GetDisplayPoint(d);
    return widgetPointOf(d[0], d[1]);
}

std::optional<PickHit> VtkViewWidget::pickAt(QPoint pos) const {
    const qreal dpr = devicePixelRatioF();
    // Display coordinates: device pixels with Y up.
    return scene_->pickDisplay(pos.x() * dpr, (height() - pos.y()) * dpr);
}

void VtkViewWidget::mousePressEvent(QMouseEvent* e) {
    pressPos_ = lastPos_ = e->position().toPoint();
    dragButton_ = e->button();
    if (dragButton_ == Qt::LeftButton && (e->modifiers() & Qt::ShiftModifier))
        dragButton_ = Qt::MiddleButton;
    dragged_ = false;
    if (animation_) animation_->stop();
}

void VtkViewWidget::mouseMoveEvent(QMouseEvent* e) {
    const QPoint p = e->position().toPoint();
    if (dragButton_ == Qt::NoButton) return;
    if ((p - pressPos_).manhattanLength() > kClickSlopPixels) dragged_ = true;
    const QPoint d = p - lastPos_;
    lastPos_ = p;
    if (!dragged_) return;
    vtkCamera* cam = renderer_->GetActiveCamera();
    if (dragButton_ == Qt::LeftButton) {
        cam->Azimuth(-d.x() * 0.35);
        // Keep the horizon level: elevation stays between 5 and 89 degrees.
        double dir[3];
        cam->GetDirectionOfProjection(dir);
        const double elevation = std::asin(std::clamp(-dir[2], -1.0, 1.0)) * 180 / M_PI;
        const double step = std::clamp(d.y() * 0.35, 5 - elevation, 89 - elevation);
        cam->Elevation(step);
        cam->SetViewUp(0, 0, 1);
        cam->OrthogonalizeViewUp();
    } else {
        // Pan in the view plane by what the drag covers at the focal distance.
        const double angle = cam->GetViewAngle() * M_PI / 180;
        const double perPixel =
            2 * cam->GetDistance() * std::tan(angle / 2) / std::max(1, height());
        double up[3], dir[3], right[3];
        cam->GetViewUp(up);
        cam->GetDirectionOfProjection(dir);
        right[0] = dir[1] * up[2] - dir[2] * up[1];
        right[1] = dir[2] * up[0] - dir[0] * up[2];
        right[2] = dir[0] * up[1] - dir[1] * up[0];
        double pos[3], fp[3];
        cam->GetPosition(pos);
        cam->GetFocalPoint(fp);
        for (int i = 0; i < 3; ++i) {
            const double m = (-d.x() * right[i] + d.y() * up[i]) * perPixel;
            pos[i] += m;
            fp[i] += m;
        }
        cam->SetPosition(pos);
        cam->SetFocalPoint(fp);
    }
    cameraChanged();
}

void VtkViewWidget::mouseReleaseEvent(QMouseEvent* e) {
    if (!dragged_ && e->button() == Qt::LeftButton) {
        const std::optional<PickHit> hit = pickAt(e->position().toPoint());
        scene_->select(hit);
        update();
        if (hit)
            emit picked(hit->entity, hit->bundle);
        else
            emit pickedNothing();
    }
    dragButton_ = Qt::NoButton;
    dragged_ = false;
}

void VtkViewWidget::wheelEvent(QWheelEvent* e) {
    if (animation_) animation_->stop();
    const double steps = e->angleDelta().y() / 120.0;
    zoomToward(e->position().toPoint(), std::pow(1.15, steps));
}

void VtkViewWidget::zoomToward(QPoint widgetPos, double factor) {
    if (!(factor > 0)) return;
    vtkCamera* cam = renderer_->GetActiveCamera();
    double pos[3], fp[3];
    cam->GetPosition(pos);
    cam->GetFocalPoint(fp);
    const qreal dpr = devicePixelRatioF();
    // Over the legend panel there is nothing to zoom toward but the focal point.
    std::optional<Vec3> target =
        sceneRect().contains(widgetPos)
            ? scene_->worldPointAt(widgetPos.x() * dpr, (height() - widgetPos.y()) * dpr)
            : std::nullopt;
    // Moving the camera toward the point under the pointer, focal point and all, keeps that
    // point under the pointer. With nothing there, zoom toward the focal point.
    const double p[3] = {target ? target->x : fp[0], target ? target->y : fp[1],
                         target ? target->z : fp[2]};
    const double distance =
        std::sqrt(vtkMath::Distance2BetweenPoints(pos, p)); // to the point, before the zoom
    const Bounds b = scene_->layout() ? scene_->layout()->bounds : Bounds{};
    const double farthest = std::max(50.0, 4.0 * double(b.diagonal()));
    // Stop half a metre short of what is pointed at, and a few scene sizes away.
    factor = std::clamp(factor, distance / farthest, std::max(1.0, distance / 0.5));
    for (int i = 0; i < 3; ++i) {
        pos[i] = p[i] + (pos[i] - p[i]) / factor;
        fp[i] = p[i] + (fp[i] - p[i]) / factor;
    }
    cam->SetPosition(pos);
    cam->SetFocalPoint(fp);
    cameraChanged();
}

void VtkViewWidget::mouseDoubleClickEvent(QMouseEvent* e) {
    if (e->button() != Qt::LeftButton) return QOpenGLWidget::mouseDoubleClickEvent(e);
    const QPoint at = e->position().toPoint();
    const std::optional<PickHit> hit = sceneRect().contains(at) ? pickAt(at) : std::nullopt;
    if (!hit) return;
    flyTo([this, entity = hit->entity] { scene_->viewEntity(entity); });
}

void VtkViewWidget::keyPressEvent(QKeyEvent* e) {
    if (e->key() == Qt::Key_R || e->key() == Qt::Key_Home) {
        flyTo([this] { scene_->viewOverview(); });
        return;
    }
    if (e->key() == Qt::Key_Plus || e->key() == Qt::Key_Equal || e->key() == Qt::Key_Minus) {
        renderer_->GetActiveCamera()->Dolly(e->key() == Qt::Key_Minus ? 1 / 1.25 : 1.25);
        cameraChanged();
        return;
    }
    QOpenGLWidget::keyPressEvent(e);
}

bool VtkViewWidget::event(QEvent* e) {
    const auto describeAt = [this](QPoint at) {
        const std::optional<PickHit> hit = pickAt(at);
        return hit ? QString::fromStdString(scene_->describe(*hit)) : QString();
    };
    if (showHoverTip(this, e, describeAt)) return true;
    return QOpenGLWidget::event(e);
}

} // namespace cs::views
