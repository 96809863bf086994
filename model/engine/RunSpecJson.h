#pragma once
// Run descriptions in the native format:
// {"format": "clusterscope-run", "version": 1, "model": "llama3-405b", "gpu": "h100",
//  "parallel": {"tp": 8, "cp": 1, "pp": 16, "dp": 128, "virtualStages": 4, "seq": 8192,
//               "batchTokens": 16777216, "microBatchSeqs": 1, "flowsPerPair": 16,
//               "placement": "topology"},
//  "steps": 10 | "span": "54d", "checkpointInterval": "15m", "failures": true, "seed": 1}
#include "Duration.h"
#include "SimulationRun.h"

#include <QByteArray>
#include <optional>

namespace cs {

// Throws InputException naming file, line, column and field.
RunSpec parseRunSpec(const QByteArray& text, const std::string& fileName);
RunSpec loadRunSpec(const QString& path);

} // namespace cs
