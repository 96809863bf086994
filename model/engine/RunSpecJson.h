#pragma once
// Run descriptions in the native format, read and written here:
// {"format": "clusterscope-run", "version": 1, "model": "llama3-405b", "gpu": "h100",
//  "parallel": {"tp": 8, "cp": 1, "pp": 16, "dp": 128, "virtualStages": 4, "seq": 8192,
//               "batchTokens": 16777216, "microBatchSeqs": 1, "flowsPerPair": 16,
//               "placement": "topology"},
//  "steps": 10 | "span": "54d", "checkpointInterval": "15m", "failures": true, "seed": 1}
#include "Duration.h"
#include "JsonPath.h"
#include "RunOptions.h"
#include "RunSpec.h"

#include <QJsonObject>
#include <QJsonValue>

#include <QByteArray>
#include <optional>

namespace cs {

// Throws InputException naming file, line, column and field.
RunSpec parseRunSpec(const QByteArray& text, const std::string& fileName);
RunSpec loadRunSpec(const QString& path);
// A run-file object found at `at` inside another document (a study's "run"); "format" and
// "version" may be left out there. Throws JsonFieldError with paths below `at`, which
// readJsonDocument locates in that document.
RunSpec runSpecOfJson(const QJsonValue& value, const JsonPath& at);
// Sets one option from a run-file value, as the file reader does; the error is "expected
// ..., got ..." quoting the value as JSON writes it.
std::optional<std::string> setRunOptionJson(RunSpec& spec, const RunOption& option,
                                            const QJsonValue& value);

// The run file ({"format": "clusterscope-run", "version": 2, ...}, as above) that
// parseRunSpec reads back to an equal spec. Version 1 files (no model objects, no switches
// of version 2) still load.
constexpr int kRunFileVersion = 2;
QJsonObject runSpecToJson(const RunSpec& spec);
// A model shape as a run file writes it: {"name", "layers", "hidden", "ffnHidden",
// "ffnKind", "heads", "kvHeads", "vocab", "tiedEmbeddings"}.
QJsonObject modelToJson(const ModelSpec& m);

} // namespace cs
