#include "MovieWriter.h"

#include "RunCaption.h"
#include "RunFrameShading.h"
#include "SlideFrame.h"

#include "Duration.h"
#include "HeadlessRenderer.h"
#include "MovieEncoder.h"

#include <cmath>
#include <memory>

namespace cs::views {

long long movieFrameCount(const MovieRequest& r) {
    const double movieS = double(r.toNs - r.fromNs) * 1e-9 / r.speed;
    return std::max(1LL, (long long)std::llround(std::min(movieS * r.fps, 1e15)));
}

std::string checkMovieRequest(const MovieRequest& r, const RunInfo& run) {
    if (MovieEncoder::containerOf(r.out).isEmpty())
        return "-o: expected a name ending in .mp4 (H.264) or .webm (VP9), got \"" +
               r.out.toStdString() + "\"";
    if (r.size.width() < 10 || r.size.height() < 10 || r.size.width() > 8192 ||
        r.size.height() > 8192)
        return "--size: expected WxH from 10x10 to 8192x8192";
    if (r.size.width() % 2 || r.size.height() % 2)
        return "--size: a movie needs an even width and height";
    if (r.fps < 1 || r.fps > 120) return "--fps: expected 1 to 120 frames a second";
    if (!(r.speed > 0) || r.speed > 1e9)
        return "--speed: expected run seconds per movie second, above 0 (0.1, 1, 60)";
    if (r.fromNs < 0 || r.fromNs > run.endNs)
        return "--from: the run lasts " + formatDuration(run.endNs);
    if (r.toNs > run.endNs) return "--to: the run lasts " + formatDuration(run.endNs);
    if (r.toNs <= r.fromNs)
        return "--to: expected a time after --from (" + formatDuration(r.fromNs) + ")";
    if (movieFrameCount(r) > kMaxMovieFrames)
        return "the movie would have " + std::to_string(movieFrameCount(r)) + " frames; at most " +
               std::to_string(kMaxMovieFrames) + " are written (raise --speed)";
    return {};
}

namespace {

// One run's view of the movie: its scene set as the request asks, its step and MFU caption
// from the run's own series (a few points per stretch).
struct MovieSide {
    const TopologyDocument& doc;
    RunReader& reader;
    HeadlessRenderer view;
    ViewState shown;
    Series stepTimeS, mfu;

    MovieSide(const TopologyDocument& d, RunReader& rd, const MovieRequest& r, QSize size)
        : doc(d), reader(rd), view(size.width(), size.height()),
          shown(coloredBy(r.view, ValueMetric::Run)) {
        ClusterScene& scene = view.scene();
        scene.setDocument(&doc, r.view.layout);
        shown.selection.reset(); // a movie shows the run, not what the window had picked
        shown.marked.clear();
        scene.apply(shown);
        labelMissingValues(scene, reader.info());
        if (!r.view.camera) {
            const std::string err = applyCameraSpec(scene, doc, r.cameraSpec);
            if (!err.empty()) throw std::invalid_argument("--camera: " + err);
        }
        stepTimeS = reader.scalars(Metric::StepTimeS, 0, reader.info().endNs, 1 << 20);
        mfu = reader.scalars(Metric::Mfu, 0, reader.info().endNs, 1 << 20);
    }

    QImage frameAt(int64_t at, const std::string& pace) {
        at = std::min(at, reader.info().endNs); // a run that has ended holds its last frame
        ClusterScene& scene = view.scene();
        showRunFrame(scene, doc.topology(), reader.frameAt(at), shown.gpuMetric,
                     reader.failedAt(at));
        scene.setCaption(runCaption(stepTimeS, mfu, at) + pace);
        view.render();
        return view.grab();
    }
};

} // namespace

bool writeMovie(const TopologyDocument& doc, RunReader& reader, const MovieRequest& r,
                const std::function<bool(double)>& progress, const MovieSecondRun& beside) {
    const bool two = beside.doc && beside.reader;
    const SlideFrame slide{r.size, two, r.title, r.caption, beside.nameA, beside.nameB};
    const bool framed = two || !r.title.isEmpty() || !r.caption.isEmpty();
    const QSize viewSize = framed ? slide.viewSize() : r.size;
    MovieSide a(doc, reader, r, viewSize);
    std::unique_ptr<MovieSide> b;
    if (two) b = std::make_unique<MovieSide>(*beside.doc, *beside.reader, r, viewSize);
    MovieEncoder encoder(r.out, r.size, r.fps);
    const long long frames = movieFrameCount(r);
    const double stepNs = r.speed * 1e9 / r.fps;
    const std::string pace =
        r.speed == 1 ? std::string() : "  (" + QString::number(r.speed).toStdString() + "x)";
    for (long long k = 0; k < frames; ++k) {
        const int64_t at = std::min(r.toNs, r.fromNs + int64_t(std::llround(double(k) * stepNs)));
        const QImage first = a.frameAt(at, pace);
        encoder.addFrame(framed ? slide.compose(first, b ? b->frameAt(at, pace) : QImage())
                                : first);
        if (progress && !progress(double(k + 1) / double(frames))) return false;
    }
    encoder.finish();
    return true;
}

} // namespace cs::views
