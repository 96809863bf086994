// clusterscope: with a subcommand (stats, export, ...) a command-line tool; otherwise the GUI.
#include "CommandLine.h"
#include "GuiOptions.h"
#include "VtkSurfaceFormat.h"

#include <QApplication>
#include <QGuiApplication>
#include <QIcon>

#include <cstdio>
#include <memory>

namespace {
void setIdentity() {
    QCoreApplication::setOrganizationName("ClusterScope");
    QCoreApplication::setApplicationName("clusterscope");
    QCoreApplication::setApplicationVersion(QStringLiteral(CS_VERSION));
}

// Every form `clusterscope` takes, in the order --help lists them.
std::vector<const cs::app::CommandSpec*> everyCommand() {
    std::vector<const cs::app::CommandSpec*> all{&cs::app::guiSpec(), &cs::app::guiSessionSpec()};
    for (const cs::app::CliCommand& c : cs::app::cliCommands())
        all.push_back(&c.spec);
    return all;
}
} // namespace

int main(int argc, char** argv) {
    QStringList args;
    for (int i = 1; i < argc; ++i)
        args << QString::fromLocal8Bit(argv[i]);
    const QString first = args.value(0);
    if (first == "--help" || first == "-h" || first == "help" || first == "--version" ||
        cs::app::findCommand(first)) {
        // Pictures and movies draw their titles and captions with Qt's fonts (SlideFrame.h): a
        // GUI application without windows, on Qt's offscreen platform unless one is set.
        const bool draws = first == "render" || first == "movie";
        if (draws && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
        std::unique_ptr<QCoreApplication> app =
            draws ? std::make_unique<QGuiApplication>(argc, argv)
                  : std::make_unique<QCoreApplication>(argc, argv);
        setIdentity();
        if (first == "--version") {
            std::printf("clusterscope %s\n", qPrintable(QCoreApplication::applicationVersion()));
            return cs::app::kExitOk;
        }
        if (!cs::app::findCommand(first)) {
            std::fputs(cs::app::usageText(everyCommand()).c_str(), stdout);
            return cs::app::kExitOk;
        }
        return cs::app::runCommand(args);
    }
    cs::app::GuiOptions options;
    try {
        options = cs::app::parseGuiOptions(QStringList{"gui"} + args);
    } catch (const cs::app::UsageError& e) {
        std::fprintf(stderr, "clusterscope: %s (try clusterscope --help)\n", e.what());
        return cs::app::kExitBadInput;
    }
    cs::views::useVtkSurfaceFormat(); // VTK renders through a QOpenGLWidget
    QApplication app(argc, argv);
    setIdentity();
    QApplication::setWindowIcon(QIcon(":/icons/clusterscope.svg"));
    return cs::app::runGui(options);
}
