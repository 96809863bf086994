#include "SimulateArgs.h"

#include "RunOptions.h"
#include "RunSpecJson.h"

namespace cs::app {
namespace {

// Options of the command that are not run options.
const char* const kOtherValued[] = {"--preset", "--node-name-map", "--structure", "--run",
                                    "--gpus",   "--out",           "--trace"};

std::string metavar(const RunOption& o) {
    switch (o.type) {
    case RunOptionType::Integer:
    case RunOptionType::Number:
        return "N";
    case RunOptionType::Duration:
        return "DURATION";
    case RunOptionType::Bool:
        return "on|off";
    case RunOptionType::Choice: {
        std::string s;
        for (const std::string& c : o.choices)
            s += (s.empty() ? "" : "|") + c;
        return s;
    }
    }
    return {};
}

std::string helpLine(const std::string& left, const std::string& right) {
    std::string s = "  " + left;
    s += left.size() < 26 ? std::string(26 - left.size(), ' ') : "\n" + std::string(28, ' ');
    return s + right + "\n";
}

} // namespace

CommandArgs simulateCommandArgs(const QStringList& args) {
    std::set<QString> valued(std::begin(kOtherValued), std::end(kOtherValued));
    for (const RunOption& o : runOptions())
        valued.insert(QString::fromStdString(o.flag));
    return CommandArgs(args, valued, {"--json"}, 1);
}

RunSpec runSpecOfArgs(const CommandArgs& a) {
    // Each of them replaces the other (so that a flag overrides the run file), not both.
    if (a.has("--steps") && a.has("--span"))
        throw UsageError("--span: expected either --steps or --span, not both");
    RunSpec spec = a.has("--run") ? loadRunSpec(a.value("--run")) : defaultRunSpec();
    for (const RunOption& o : runOptions()) {
        const QString flag = QString::fromStdString(o.flag);
        if (!a.has(flag)) continue;
        try {
            setRunOption(spec, o, a.value(flag));
        } catch (const InputException& e) {
            throw UsageError(o.flag + ": " + e.error().message);
        }
    }
    // A check of what the user meant, not a run option: the product of the parallelism.
    const ParallelConfig& c = spec.parallel;
    if (a.has("--gpus") && a.value("--gpus") != QString::number(c.gpus()))
        throw UsageError("--gpus " + a.value("--gpus").toStdString() +
                         " is not TP x CP x PP x DP = " + std::to_string(c.tp) + " x " +
                         std::to_string(c.cp) + " x " + std::to_string(c.pp) + " x " +
                         std::to_string(c.dp) + " = " + std::to_string(c.gpus()));
    try {
        validateRunSpec(spec);
    } catch (const InputException& e) {
        throw withFlag(e, a);
    }
    return spec;
}

RunSpec parseSimulateArgs(const QStringList& args) {
    return runSpecOfArgs(simulateCommandArgs(args));
}

InputException withFlag(const InputException& e, const CommandArgs& a) {
    InputError err = e.error();
    const RunOption* o = err.file.empty() ? findRunOption(err.field) : nullptr;
    if (!o) return e;
    // Where the value came from: the flag, else the run file (its field), else the default
    // (which the flag changes).
    if (!a.has(QString::fromStdString(o->flag)) && a.has("--run"))
        err.file = a.value("--run").toStdString();
    else
        err.field = o->flag;
    return InputException(err);
}

std::string simulateHelp() {
    std::string s =
        "Usage: clusterscope simulate (--preset NAME | FILE) [--run RUN.json] [OPTIONS]\n"
        "Simulates training a model on the topology: one step's timing, or a wall-clock span\n"
        "with checkpoints and failures. A run file (--run) is read first; flags override it.\n"
        "\nRun options:\n";
    for (const RunOption& o : runOptions()) {
        std::string values = runOptionExpected(o);
        if (!o.unit.empty()) values += " " + o.unit;
        const std::string byDefault = o.defaultText.empty() ? "none" : o.defaultText;
        s += helpLine(o.flag + " " + metavar(o), o.help);
        s += helpLine("", values + "; default " + byDefault);
        s += helpLine("", o.source + "; run file: " + o.key);
    }
    s += "\nOther options:\n";
    s += helpLine("--run RUN.json", "a run description, read before the flags");
    s += helpLine("--gpus N", "checks that TP x CP x PP x DP is N");
    s += helpLine("--out run.sqlite", "writes the time series, for replay in the GUI");
    s += helpLine("--trace step.json", "writes a Chrome / Perfetto trace of one step");
    s += helpLine("--json", "prints the summary as one JSON object");
    s += "\nExit codes: 0 success, 1 cannot write output, 2 bad input.\n";
    return s;
}

} // namespace cs::app
