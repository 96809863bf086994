#pragma once
// The command-line subcommands of `clusterscope`; without one the GUI opens.
#include <QStringList>

namespace cs::app {

// Exit codes: 0 success, 1 failure writing output, 2 bad input (message on stderr).
constexpr int kExitOk = 0;
constexpr int kExitIoError = 1;
constexpr int kExitBadInput = 2;

bool isCommand(const QString& firstArgument);
int runCommand(const QStringList& args); // args[0] is the subcommand

int statsCommand(const QStringList& args);
int exportCommand(const QStringList& args);
int renderCommand(const QStringList& args);
int movieCommand(const QStringList& args);
int simulateCommand(const QStringList& args);
int importCommand(const QStringList& args);
int frameCommand(const QStringList& args);
int generateTelemetryCommand(const QStringList& args);
int presetsCommand(const QStringList& args);

} // namespace cs::app
