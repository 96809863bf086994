#pragma once
// Every option of a simulated run, described once: its run-file field, command-line flag,
// dialog label, type, range or choices, default, unit, help and where the default comes from.
// The run-file reader, `clusterscope simulate` and the simulation dialog all parse through
// this table, so they accept the same values and name the same field in their errors.
// The sources of the defaults: docs/reference/llama3-training.md.
#include "FieldTable.h"
#include "RunSpec.h"

#include <QString>

#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace cs {

// A run option's description (FieldTable.h) with the accessors of its RunSpec field;
// setRunOption and runOptionText go through these.
struct RunOption : FieldInfo {
    FieldValue (*get)(const RunSpec&) = nullptr;
    void (*set)(RunSpec&, const FieldValue&) = nullptr;
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

// The checks across fields that the table cannot express (steps or span, their limits,
// known model and GPU) and that every value is in its option's range; throws
// InputException naming the field by its key.
void validateRunSpec(const RunSpec& spec);

} // namespace cs
