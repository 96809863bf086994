// Render benchmark (run under xvfb-run; llvmpipe): frames per second with every GPU and
// link value changing each frame, and the CPU time to apply one frame of values, for the
// level-of-detail scene and for a naive baseline (one glyph mapper of all GPUs, no level of
// detail) in the same run. Each frame is waited for: without that, llvmpipe drops frames
// that a later clear overwrites, and a scene looks faster than any window could show it.
#include "BenchUtil.h"

#include "GlyphLayer.h"
#include "HeadlessRenderer.h"
#include "VtkSurfaceFormat.h"
#include "VtkViewWidget.h"

#include <vtkCamera.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>

#include <QApplication>
#include <QElapsedTimer>
#include <QOpenGLFunctions>
#include <QOpenGLWidget>
#include <QWindow>
#include <vtkGenericOpenGLRenderWindow.h>

#include <cstdio>

using namespace cs;
using namespace cs::views;

namespace {

constexpr int kWidth = 1280, kHeight = 720;
constexpr int kWarmup = 3, kFrames = 90; // llvmpipe on 2 shared cores varies by 15% over 30 frames

struct Result {
    double fps, applyMs;
    size_t boxes, lines;
};

Result measureScene(const TopologyDocument& doc, LayoutKind layout, const std::string& camera) {
    HeadlessRenderer r(kWidth, kHeight);
    ClusterScene& scene = r.scene();
    scene.setDocument(&doc, layout);
    scene.setColorMode(ColorMode::Value);
    applyCameraSpec(scene, doc, camera);
    FrameValues v;
    double applyS = 0, totalS = 0;
    for (int f = 0; f < kWarmup + kFrames; ++f) {
        fillTestPattern(doc.topology(), f * 0.1, v); // the producer's cost, not counted
        const double t0 = bench::nowSeconds();
        scene.setValues(v);
        const double t1 = bench::nowSeconds();
        r.render();
        r.window()->WaitForCompletion(); // the frame drawn, as a window shows it
        const double t2 = bench::nowSeconds();
        if (f >= kWarmup) {
            applyS += t1 - t0;
            totalS += t2 - t0;
        }
    }
    return {kFrames / totalS, applyS / kFrames * 1000, scene.drawnBoxes(), scene.drawnLines()};
}

Result measureNaive(const TopologyDocument& doc) {
    vtkNew<vtkRenderer> renderer;
    vtkNew<vtkRenderWindow> window;
    window->SetOffScreenRendering(1);
    window->SetMultiSamples(0);
    window->SetSize(kWidth, kHeight);
    window->AddRenderer(renderer);
    const SceneLayout L = computeLayout(doc.topology(), doc.index(), LayoutKind::Floor);
    GlyphLayer gpus(renderer);
    gpus.setBoxes(L.gpus);
    renderer->ResetCamera();
    FrameValues v;
    double applyS = 0, totalS = 0;
    for (int f = 0; f < kWarmup + kFrames; ++f) {
        fillTestPattern(doc.topology(), f * 0.1, v);
        const double t0 = bench::nowSeconds();
        for (size_t g = 0; g < v.gpu.size(); ++g)
            gpus.setColor(g, valueColor(v.gpu[g]));
        gpus.commit();
        const double t1 = bench::nowSeconds();
        window->Render();
        window->WaitForCompletion();
        const double t2 = bench::nowSeconds();
        if (f >= kWarmup) {
            applyS += t1 - t0;
            totalS += t2 - t0;
        }
    }
    window->Finalize();
    return {kFrames / totalS, applyS / kFrames * 1000, gpus.size(), 0};
}

// A window of the benchmark's size, on screen.
void showAtBenchSize(QWidget& w) {
    w.resize(kWidth, kHeight);
    w.show();
    QElapsedTimer wait;
    wait.start();
    while (!(w.windowHandle() && w.windowHandle()->isExposed()) && wait.elapsed() < 5000)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
}

// The same scene as the app shows it: the widget in a window, each frame painted, composed by
// Qt into the window and presented to the X server.
Result measureWindow(const TopologyDocument& doc, LayoutKind layout, const std::string& camera) {
    VtkViewWidget w;
    showAtBenchSize(w);
    ClusterScene& scene = w.scene();
    scene.setDocument(&doc, layout);
    scene.setColorMode(ColorMode::Value);
    applyCameraSpec(scene, doc, camera);
    FrameValues v;
    double applyS = 0, totalS = 0;
    for (int f = 0; f < kWarmup + kFrames; ++f) {
        fillTestPattern(doc.topology(), f * 0.1, v);
        const double t0 = bench::nowSeconds();
        scene.setValues(v);
        const double t1 = bench::nowSeconds();
        w.repaint(); // paints the widget and flushes the window
        w.renderWindow()->WaitForCompletion();
        QCoreApplication::processEvents();
        const double t2 = bench::nowSeconds();
        if (f >= kWarmup) {
            applyS += t1 - t0;
            totalS += t2 - t0;
        }
    }
    if (w.renderCount() < kWarmup + kFrames)
        std::fprintf(stderr, "the window painted %d frames of %d\n", w.renderCount(),
                     kWarmup + kFrames);
    return {kFrames / totalS, applyS / kFrames * 1000, scene.drawnBoxes(), scene.drawnLines()};
}

// What presenting alone costs: a window of the same size that only clears itself.
struct ClearOnly : QOpenGLWidget {
    void paintGL() override {
        QOpenGLFunctions* f = context()->functions();
        f->glClearColor(0.12f, 0.13f, 0.16f, 1);
        f->glClear(GL_COLOR_BUFFER_BIT);
        f->glFinish();
    }
};

Result measureEmptyWindow() {
    ClearOnly w;
    showAtBenchSize(w);
    double totalS = 0;
    for (int f = 0; f < kWarmup + kFrames; ++f) {
        const double t0 = bench::nowSeconds();
        w.repaint();
        QCoreApplication::processEvents();
        if (f >= kWarmup) totalS += bench::nowSeconds() - t0;
    }
    return {kFrames / totalS, 0, 0, 0};
}

void row(const char* preset, const char* what, const Result& r) {
    std::printf("| %-14s | %-40s | %7.1f | %9.3f | %7zu | %7zu |\n", preset, what, r.fps, r.applyMs,
                r.boxes, r.lines);
}

} // namespace

