#pragma once
// The command-line subcommands of `clusterscope` (stats, export, render, ...): one table of
// them, each with its description (CommandSpec.h) and the function that runs it. Without a
// subcommand the GUI opens.
#include "CommandSpec.h"
#include "ExitCodes.h"

#include <QStringList>

namespace cs::app {

struct CliCommand {
    CommandSpec spec;
    int (*run)(const CommandArgs&);
};

// In the order `clusterscope --help` lists them.
const std::vector<CliCommand>& cliCommands();
const CliCommand* findCommand(const QString& name);
// args[0] names a command of the table. Prints errors on stderr; returns the exit code.
int runCommand(const QStringList& args);

// Each command, its description beside the code that runs it.
CommandSpec statsSpec();
int statsCommand(const CommandArgs& a);
CommandSpec bomSpec();
int bomCommand(const CommandArgs& a);
CommandSpec exportSpec();
int exportCommand(const CommandArgs& a);
CommandSpec renderSpec();
int renderCommand(const CommandArgs& a);
CommandSpec movieSpec();
int movieCommand(const CommandArgs& a);
CommandSpec simulateSpec();
int simulateCommand(const CommandArgs& a);
CommandSpec simulateClusterSpec();
int simulateClusterCommand(const CommandArgs& a);
CommandSpec frameSpec();
int frameCommand(const CommandArgs& a);
CommandSpec importSpec();
int importCommand(const CommandArgs& a);
CommandSpec generateTelemetrySpec();
int generateTelemetryCommand(const CommandArgs& a);
CommandSpec compareSpec();
int compareCommand(const CommandArgs& a);
CommandSpec studySpec();
int studyCommand(const CommandArgs& a);
CommandSpec collectiveSpec();
int collectiveCommand(const CommandArgs& a);
CommandSpec presetsSpec();
int presetsCommand(const CommandArgs& a);

} // namespace cs::app
