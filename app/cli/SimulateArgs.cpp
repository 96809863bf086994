#include "SimulateArgs.h"

#include "CommandLine.h"

#include "FabricFaults.h"
#include "RunOptions.h"
#include "RunSpecJson.h"

#include <cctype>

namespace cs::app {
namespace {

std::string metavar(const RunOption& o) {
    switch (o.type) {
    case FieldType::Integer:
    case FieldType::Number:
        return "N";
    case FieldType::Duration:
        return "DURATION";
    case FieldType::Bool:
        return "on|off";
    case FieldType::Text: { // the flag's last word: --pipeline-layout LAYOUT
        std::string word = o.flag.substr(o.flag.rfind('-') + 1);
        for (char& ch : word)
            ch = char(std::toupper(static_cast<unsigned char>(ch)));
        return word;
    }
    case FieldType::Choice: {
        std::string s;
        for (const std::string& c : o.choices)
            s += (s.empty() ? "" : "|") + c;
        return s;
    }
    }
    return {};
}

} // namespace

CommandSpec simulateSpec() {
    CommandSpec c{"simulate", "(--preset NAME | FILE) [--run RUN.json] [RUN OPTIONS...]",
                  "training simulated on the topology: steps, or a span with checkpoints and "
                  "failures",
                  topologyOptions(), 1};
    c.options.push_back({"--run", "RUN.json", "a run description, read before the flags"});
    // Every run option, from the table the run files and the dialog read too.
    for (const RunOption& o : runOptions()) {
        std::string values = fieldExpected(o);
        if (!o.unit.empty()) values += " " + o.unit;
        c.options.push_back(
            {o.flag,
             metavar(o),
             o.help,
             {values + "; default " + (o.defaultText.empty() ? "none" : o.defaultText),
              o.source + "; run file: " + o.key},
             false});
    }
    c.options.insert(c.options.end(),
                     {{"--fail", "ID",
                       "a link (\"<end a> -- <end b>\"), switch or NIC down for the run; "
                       "repeatable, added to the run file's fabric.failed"},
                      {"--degrade", "ID=FRACTION",
                       "a part keeping FRACTION of its capacity; repeatable (fabric.degraded)"},
                      {"--gpus", "N", "checks that TP x CP x PP x DP is N"},
                      {"--out", "run.sqlite", "writes the time series, for replay in the GUI"},
                      {"--trace", "step.json", "writes a Chrome / Perfetto trace of one step"},
                      {"--json", "", "prints the summary as one JSON object"}});
    return c;
}

CommandArgs simulateCommandArgs(const QStringList& args) {
    return parseCommandArgs(simulateSpec(), args);
}

RunSpec runSpecOfArgs(const CommandArgs& a) {
    // Each of them replaces the other (so that a flag overrides the run file), not both.
    // (Neither is allowed here: the run file's or the default's one step stays.)
    if (a.has("--steps") && a.has("--span"))
        throw UsageError("--span: " + stepsOrSpanProblem(true, true, "--steps", "--span"));
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
    for (const QString& id : a.values("--fail"))
        spec.fabric.failed.push_back(id.toStdString());
    for (const QString& text : a.values("--degrade")) {
        try {
            spec.fabric.degraded.push_back(parseDegradeFlag(text.toStdString()));
        } catch (const InputException& e) {
            throw UsageError(e.error().field + ": " + e.error().message);
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

} // namespace cs::app
