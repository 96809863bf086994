#include "CommandLine.h"

#include "InputError.h"
#include "Presets.h"

#include <cstdio>

namespace cs::app {

const std::vector<CliCommand>& cliCommands() {
    static const std::vector<CliCommand> table{
        {statsSpec(), statsCommand},
        {bomSpec(), bomCommand},
        {exportSpec(), exportCommand},
        {renderSpec(), renderCommand},
        {movieSpec(), movieCommand},
        {simulateSpec(), simulateCommand},
        {simulateClusterSpec(), simulateClusterCommand},
        {collectiveSpec(), collectiveCommand},
        {frameSpec(), frameCommand},
        {compareSpec(), compareCommand},
        {importSpec(), importCommand},
        {generateTelemetrySpec(), generateTelemetryCommand},
        {studySpec(), studyCommand},
        {presetsSpec(), presetsCommand},
    };
    return table;
}

const CliCommand* findCommand(const QString& name) {
    for (const CliCommand& c : cliCommands())
        if (name.toStdString() == c.spec.name) return &c;
    return nullptr;
}

CommandSpec presetsSpec() {
    return {"presets", "", "list the built-in topologies", {}, 0};
}

int presetsCommand(const CommandArgs&) {
    for (const PresetInfo& p : presets())
        std::printf("%-14s %s\n", p.name.c_str(), p.description.c_str());
    return kExitOk;
}

int runCommand(const QStringList& args) {
    const CliCommand* c = findCommand(args.value(0));
    if (!c) {
        std::fprintf(stderr, "clusterscope: no command \"%s\" (try clusterscope --help)\n",
                     qPrintable(args.value(0)));
        return kExitBadInput;
    }
    const char* name = c->spec.name.c_str();
    if (args.contains("--help") || args.contains("-h")) {
        std::fputs(commandHelp(c->spec).c_str(), stdout);
        return kExitOk;
    }
    try {
        return c->run(parseCommandArgs(c->spec, args));
    } catch (const UsageError& e) {
        std::fprintf(stderr, "clusterscope %s: %s\n%s(clusterscope %s --help lists its options)\n",
                     name, e.what(), usageLines(c->spec).c_str(), name);
        return kExitBadInput;
    } catch (const InputException& e) {
        std::fprintf(stderr, "clusterscope %s: %s\n", name, e.what());
        return kExitBadInput;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "clusterscope %s: %s\n", name, e.what());
        return kExitIoError;
    }
}

} // namespace cs::app
