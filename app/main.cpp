// clusterscope: with a subcommand (stats, export, ...) a command-line tool; otherwise the GUI.
#include "CommandArgs.h"
#include "CommandLine.h"
#include "GuiOptions.h"
#include "VtkSurfaceFormat.h"

#include <QApplication>
#include <QIcon>

#include <cstdio>

namespace {
void setIdentity() {
    QCoreApplication::setOrganizationName("ClusterScope");
    QCoreApplication::setApplicationName("clusterscope");
    QCoreApplication::setApplicationVersion(QStringLiteral(CS_VERSION));
}
} // namespace

int main(int argc, char** argv) {
    QStringList args;
    for (int i = 1; i < argc; ++i)
        args << QString::fromLocal8Bit(argv[i]);
    if (!args.isEmpty() && cs::app::isCommand(args.front())) {
        QCoreApplication app(argc, argv);
        setIdentity();
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
