// `clusterscope render`: the 3D view as a PNG, without a window (an X server such as Xvfb
// is still needed by VTK on Debian).
#include "AggregateArgument.h"
#include "CommandArgs.h"
#include "CommandLine.h"
#include "FrameValues.h"
#include "HeadlessRenderer.h"
#include "RunReader.h"
#include "RunSpecJson.h"
#include "RunTimeArgument.h"
#include "TopologyDocument.h"
#include "ViewSizeArgument.h"

#include <cstdio>

namespace cs::app {

int renderCommand(const QStringList& args) {
    const CommandArgs a(args,
                        {"--preset", "--node-name-map", "--structure", "--layout", "--camera",
                         "--size", "-o", "--output", "--color", "--values", "--aggregate",
                         "--select", "--time", "--run", "--at"},
                        {}, 1);
    const TopologySourceArgs src = topologySource(a);
    const QString out = a.has("-o") ? a.value("-o") : a.value("--output");
    if (out.isEmpty()) throw UsageError("expected -o OUT.png, the picture to write");
    const QString layout = a.has("--layout") ? a.value("--layout") : "floor";
    if (layout != "floor" && layout != "fabric")
        throw UsageError("--layout: expected floor or fabric, got \"" + layout.toStdString() +
                         "\"");
    const QSize size = parseViewSize(a.has("--size") ? a.value("--size") : "1280x720");
    const QString values = a.has("--run")      ? "run"
                           : a.has("--values") ? a.value("--values")
                                               : "none";
    if (values != "none" && values != "test" && values != "speed" && values != "run")
        throw UsageError("--values: expected none, test or speed");
    const QString color =
        a.has("--color") ? a.value("--color") : (values == "none" ? "kind" : "value");
    if (color != "kind" && color != "value") throw UsageError("--color: expected kind or value");
    const Aggregate aggregate =
        parseAggregateArgument(a.has("--aggregate") ? a.value("--aggregate") : "mean");
    bool timeOk = true;
    const double timeS = a.has("--time") ? a.value("--time").toDouble(&timeOk) : 0.0;
    if (!timeOk) throw UsageError("--time: expected seconds");

    const auto doc = openTopology(src.preset, src.file, src.read);
    views::HeadlessRenderer r(size.width(), size.height());
    views::ClusterScene& scene = r.scene();
    scene.setDocument(doc.get(), layout == "floor" ? LayoutKind::Floor : LayoutKind::Fabric);
    scene.setAggregate(aggregate);
    FrameValues v;
    if (values == "test") fillTestPattern(doc->topology(), timeS, v);
    if (values == "speed") {
        fillLinkSpeed(doc->topology(), v);
        scene.setValueTitle("Link speed, log %");
    }
    if (values == "run") {
        // The frame of a stored run at --at (an offset from its start, or an RFC 3339 time).
        const RunTimeArgument atArg =
            parseRunTimeArgument(a.has("--at") ? a.value("--at") : QStringLiteral("0s"));
        RunReader reader(a.value("--run"), doc->topology());
        const int64_t at = resolveRunTime(atArg, reader.info(), a.value("--run").toStdString());
        v = fractionsOfCapacity(reader.frameAt(at), doc->topology());
        scene.setValueTitle("Busy / load, %");
    }
    scene.setValues(v);
    scene.setColorMode(color == "value" ? views::ColorMode::Value : views::ColorMode::Kind);
    const std::string err = views::applyCameraSpec(scene, *doc, a.value("--camera").toStdString());
    if (!err.empty()) throw UsageError("--camera: " + err);
    if (a.has("--select")) {
        const auto e = doc->index().find(a.value("--select").toStdString());
        if (!e)
            throw UsageError("--select: no entity has the id \"" +
                             a.value("--select").toStdString() + "\"");
        scene.select(PickHit{*e, kNone, 0});
    }
    r.render();
    if (out.endsWith(".gltf", Qt::CaseInsensitive)) {
        scene.exportGltf(out.toStdString());
        std::fprintf(stderr, "wrote %s (glTF 2.0, data inline)\n", qPrintable(out));
        return kExitOk;
    }
    const QImage img = r.grab();
    if (!img.save(out, "PNG")) throw std::runtime_error("cannot write " + out.toStdString());
    std::fprintf(stderr, "wrote %s (%dx%d)\n", qPrintable(out), img.width(), img.height());
    return kExitOk;
}

} // namespace cs::app
