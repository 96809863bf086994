#pragma once
// A stored run replayed into a movie: the frames from..to, `speed` run seconds per movie
// second, rendered off screen as the 3D view draws them and encoded by ffmpeg. The command
// line and File → Export Movie share it.
#include "FrameValues.h"
#include "RunReader.h"
#include "SceneLayout.h"
#include "TopologyDocument.h"
#include "ViewState.h"

#include <QSize>
#include <QString>

#include <functional>
#include <optional>

namespace cs::views {

constexpr long long kMaxMovieFrames = 100'000; // about an hour at 30 fps

struct MovieRequest {
    QString out; // .mp4 or .webm
    QSize size{1280, 720};
    int fps = 30;
    double speed = 1; // run seconds per movie second
    int64_t fromNs = 0, toNs = 0;
    // Layout, aggregate, labels and camera as the view shows them; coloured by the run. Its
    // camera, when set (the window's), wins over cameraSpec.
    ViewState view;
    std::string cameraSpec; // "overview", "pod:N", ... (HeadlessRenderer.h)
    // A title line over the frames and a caption line under them (SlideFrame.h); none when
    // empty. Beside a second run, the caption defaults to the figures that differ.
    QString title, caption;
};

// A second run replayed beside the first on the same clock (the same offset from each run's
// start; one that has ended holds its last frame), each under its design's name.
struct MovieSecondRun {
    const TopologyDocument* doc = nullptr;
    RunReader* reader = nullptr;
    QString nameA, nameB;
};

long long movieFrameCount(const MovieRequest& r);
// Empty when the request can be made, else what is wrong with which field.
std::string checkMovieRequest(const MovieRequest& r, const RunInfo& run);

// Renders and encodes; progress gets the fraction done and returns false to stop, in which
// case nothing is written and false returned. Throws std::runtime_error (ffmpeg, the file)
// and InputException (the run).
bool writeMovie(const TopologyDocument& doc, RunReader& reader, const MovieRequest& r,
                const std::function<bool(double)>& progress, const MovieSecondRun& beside = {});

} // namespace cs::views
