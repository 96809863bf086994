#pragma once
// The commands of `clusterscope`, each described once: its name, the shape of its arguments,
// a one-line summary and its options (flag, value, help). The parser of a command's arguments,
// `clusterscope --help`, `clusterscope COMMAND --help` and the command list in
// docs/user/commands.md are all made from these descriptions, so they cannot disagree.
#include "CommandArgs.h"

#include <QStringList>

#include <string>
#include <vector>

namespace cs::app {

struct CommandOption {
    std::string flag;  // "--layout", "-o"
    std::string value; // "floor|fabric", "N"; empty: a switch that takes no value
    std::string help;  // one line
    // Further lines of `COMMAND --help` (a run option's range, default and source).
    std::vector<std::string> details = {};
    // Listed in the synopsis; the rarely used ones (a foreign fabric's sidecar) only in help.
    bool inSynopsis = true;
};

struct CommandSpec {
    std::string name; // "render"; empty: the GUI
    // What the command needs, as the synopsis writes it first ("(--preset NAME | FILE) -o
    // OUT"); the options it does not mention follow it as "[--flag VALUE]".
    std::string head;
    std::string summary; // what it does, one line
    std::vector<CommandOption> options;
    int maxPositionals = 0;
};

// --preset, --set, --node-name-map and --structure: how every command that reads a topology
// opens it.
std::vector<CommandOption> topologyOptions();

// Scans args[1..] for the command's options (CommandArgs); throws UsageError.
CommandArgs parseCommandArgs(const CommandSpec& c, const QStringList& args);

// The command's lines of `clusterscope --help`: its synopsis wrapped at 100 columns, then its
// summary.
std::string usageLines(const CommandSpec& c);
// `clusterscope COMMAND --help`: the synopsis, the summary, then every option with its help.
std::string commandHelp(const CommandSpec& c);
// `clusterscope --help`: every command's usage lines, the presets and the exit codes.
std::string usageText(const std::vector<const CommandSpec*>& commands);

} // namespace cs::app
