#include "CommandArgs.h"
#include "CommandLine.h"
#include "Duration.h"
#include "GuiOptions.h"
#include "MainWindow.h"
#include "Presets.h"
#include "ReplayController.h"

#include <QApplication>
#include <QTimer>

#include <cstdio>

namespace cs::app {

GuiOptions parseGuiOptions(const QStringList& args) {
    const CommandArgs a(args, {"--preset", "--select", "--screenshot", "--run", "--at"},
                        {"--no-run"}, 1);
    GuiOptions o;
    if (a.has("--preset") && !a.positionals().isEmpty())
        throw UsageError("expected either --preset NAME or a topology FILE, not both");
    o.source = a.has("--preset")           ? "preset:" + a.value("--preset")
               : a.positionals().isEmpty() ? QStringLiteral("preset:") + kDefaultPreset
                                           : a.positionals().front();
    o.selectId = a.value("--select");
    o.screenshot = a.value("--screenshot");
    o.run = a.value("--run");
    o.at = a.value("--at");
    o.noRun = a.flag("--no-run");
    if (o.noRun && !o.run.isEmpty()) throw UsageError("--no-run and --run exclude each other");
    return o;
}

int runGui(const GuiOptions& o) {
    MainWindow w;
    if (!w.openSource(o.source, false)) {
        std::fprintf(stderr, "clusterscope: cannot open %s (see the message above)\n",
                     qPrintable(o.source));
        return kExitBadInput;
    }
    if (!o.selectId.isEmpty() && !w.selectById(o.selectId)) {
        std::fprintf(stderr, "clusterscope: --select: no entity has the id \"%s\"\n",
                     qPrintable(o.selectId));
        return kExitBadInput;
    }
    if (!o.run.isEmpty()) {
        if (!w.openRun(o.run, false)) return kExitBadInput;
        if (!o.at.isEmpty()) {
            const auto at = parseDurationNs(o.at.toStdString());
            if (!at) {
                std::fprintf(stderr, "clusterscope: --at: expected a time such as 0s, 100ms, 90s "
                                     "or 1h30m\n");
                return kExitBadInput;
            }
            w.replay()->clock()->seek(*at);
        }
    }
    w.show();
    // A new user sees the main job at once: the default run plays on the default preset.
    if (o.run.isEmpty() && !o.noRun) w.startDefaultRun();
    if (!o.screenshot.isEmpty()) {
        // Once the default run (if any) plays, a moment of it; otherwise once shown.
        auto* poll = new QTimer(&w);
        auto grab = [&w, o] {
            const bool ok = w.grab().save(o.screenshot);
            if (!ok)
                std::fprintf(stderr, "clusterscope: cannot write %s\n", qPrintable(o.screenshot));
            QApplication::exit(ok ? kExitOk : kExitIoError);
        };
        QObject::connect(poll, &QTimer::timeout, &w, [&w, poll, grab] {
            if (w.defaultRunPending()) return;
            poll->stop();
            QTimer::singleShot(w.replay()->isOpen() ? 1500 : 0, &w, grab);
        });
        QTimer::singleShot(700, &w, [poll] { poll->start(200); });
    }
    return QApplication::exec();
}

} // namespace cs::app
