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

struct Times {
    double fps, applyMs;
};

// kFrames frames after kWarmup: each a new test pattern of t, if any (the producer's cost, not
// counted), moved into apply, then drawn by draw, which returns once the frame is complete.
template <typename Apply, typename Draw>
Times timeFrames(const Topology* t, Apply&& apply, Draw&& draw) {
    double applyS = 0, totalS = 0;
    for (int f = 0; f < kWarmup + kFrames; ++f) {
        FrameValues v; // a new frame each time, as a replay makes one, handed over
        if (t) fillTestPattern(*t, f * 0.1, v);
        const double t0 = bench::nowSeconds();
        apply(std::move(v));
        const double t1 = bench::nowSeconds();
        draw();
        const double t2 = bench::nowSeconds();
        if (f >= kWarmup) {
            applyS += t1 - t0;
            totalS += t2 - t0;
        }
    }
    return {kFrames / totalS, applyS / kFrames * 1000};
}

void showByValue(ClusterScene& scene, const TopologyDocument& doc, LayoutKind layout,
                 const std::string& camera) {
    scene.setDocument(&doc, layout);
    scene.setColorMode(ColorMode::Value);
    applyCameraSpec(scene, doc, camera);
}

Result measureScene(const TopologyDocument& doc, LayoutKind layout, const std::string& camera) {
    HeadlessRenderer r(kWidth, kHeight);
    ClusterScene& scene = r.scene();
    showByValue(scene, doc, layout, camera);
    const Times t = timeFrames(
        &doc.topology(), [&](FrameValues&& v) { scene.setValues(std::move(v)); },
        [&] {
            r.render();
            r.window()->WaitForCompletion(); // the frame drawn, as a window shows it
        });
    return {t.fps, t.applyMs, scene.drawnBoxes(), scene.drawnLines()};
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
    const Times t = timeFrames(
        &doc.topology(),
        [&](FrameValues&& v) {
            for (size_t g = 0; g < v.gpu.size(); ++g)
                gpus.setColor(g, valueColor(v.gpu[g]));
            gpus.commit();
        },
        [&] {
            window->Render();
            window->WaitForCompletion();
        });
    window->Finalize();
    return {t.fps, t.applyMs, gpus.size(), 0};
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
    showByValue(scene, doc, layout, camera);
    const Times t = timeFrames(
        &doc.topology(), [&](FrameValues&& v) { scene.setValues(std::move(v)); },
        [&] {
            w.repaint(); // paints the widget; the window is flushed by the event loop
            w.renderWindow()->WaitForCompletion();
            QCoreApplication::processEvents();
        });
    if (w.renderCount() < kWarmup + kFrames)
        std::fprintf(stderr, "the window painted %d frames of %d\n", w.renderCount(),
                     kWarmup + kFrames);
    return {t.fps, t.applyMs, scene.drawnBoxes(), scene.drawnLines()};
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
    const Times times = timeFrames(
        nullptr, [](FrameValues&&) {},
        [&] {
            w.repaint();
            QCoreApplication::processEvents();
        });
    return {times.fps, 0, 0, 0};
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
    // Large sites: meta-roce-24k's cluster grown to pods of 256 racks (4,096 GPUs), 64 and 256 of
    // them (262,144 and 1,048,576 GPUs). Applying a frame is what grows with the GPUs.
    for (const int pods : {64, 256}) {
        TopologyReadOptions o;
        o.sets = {"generator.clusters[0].pods=" + std::to_string(pods),
                  "generator.clusters[0].racksPerPod=256", "generator.clusters[0].coreRadix=20000"};
        const auto doc = openTopology("meta-roce-24k", {}, o);
        const std::string name = pods == 64 ? "262,144 GPUs" : "1,048,576 GPUs";
        row(name.c_str(), "floor overview (racks + bundles)",
            measureScene(*doc, LayoutKind::Floor, "overview"));
        row(name.c_str(), "fabric overview (racks + bundles)",
            measureScene(*doc, LayoutKind::Fabric, "overview"));
    }
    row("-", "baseline: a window that only clears", measureEmptyWindow());
    return 0;
}
