#include "ChoiceArgument.h"
#include "CommandArgs.h"
#include "ExitCodes.h"
#include "GuiOptions.h"
#include "HeadlessRenderer.h"
#include "MainWindow.h"
#include "Presets.h"
#include "ReplayController.h"
#include "RunTimeArgument.h"
#include "SessionFile.h"
#include "StudyChartWidget.h"
#include "StudyWindow.h"
#include "ViewControls.h"
#include "VtkViewWidget.h"

#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QPointer>
#include <QTimer>

#include <cstdio>

namespace cs::app {
namespace {
// The docks --dock can put in front, by their object names' stems.
constexpr const char* kDockNames =
    "topology|design|inspector|summary|comparison|charts|timeline|stepBreakdown|collectives|events|"
    "hotLinks|jobs";
// What --color takes: the Colour box's choices by name.
constexpr const char* kGuiColours = "kind|value|job|difference";
} // namespace

const CommandSpec& guiSpec() {
    static const CommandSpec spec = [] {
        CommandSpec c{"", "[--preset NAME | FILE]",
                      std::string("the GUI (default preset: ") + kDefaultPreset +
                          ", playing a simulated Llama 3 405B run)",
                      topologyOptions(), 1};
        c.options.insert(
            c.options.end(),
            {{"--select", "ID", "the entity selected at start; job:NAME, a job of the run"},
             {"--run", "RUN.sqlite", "a stored run to replay"},
             {"--at", "T", "where in the run to start"},
             {"--compare", "B.sqlite", "a second run beside the first (View > Compare)"},
             {"--study", "RESULTS.sqlite",
              "a design study's results charted in a window (File > Open Study)"},
             {"--study-x", "NAME", "the study chart's x: an axis or a recorded figure"},
             {"--study-y", "FIGURE", "the study chart's y: a recorded figure"},
             {"--series", "AXIS|none", "the axis whose values split the study chart's series"},
             {"--dock", "NAME",
              "a dock in front of its tabs at start (repeatable): " +
                  QString(kDockNames).split('|').join(", ").toStdString()},
             {"--layout", kLayoutNames.alternatives(), "the data halls as built, or the tiers"},
             {"--color", kGuiColours,
              "what colours the view: kind, the run's values, the job on each GPU, or the "
              "difference A - B (with --compare)"},
             {"--aggregate", kAggregateNames.alternatives(), "what a rack or bundle shows"},
             {"--camera", "overview|pod:N|rack:R|ID", "where the camera looks from"},
             {"--no-run", "", "the topology alone, without the default run"},
             {"--screenshot", "OUT.png",
              "saves a picture of the window (with --study, the chart's) and quits"}});
        return c;
    }();
    return spec;
}

const CommandSpec& guiSessionSpec() {
    static const CommandSpec spec{
        "", "SESSION.clusterscope", "the GUI as a saved session left it", {}, 1};
    return spec;
}

GuiOptions parseGuiOptions(const QStringList& args) {
    const CommandArgs a = parseCommandArgs(guiSpec(), args);
    GuiOptions o;
    if (a.has("--preset") && !a.positionals().isEmpty())
        throw UsageError("expected either --preset NAME or a topology FILE, not both");
    o.source = a.has("--preset")           ? "preset:" + a.value("--preset")
               : a.positionals().isEmpty() ? QStringLiteral("preset:") + kDefaultPreset
                                           : a.positionals().front();
    // A session file (by its name or its content) opens as it was saved.
    if (!a.positionals().isEmpty()) {
        const QString path = a.positionals().front();
        QFile f(path);
        if (path.endsWith(QString(".") + kSessionSuffix) ||
            (f.open(QIODevice::ReadOnly) && looksLikeSession(f.read(4096))))
            o.session = path;
    }
    if (!o.session.isEmpty() && (a.has("--run") || a.has("--select") || a.has("--at")))
        throw UsageError("a session holds its run, time and selection: give none of --run, "
                         "--at, --select with it");
    if (!o.session.isEmpty() && a.has("--set"))
        throw UsageError("--set changes a preset or a topology file, not a session");
    o.selectId = a.value("--select");
    o.screenshot = a.value("--screenshot");
    o.run = a.value("--run");
    o.at = a.value("--at");
    if (a.has("--at")) parseRunTimeArgument(o.at); // refused before a window opens
    o.noRun = a.flag("--no-run");
    o.compare = a.value("--compare");
    o.docks = a.values("--dock");
    o.study = a.value("--study");
    o.studyX = a.value("--study-x");
    o.studyY = a.value("--study-y");
    o.studySeries = a.value("--series");
    for (const char* flag : {"--study-x", "--study-y", "--series"})
        if (a.has(flag) && o.study.isEmpty())
            throw UsageError(std::string(flag) +
                             ": expected --study RESULTS.sqlite too, the study to chart");
    for (const QString& dock : o.docks)
        if (!QString(kDockNames).split('|').contains(dock))
            throw UsageError("--dock: expected one of " + std::string(kDockNames) + ", got \"" +
                             dock.toStdString() + "\"");
    o.layout = a.value("--layout");
    o.aggregate = a.value("--aggregate");
    o.camera = a.value("--camera");
    o.color = a.value("--color");
    (void)choiceArgument(a, "--layout", kLayoutNames, LayoutKind::Floor); // refused by name
    (void)choiceArgument(a, "--aggregate", kAggregateNames, Aggregate::Max);
    if (!o.color.isEmpty() && !QString(kGuiColours).split('|').contains(o.color))
        throw UsageError("--color: expected one of " + std::string(kGuiColours) + ", got \"" +
                         o.color.toStdString() + "\"");
    if (o.color == "difference" && o.compare.isEmpty())
        throw UsageError("--color difference: expected --compare B.sqlite, the run to subtract");
    if (!o.compare.isEmpty() && o.run.isEmpty())
        throw UsageError("--compare: expected --run too, the run to compare it with");
    o.nodeNameMap = a.value("--node-name-map");
    o.structure = a.value("--structure");
    o.sets = a.values("--set");
    if (o.noRun && !o.run.isEmpty()) throw UsageError("--no-run and --run exclude each other");
    return o;
}

namespace {
// The options' topology, selection, run and comparison, as openFromOptions says it.
QString openTopologyAndRun(MainWindow& w, const GuiOptions& o) {
    if (!o.session.isEmpty())
        return w.openSession(o.session, false)
                   ? QString()
                   : QString("cannot open the session %1 (see the message above)").arg(o.session);
    TopologyReadOptions read;
    read.nodeNameMap = o.nodeNameMap.toStdString();
    read.structureFile = o.structure.toStdString();
    for (const QString& set : o.sets)
        read.sets.push_back(set.toStdString());
    if (!w.openSource(o.source, false, read))
        return QString("cannot open %1 (see the message above)").arg(o.source);
    // A job of the run ("job:NAME") once the run is open, an entity now.
    const bool selectsJob = o.selectId.startsWith("job:");
    if (selectsJob && o.run.isEmpty())
        return QString("--select %1: a job is selected in a run: give --run").arg(o.selectId);
    if (!o.selectId.isEmpty() && !selectsJob && !w.selectById(o.selectId))
        return QString("--select: no entity has the id \"%1\"").arg(o.selectId);
    if (o.run.isEmpty()) return {};
    // On the design the run was recorded on, when it is not the one opened (a --set variant).
    if (!w.openRunWithItsTopology(o.run, false))
        return QString("cannot open %1 (see the message above)").arg(o.run);
    if (!o.compare.isEmpty() && !w.compareWith(o.compare, false))
        return QString("cannot compare with %1 (see the message above)").arg(o.compare);
    if (!o.at.isEmpty()) {
        try {
            w.replay()->clock()->seek(resolveRunTime(
                parseRunTimeArgument(o.at), w.replay()->overview()->info, o.run.toStdString()));
        } catch (const std::exception& e) {
            return QString::fromUtf8(e.what());
        }
    }
    if (selectsJob && !w.replay()->goToJobNamed(o.selectId.mid(4)))
        return QString("--select: the run has no job named \"%1\"").arg(o.selectId.mid(4));
    return {};
}

// The View toolbar's boxes as the options ask, so that the window behaves as if the user had
// chosen them; then the camera.
QString applyViewOptions(MainWindow& w, const GuiOptions& o) {
    ViewControls* c = w.viewControls();
    auto pick = [](QComboBox* box, int index) {
        if (index >= 0 && index < box->count()) box->setCurrentIndex(index);
    };
    if (!o.layout.isEmpty()) pick(c->layoutBox(), int(*kLayoutNames.parse(o.layout.toStdString())));
    if (!o.aggregate.isEmpty())
        pick(c->aggregateBox(), int(*kAggregateNames.parse(o.aggregate.toStdString())));
    if (!o.color.isEmpty()) {
        const int item = c->colourItemNamed(o.color);
        if (item < 0)
            return QString("--color %1: %2")
                .arg(o.color, o.color == "job" ? "the run holds no jobs (simulate-cluster's do)"
                                               : "expected --run, a run to colour by");
        pick(c->colourBox(), item);
    }
    if (!o.camera.isEmpty() && w.document()) {
        const std::string err =
            views::applyCameraSpec(w.view()->scene(), *w.document(), o.camera.toStdString());
        if (!err.empty()) return QString("--camera: %1").arg(QString::fromStdString(err));
        w.view()->update();
    }
    return {};
}
} // namespace

// The study chart's boxes as the options ask; a name the study does not offer is refused with
// the ones it does.
QString applyStudyOptions(StudyWindow& study, const GuiOptions& o) {
    views::StudyChartRequest r = study.chart()->request();
    const struct {
        const char* flag;
        const char* box;
        QString given;
        QString* into;
    } asked[] = {{"--study-x", "studyX", o.studyX, &r.x},
                 {"--study-y", "studyY", o.studyY, &r.y},
                 {"--series", "studySeries", o.studySeries, &r.seriesBy}};
    for (const auto& a : asked) {
        if (a.given.isEmpty()) continue;
        // The series box's "(none)" item holds an empty name.
        const QString name = a.into == &r.seriesBy && a.given == "none" ? QString() : a.given;
        const auto* box = study.chart()->findChild<QComboBox*>(a.box);
        if (box->findData(name) < 0) {
            QStringList offered;
            for (int i = 0; i < box->count(); ++i) {
                const QString item = box->itemData(i).toString();
                offered << (item.isEmpty() ? QString("none") : item);
            }
            return QString("%1 %2: the study offers %3").arg(a.flag, a.given, offered.join(", "));
        }
        *a.into = name;
    }
    study.chart()->setRequest(r);
    return {};
}

QString openFromOptions(MainWindow& w, const GuiOptions& o) {
    QString problem = openTopologyAndRun(w, o);
    if (problem.isEmpty()) problem = applyViewOptions(w, o);
    if (problem.isEmpty() && !o.study.isEmpty()) {
        StudyWindow* study = w.openStudy(o.study, false);
        if (!study)
            problem = QString("cannot open the study %1 (see the message above)").arg(o.study);
        else
            problem = applyStudyOptions(*study, o);
    }
    return problem;
}

int runGui(const GuiOptions& o) {
    MainWindow w;
    // Where the user left the docks; screenshots keep the built-in layout, to be alike.
    if (o.screenshot.isEmpty()) w.restoreLayout();
    const QString problem = openFromOptions(w, o);
    if (!problem.isEmpty()) {
        std::fprintf(stderr, "clusterscope: %s\n", qPrintable(problem));
        return kExitBadInput;
    }
    w.show();
    // A study's chart in front of the window it opens variants in.
    QPointer<StudyWindow> study = w.findChild<StudyWindow*>();
    if (study) study->raise();
    // A new user sees the main job at once: the default run plays on the default preset.
    if (o.run.isEmpty() && !o.noRun && o.session.isEmpty() && !study) w.startDefaultRun();
    for (const QString& name : o.docks)
        if (auto* dock = w.findChild<QDockWidget*>(name + "Dock")) {
            dock->show();
            dock->raise();
        }
    if (!o.screenshot.isEmpty()) {
        // Once the default run (if any) plays, a moment of it; otherwise once shown.
        auto* poll = new QTimer(&w);
        auto grab = [&w, o, study] {
            QWidget* shown = study ? static_cast<QWidget*>(study) : &w;
            bool ok = true;
            try {
                views::writePngAtomically(o.screenshot, shown->grab().toImage());
            } catch (const std::exception& e) {
                std::fprintf(stderr, "clusterscope: %s\n", e.what());
                ok = false;
            }
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
