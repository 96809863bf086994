// `clusterscope render`: the 3D view as a PNG, without a window (an X server such as Xvfb
// is still needed by VTK on Debian).
#include "ChoiceArgument.h"
#include "CommandArgs.h"
#include "CommandLine.h"
#include "ComparisonCaption.h"
#include "HeadlessRenderer.h"
#include "RunFrameShading.h"
#include "RunReader.h"
#include "RunSpecJson.h"
#include "RunTimeArgument.h"
#include "RunTopologyArgs.h"
#include "SlideFrame.h"
#include "TopologyDocument.h"
#include "ViewArguments.h"
#include "ViewSizeArgument.h"

#include <cstdio>

namespace cs::app {

namespace {
// What one picture can colour by: every metric but the difference of two runs, which only
// the window's comparison has.
std::string drawableMetrics() {
    std::string names;
    for (const auto& m : views::kValueMetricNames)
        if (m.value != views::ValueMetric::Difference)
            names += (names.empty() ? "" : "|") + std::string(m.name);
    return names;
}
} // namespace

CommandSpec renderSpec() {
    CommandSpec c{"render", "(--preset NAME | FILE | --run RUN.sqlite) -o OUT.png|OUT.gltf",
                  "the 3D view as a PNG picture, or the scene as glTF 2.0", topologyOptions(), 1};
    auto add = [&c](std::vector<CommandOption> more) {
        c.options.insert(c.options.end(), more.begin(), more.end());
    };
    add({{"-o", "OUT.png|OUT.gltf", "the picture (PNG) or the scene (glTF 2.0, data inline)"},
         {"--output", "OUT", "the same as -o", {}, false}});
    add(viewOptions());
    add({{"--size", "WxH", "the picture's size in pixels (default 1280x720)"},
         {"--values", drawableMetrics(),
          "what colours by value: a test pattern, link speeds, a run (--run)"},
         {"--color", views::kColorModeNames.alternatives(), "by kind, or by the values"},
         {"--select", "ID", "the entity outlined and named"},
         {"--time", "S", "the test pattern's time in seconds"},
         {"--run", "RUN.sqlite",
          "colours by a stored run's frame, on the design stored with the run when no "
          "topology is given or the one given is not the run's"},
         {"--at", "T", "the time of that frame (default 0s)"}});
    add(slideOptions());
    return c;
}

int renderCommand(const CommandArgs& a) {
    const QString out = a.has("-o") ? a.value("-o") : a.value("--output");
    if (out.isEmpty()) throw UsageError("expected -o OUT.png, the picture to write");
    const QSize size = parseViewSize(a.has("--size") ? a.value("--size") : "1280x720");
    views::ViewState view = viewStateOfArgs(a);
    view.metric = a.has("--run") ? views::ValueMetric::Run
                                 : choiceArgument(a, "--values", views::kValueMetricNames,
                                                  views::ValueMetric::None);
    if (view.metric == views::ValueMetric::Run && !a.has("--run"))
        throw UsageError("--values: run needs --run RUN.sqlite, the run to show");
    if (view.metric == views::ValueMetric::Difference)
        throw UsageError("--values: expected one of " + drawableMetrics() +
                         " (a difference of two runs is drawn in the window's comparison)");
    view.colorMode = choiceArgument(
        a, "--color", views::kColorModeNames,
        view.metric == views::ValueMetric::None ? views::ColorMode::Kind : views::ColorMode::Value);
    bool timeOk = true;
    const double timeS = a.has("--time") ? a.value("--time").toDouble(&timeOk) : 0.0;
    if (!timeOk) throw UsageError("--time: expected seconds");

    const bool compare = a.has("--compare");
    if (compare && !a.has("--run"))
        throw UsageError("--compare: expected --run A.sqlite, the run to compare it with");
    const bool slide = compare || a.has("--title") || a.has("--caption");
    if (slide && out.endsWith(".gltf", Qt::CaseInsensitive))
        throw UsageError("--compare, --title and --caption draw a picture: expected -o OUT.png");
    const QString fileArg = a.positionals().isEmpty() ? QString() : a.positionals().front();
    const auto doc = a.has("--run") ? topologyOfRunArgs(a, fileArg, a.value("--run")) : [&] {
        const TopologySourceArgs src = topologySource(a);
        return openTopology(src.preset, src.file, src.read);
    }();
    std::unique_ptr<TopologyDocument> docB;
    if (compare) {
        docB = topologyOfRunArgs(a.value("--compare"));
    }
    if (a.has("--select")) {
        const auto e = doc->index().find(a.value("--select").toStdString());
        if (!e)
            throw UsageError("--select: no entity has the id \"" +
                             a.value("--select").toStdString() + "\"");
        view.selection = PickHit{*e, kNone, 0};
    }
    views::SlideFrame frame{size, compare, a.value("--title"), a.value("--caption"), {}, {}};
    const RunTimeArgument atArg =
        parseRunTimeArgument(a.has("--at") ? a.value("--at") : QStringLiteral("0s"));
    // One view of `d`, coloured by `runPath`'s frame at --at when there is a run: its picture,
    // or nothing for glTF, which it writes to OUT.
    auto renderView = [&](const TopologyDocument& d, const QString& runPath, QSize at,
                          bool gltf) -> QImage {
        views::HeadlessRenderer r(at.width(), at.height());
        views::ClusterScene& scene = r.scene();
        scene.setDocument(&d, view.layout);
        views::ViewState shown = view;
        if (&d != doc.get()) shown.selection.reset(); // --select names an entity of A's
        scene.apply(shown);
        scene.setPatternTimeS(timeS);
        if (view.metric == views::ValueMetric::Run) {
            // The frame of a stored run at --at (an offset from its start, or an RFC 3339 time).
            RunReader reader(runPath, d.topology());
            views::labelMissingValues(scene, reader.info());
            const int64_t ns = resolveRunTime(atArg, reader.info(), runPath.toStdString());
            views::showRunFrame(scene, d.topology(), reader.frameAt(ns), view.gpuMetric,
                                reader.failedAt(ns));
        }
        const std::string err = views::applyCameraSpec(scene, d, a.value("--camera").toStdString());
        if (!err.empty()) throw UsageError("--camera: " + err);
        r.render();
        if (gltf) {
            scene.exportGltf(out.toStdString());
            return {};
        }
        return r.grab();
    };
    if (!slide && out.endsWith(".gltf", Qt::CaseInsensitive)) {
        renderView(*doc, a.value("--run"), size, true);
        std::fprintf(stderr, "wrote %s (glTF 2.0, data inline)\n", qPrintable(out));
        return kExitOk;
    }
    QImage img;
    if (!slide) {
        img = renderView(*doc, a.value("--run"), size, false);
    } else {
        QImage b;
        if (compare) {
            const RunInfo infoA = RunReader::runsIn(a.value("--run")).back();
            const RunInfo infoB = RunReader::runsIn(a.value("--compare")).back();
            frame.nameA = sideTitle('A', *doc);
            frame.nameB = sideTitle('B', *docB);
            if (!a.has("--caption")) frame.caption = comparisonCaption(*doc, infoA, *docB, infoB);
            b = renderView(*docB, a.value("--compare"), frame.viewSize(), false);
        }
        img = frame.compose(renderView(*doc, a.value("--run"), frame.viewSize(), false), b);
    }
    views::writePngAtomically(out, img);
    std::fprintf(stderr, "wrote %s (%dx%d)\n", qPrintable(out), img.width(), img.height());
    return kExitOk;
}

} // namespace cs::app