int main(int argc, char** argv) {
    useVtkSurfaceFormat(); // as the app does
    QApplication app(argc, argv);
    std::printf("%dx%d, %d frames after %d warm-up, values changing every frame\n", kWidth, kHeight,
                kFrames, kWarmup);
    std::printf("| %-14s | %-40s | %7s | %9s | %7s | %7s |\n", "preset", "scene", "fps", "apply ms",
                "boxes", "lines");
    std::printf("|----------------|------------------------------------------|---------|-----------"
                "|---------|---------|\n");
    for (const char* preset : {"meta-roce-24k", "meta-both"}) {
        const auto doc = openTopology(preset, {});
        row(preset, "floor overview (racks + bundles)",
            measureScene(*doc, LayoutKind::Floor, "overview"));
        row(preset, "fabric overview (racks + bundles)",
            measureScene(*doc, LayoutKind::Fabric, "overview"));
        row(preset, "floor rack close-up (open racks)",
            measureScene(*doc, LayoutKind::Floor,
                         preset == std::string("meta-both") ? "rack:ib.pod3.rack40"
                                                            : "rack:roce.pod3.rack40"));
        row(preset, "floor overview in a window (as the app)",
            measureWindow(*doc, LayoutKind::Floor, "overview"));
        row(preset, "baseline: one glyph mapper of all GPUs", measureNaive(*doc));
    }
    row("-", "baseline: a window that only clears", measureEmptyWindow());
    return 0;
}
