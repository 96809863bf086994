#pragma once
// What the engine's suites share: a parallel configuration in one line, a step of a model on
// H100s, a run simulated into a store file, and the topologies several suites open.
#include "SimulationRun.h"
#include "TopologyDocument.h"

#include <QString>

#include <memory>

namespace cs::test {

ParallelConfig config(int tp, int cp, int pp, int dp, int seq);
// Llama 3 8B on small-256 with DP innermost (linear placement), interleaved: 4 stages x 2
// chunks, 8 micro-batches per replica.
ParallelConfig dpInnermostInterleaved();

// One step of the named model on H100s with the topology's default placement.
StepEstimate step(const TopologyDocument& doc, const char* model, const ParallelConfig& c);

// Simulates into a store file (the writer closes before any reader opens it).
RunResult simulateToStore(const TopologyDocument& doc, const RunSpec& spec, const QString& path);

// meta-roce-24k, opened once per test executable.
const TopologyDocument& roce();

// small-256 with its one cluster's oversubscription set to `ratio`.
std::unique_ptr<TopologyDocument> smallWithOversubscription(double ratio);

} // namespace cs::test
