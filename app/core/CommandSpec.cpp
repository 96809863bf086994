#include "CommandSpec.h"

#include "Presets.h"

#include <set>

namespace cs::app {
namespace {

constexpr size_t kColumns = 100;   // the docs' code blocks and a wide terminal
constexpr size_t kHelpColumn = 28; // where an option's help starts in COMMAND --help

// The head's parts, split at spaces outside brackets: "(--preset NAME | FILE)" stays whole.
std::vector<std::string> headParts(const std::string& head) {
    std::vector<std::string> parts;
    std::string part;
    int depth = 0;
    for (const char c : head) {
        depth += (c == '(' || c == '[') - (c == ')' || c == ']');
        if (c == ' ' && depth == 0) {
            if (!part.empty()) parts.push_back(part);
            part.clear();
        } else {
            part += c;
        }
    }
    if (!part.empty()) parts.push_back(part);
    return parts;
}

bool mentions(const std::string& head, const std::string& flag) {
    for (size_t at = head.find(flag); at != std::string::npos; at = head.find(flag, at + 1)) {
        const size_t end = at + flag.size();
        const bool startsWord = at == 0 || head[at - 1] == ' ' || head[at - 1] == '[' ||
                                head[at - 1] == '(' || head[at - 1] == '|';
        if (startsWord &&
            (end == head.size() || head[end] == ' ' || head[end] == ']' || head[end] == ')'))
            return true;
    }
    return false;
}

std::string optionText(const CommandOption& o) {
    return o.value.empty() ? o.flag : o.flag + " " + o.value;
}

std::string helpLine(const std::string& left, const std::string& right) {
    std::string s = "  " + left;
    s += left.size() + 2 < kHelpColumn ? std::string(kHelpColumn - 2 - left.size(), ' ')
                                       : "\n" + std::string(kHelpColumn, ' ');
    return s + right + "\n";
}

std::string synopsis(const CommandSpec& c, const std::string& firstPrefix) {
    std::vector<std::string> parts = headParts(c.head);
    for (const CommandOption& o : c.options)
        if (o.inSynopsis && !mentions(c.head, o.flag)) parts.push_back("[" + optionText(o) + "]");
    const std::string more(8, ' ');
    std::string text, line = firstPrefix;
    for (const std::string& p : parts) {
        if (line.size() > more.size() && line.size() + 1 + p.size() > kColumns) {
            text += line + "\n";
            line = more;
        }
        line += (line.back() == ' ' ? "" : " ") + p;
    }
    return text + line + "\n";
}

std::string commandLine(const CommandSpec& c) {
    return c.name.empty() ? "clusterscope" : "clusterscope " + c.name;
}

} // namespace

std::vector<CommandOption> topologyOptions() {
    return {
        {"--preset", "NAME", "a built-in topology (clusterscope presets lists them)", {}, false},
        {"--set",
         "FIELD=VALUE",
         "change a generator parameter of the preset or file (repeatable)",
         {"FIELD as errors name it: generator.clusters[0].oversubscription,",
          "generator.storage.tectonicServers; docs/user/file-format.md lists every field"}},
        {"--node-name-map",
         "MAP",
         "names of a foreign fabric's nodes (ibnetdiscover's map)",
         {},
         false},
        {"--structure",
         "SIDECAR.json",
         "what a foreign fabric file does not say (pods, racks, GPUs)",
         {},
         false}};
}

CommandArgs parseCommandArgs(const CommandSpec& c, const QStringList& args) {
    std::set<QString> valued, flags;
    for (const CommandOption& o : c.options)
        (o.value.empty() ? flags : valued).insert(QString::fromStdString(o.flag));
    return CommandArgs(args, valued, flags, c.maxPositionals);
}

std::string usageLines(const CommandSpec& c) {
    return synopsis(c, "  " + commandLine(c)) + std::string(8, ' ') + c.summary + "\n";
}

std::string commandHelp(const CommandSpec& c) {
    std::string s = synopsis(c, "Usage: " + commandLine(c)) + c.summary + "\n\nOptions:\n";
    for (const CommandOption& o : c.options) {
        s += helpLine(optionText(o), o.help);
        for (const std::string& d : o.details)
            s += helpLine("", d);
    }
    return s + "\nExit codes: 0 success, 1 cannot write output, 2 bad input.\n";
}

std::string usageText(const std::vector<const CommandSpec*>& commands) {
    std::string s = "Usage:\n";
    for (const CommandSpec* c : commands)
        s += usageLines(*c);
    s += "  clusterscope --version | --help\n";
    s += "  clusterscope COMMAND --help\n";
    s += std::string(8, ' ') + "the command's options, each with its values and meaning\n";
    s += "FILE: a ClusterScope topology or another tool's fabric file; T: an offset into the run\n"
         "(0s, 100ms, 1h30m) or, for recorded runs, an RFC 3339 time.\n";
    s += "Presets: " + presetNamesJoined() + "\n";
    s += "Exit codes: 0 success, 1 cannot write output, 2 bad input.\n";
    return s;
}

} // namespace cs::app
