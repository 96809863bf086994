// `clusterscope movie`: a stored run replayed into a movie file, frames rendered off screen
// (an X server such as Xvfb is still needed by VTK on Debian) and encoded by ffmpeg.
#include "CommandArgs.h"
#include "CommandLine.h"
#include "ComparisonCaption.h"
#include "Duration.h"
#include "MovieWriter.h"
#include "RunReader.h"
#include "RunTimeArgument.h"
#include "RunTopologyArgs.h"
#include "TerminalProgress.h"
#include "TopologyDocument.h"
#include "ViewArguments.h"
#include "ViewSizeArgument.h"

#include <cmath>
#include <cstdio>
#include <optional>

namespace cs::app {

CommandSpec movieSpec() {
    CommandSpec c{"movie", "[--preset NAME | FILE] --run RUN.sqlite -o OUT.mp4|OUT.webm",
                  "a stored run replayed as a movie (encoded by ffmpeg), on its own design",
                  topologyOptions(), 1};
    c.options.insert(c.options.end(),
                     {{"--run", "RUN.sqlite", "the run to replay"},
                      {"-o", "OUT.mp4|OUT.webm", "the movie: H.264 in .mp4, VP9 in .webm"},
                      {"--output", "OUT", "the same as -o", {}, false},
                      {"--from", "T", "where the movie starts in the run (default its start)"},
                      {"--to", "T", "where it ends (default the run's end)"},
                      {"--speed", "X", "run seconds per movie second (default 1)"},
                      {"--fps", "N", "frames per second, 1 to 120 (default 30)"},
                      {"--size", "WxH", "even width and height in pixels (default 1280x720)"}});
    const std::vector<CommandOption> slide = slideOptions();
    c.options.insert(c.options.end(), slide.begin(), slide.end());
    const std::vector<CommandOption> view = viewOptions();
    c.options.insert(c.options.end(), view.begin(), view.end());
    return c;
}

int movieCommand(const CommandArgs& a) {
    const QString out = a.has("-o") ? a.value("-o") : a.value("--output");
    if (out.isEmpty()) throw UsageError("expected -o OUT.mp4 or OUT.webm, the movie to write");
    if (!a.has("--run")) throw UsageError("expected --run RUN.sqlite, the run to replay");
    views::MovieRequest req;
    req.out = out;
    req.size = parseViewSize(a.has("--size") ? a.value("--size") : "1280x720");
    bool ok = true;
    req.fps = a.has("--fps") ? a.value("--fps").toInt(&ok) : 30;
    if (!ok) req.fps = 0; // refused below with the range
    req.speed = a.has("--speed") ? a.value("--speed").toDouble(&ok) : 1.0;
    if (!ok) req.speed = 0;
    req.view = viewStateOfArgs(a);
    req.cameraSpec = a.value("--camera").toStdString();
    req.title = a.value("--title");
    req.caption = a.value("--caption");

    const QString store = a.value("--run");
    const auto doc = topologyOfRunArgs(
        a, a.positionals().isEmpty() ? QString() : a.positionals().front(), store);
    RunReader reader(store, doc->topology());
    const RunInfo& info = reader.info();
    auto timeOf = [&](const char* flag) {
        return resolveRunTime(parseRunTimeArgument(a.value(flag), flag), info, store.toStdString(),
                              flag);
    };
    req.fromNs = a.has("--from") ? timeOf("--from") : 0;
    req.toNs = a.has("--to") ? timeOf("--to") : info.endNs;
    if (const std::string problem = views::checkMovieRequest(req, info); !problem.empty())
        throw UsageError(problem);
    // A second run beside the first: on its own design, under its name.
    std::unique_ptr<TopologyDocument> docB;
    std::optional<RunReader> readerB;
    views::MovieSecondRun beside;
    if (a.has("--compare")) {
        const QString storeB = a.value("--compare");
        docB = topologyOfRunArgs(storeB);
        readerB.emplace(storeB, docB->topology());
        beside = {docB.get(), &*readerB, sideTitle('A', *doc), sideTitle('B', *docB)};
        if (!a.has("--caption"))
            req.caption = comparisonCaption(*doc, info, *docB, readerB->info());
    }
    const auto bar = terminalProgress(false);
    try {
        views::writeMovie(
            *doc, reader, req,
            [&](double f) {
                if (bar) bar(f);
                return true;
            },
            beside);
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
    std::fprintf(stderr, "wrote %s (%lld frames, %dx%d, %d fps, %s of the run)\n", qPrintable(out),
                 views::movieFrameCount(req), req.size.width(), req.size.height(), req.fps,
                 formatDuration(req.toNs - req.fromNs).c_str());
    return kExitOk;
}

} // namespace cs::app
