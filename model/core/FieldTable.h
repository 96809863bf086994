#pragma once
// One field of an options table, described once: run options (RunOptions.h) and design
// fields (DesignFields.h) are both made of these, so they say what they take, parse text,
// read JSON and refuse values the same way, and one form builder (views/forms) makes their
// editors. Each table adds the accessors of what it edits (a RunSpec, a site's parameters).
#include <QJsonValue>
#include <QString>

#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace cs {

enum class FieldType { Integer, Number, Choice, Bool, Duration, Text };

// A value as accessors hold it: Integer (long long), Number and Duration (double, seconds),
// Choice and Text (std::string; a choice by its name), Bool (bool).
using FieldValue = std::variant<long long, double, std::string, bool>;

struct FieldInfo {
    std::string key;   // run-file field path ("parallel.tp") or design member ("oversubscription")
    std::string flag;  // command line ("--tp"); empty where --set KEY=VALUE names it
    std::string label; // dialog: "Tensor parallel (TP)"
    FieldType type = FieldType::Integer;
    double min = 0, max = 0;          // Integer, Number; Duration in seconds; Text: length
    bool aboveMin = false;            // Number: min itself excluded (a speed above 0)
    bool identifier = false;          // Text: no spaces or dots (a prefix of entity ids)
    std::vector<std::string> choices; // Choice
    std::string unit;                 // "GPUs", "Gb/s"; empty where the value says it
    std::string help;                 // one line
    std::string source;               // of the default: "[paper] Llama 3 Table 4"
    std::string defaultText;          // the default value as text
    // Text: what it takes ("a pipeline layout such as ..."; empty: a name of min to max
    // characters), and what is wrong with a value (empty when nothing).
    std::string textForm;
    std::string (*textProblem)(const std::string&) = nullptr;
    std::string textPlaceholder; // what an empty field means, with an example (the dialog's)
};

// What the field takes: "an integer from 1 to 1024", "a number above 0 and at most 1000000",
// "llama3-8b, llama3-70b or llama3-405b", "on or off", "a duration from 1s to 366d (...)".
std::string fieldExpected(const FieldInfo& f);
// The value as its type reads from text, strictly (no spaces, integers without fractions,
// durations as Duration.h reads them); nothing when the text is not of the field's type.
// The range is not checked here: fieldValueProblem does.
std::optional<FieldValue> parseFieldText(const FieldInfo& f, const QString& text);
// Whether the field takes the value: empty when it does; else what is wrong, beyond the
// "expected ..." every refusal says ("" for a plain miss, a Text field's own reason).
std::optional<std::string> fieldValueProblem(const FieldInfo& f, const FieldValue& v);
inline bool fieldValueAllowed(const FieldInfo& f, const FieldValue& v) {
    return !fieldValueProblem(f, v);
}
// Parses and checks `text`; throws InputException naming `key` (the field's key as the
// caller's input names it) with "expected ..., got \"text\"" and the reason where there is one.
FieldValue fieldValueOrThrow(const FieldInfo& f, const std::string& key, const QString& text);
[[noreturn]] void refuseFieldText(const FieldInfo& f, const std::string& key, const QString& text,
                                  const std::string& reason = {});
// The value as text that parseFieldText reads back ("on"/"off", durations as "1h30m").
QString fieldValueText(const FieldInfo& f, const FieldValue& v);

// JSON: the text a member holds for the field (numbers as numbers, bools as true / false,
// others as strings; nothing when the JSON type is not the field's), and the value itself
// (numbers kept exact; an Integer must be whole).
std::optional<QString> fieldTextOfJson(const FieldInfo& f, const QJsonValue& v);
std::optional<FieldValue> fieldValueOfJson(const FieldInfo& f, const QJsonValue& v);
QJsonValue fieldValueToJson(const FieldInfo& f, const FieldValue& v);

} // namespace cs
