// `clusterscope movie`: a stored run replayed into a movie file, frames rendered off screen
// (an X server such as Xvfb is still needed by VTK on Debian) and encoded by ffmpeg.
#include "ChoiceArgument.h"
#include "CommandArgs.h"
#include "CommandLine.h"
#include "Duration.h"
#include "MovieWriter.h"
#include "RunReader.h"
#include "RunTimeArgument.h"
#include "TerminalProgress.h"
#include "TopologyDocument.h"
#include "ViewSizeArgument.h"

#include <cmath>
#include <cstdio>

namespace cs::app {

int movieCommand(const QStringList& args) {
    const CommandArgs a(args,
                        {"--preset", "--node-name-map", "--structure", "--run", "--from", "--to",
                         "--speed", "--fps", "--size", "--layout", "--camera", "--aggregate", "-o",
                         "--output"},
                        {}, 1);
    const TopologySourceArgs src = topologySource(a);
    const QString out = a.has("-o") ? a.value("-o") : a.value("--output");
    if (out.isEmpty()) throw UsageError("expected -o OUT.mp4 or OUT.webm, the movie to write");
    if (!a.has("--run")) throw UsageError("expected --run RUN.sqlite, the run to replay");
    MovieRequest req;
    req.out = out;
    req.size = parseViewSize(a.has("--size") ? a.value("--size") : "1280x720");
    bool ok = true;
    req.fps = a.has("--fps") ? a.value("--fps").toInt(&ok) : 30;
    if (!ok) req.fps = 0; // refused below with the range
    req.speed = a.has("--speed") ? a.value("--speed").toDouble(&ok) : 1.0;
    if (!ok) req.speed = 0;
    req.view.layout = choiceArgument(a, "--layout", kLayoutNames, LayoutKind::Floor);
    req.view.aggregate = choiceArgument(a, "--aggregate", kAggregateNames, Aggregate::Mean);
    req.cameraSpec = a.value("--camera").toStdString();

    const auto doc = openTopology(src.preset, src.file, src.read);
    const QString store = a.value("--run");
    RunReader reader(store, doc->topology());
    const RunInfo& info = reader.info();
    auto timeOf = [&](const char* flag) {
        return resolveRunTime(parseRunTimeArgument(a.value(flag), flag), info, store.toStdString(),
                              flag);
    };
    req.fromNs = a.has("--from") ? timeOf("--from") : 0;
    req.toNs = a.has("--to") ? timeOf("--to") : info.endNs;
    if (const std::string problem = checkMovieRequest(req, info); !problem.empty())
        throw UsageError(problem);
    const auto bar = terminalProgress(false);
    try {
        writeMovie(*doc, reader, req, [&](double f) {
            if (bar) bar(f);
            return true;
        });
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
    std::fprintf(stderr, "wrote %s (%lld frames, %dx%d, %d fps, %s of the run)\n", qPrintable(out),
                 movieFrameCount(req), req.size.width(), req.size.height(), req.fps,
                 formatDuration(req.toNs - req.fromNs).c_str());
    return kExitOk;
}

} // namespace cs::app
