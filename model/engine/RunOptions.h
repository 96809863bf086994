#pragma once
// Every option of a simulated run, described once: its run-file field, command-line flag,
// dialog label, type, range or choices, default, unit, help and where the default comes from.
// The run-file reader, `clusterscope simulate` and the simulation dialog all parse through
// this table, so they accept the same values and name the same field in their errors.
// The sources of the defaults: docs/reference/llama3-training.md.
#include "RunSpec.h"

#include <QJsonObject>
#include <QString>

#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace cs {

enum class RunOptionType { Integer, Number, Choice, Bool, Duration, Text };

// A value as the accessors of one option hold it: Integer (long long), Number and Duration
// (double, seconds), Choice and Text (std::string), Bool (bool).
using RunOptionValue = std::variant<long long, double, std::string, bool>;

struct RunOption {
    std::string key;   // run-file field path: "parallel.tp"
    std::string flag;  // command line: "--tp"
    std::string label; // dialog: "Tensor parallel (TP)"
    RunOptionType type = RunOptionType::Integer;
    double min = 0, max = 0;          // Integer, Number; Duration in seconds; Text: length
    std::vector<std::string> choices; // Choice
    std::string unit;                 // "GPUs", "tokens"; empty where the value says it
    std::string help;                 // one line
    std::string source;               // of the default: "[paper] Llama 3 Table 4"
    std::string defaultText;          // runOptionText(defaultRunSpec(), *this)
    // Text: what it takes ("a pipeline layout such as ..."), and what is wrong with a value
    // (empty when nothing; the checks against the model come later, with the run's others).
    std::string textForm;
    std::string (*textProblem)(const std::string&) = nullptr;
    std::string textPlaceholder; // what an empty field means, with an example (the dialog's)
    // The field of a RunSpec; setRunOption and runOptionText go through these.
    RunOptionValue (*get)(const RunSpec&) = nullptr;
    void (*set)(RunSpec&, const RunOptionValue&) = nullptr;
};

// In run-file order: model, gpu, parallel.*, steps, span, checkpointInterval, failures, seed.
const std::vector<RunOption>& runOptions();
const RunOption* findRunOption(const std::string& key);
// Steps and span: the one not in use holds 0 and has no text (nor a run-file field).
bool isStepsOrSpan(const RunOption& option);
// The rule of steps and span, written once: a run has one of them, never both nor neither.
// Empty when `steps` and `span` (whether each is given) keep it; else the refusal, naming
// them as the caller's input does ("--steps", "\"steps\"").
std::string stepsOrSpanProblem(bool steps, bool span,
                               const std::string& stepsName = "a number of steps",
                               const std::string& spanName = "a span");

// RunSpec{} with one step: a run needs steps or a span; the command line and the dialog
// start from it.
RunSpec defaultRunSpec();

// Parses `text` strictly (no spaces, integers without fractions, durations as Duration.h
// reads them) and sets the option; throws InputException with field = the key and a message
// saying what was expected. "steps" and "span" exclude each other: setting one clears the
// other.
void setRunOption(RunSpec& spec, const RunOption& option, const QString& text);
// The current value as text that setRunOption reads back; empty for the one of steps and
// span that is not in use.
QString runOptionText(const RunSpec& spec, const RunOption& option);
// What the option takes: "an integer from 1 to 1024", "llama3-8b, llama3-70b or
// llama3-405b", "on or off", "a duration from 1s to 366d (such as 54d, 12h or 1h30m)".
std::string runOptionExpected(const RunOption& option);

// The checks across fields that the table cannot express (steps or span, their limits,
// known model and GPU) and that every value is in its option's range; throws
// InputException naming the field by its key.
void validateRunSpec(const RunSpec& spec);

// The text setRunOption reads for a run-file value: numbers as numbers, durations and choices
// as strings, bools as true / false; nothing when the JSON type is not the option's.
std::optional<QString> runOptionTextOfJson(const RunOption& option, const QJsonValue& value);

} // namespace cs
