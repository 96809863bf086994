#pragma once
// What a simulated run will need in memory, estimated from the topology and the run before
// anything is allocated, so that a run too big for the machine is refused with the estimate
// rather than ending in the OOM killer. The terms are the engine's large arrays: per-link
// byte vectors of every transfer class (a stage's DP and CP rings, each direction of each
// pipeline boundary), the router's and the solver's per-link arrays, the placement and the
// store writer's per-entity buffers; the bench compares the estimate with the measured peak.
#include "RunSpec.h"
#include "Topology.h"

namespace cs {

double estimateSimulationBytes(const Topology& t, const RunSpec& spec, bool writesStore);
// The budget a run gets: the spec's, or (0) the machine's physical memory.
double memoryBudgetBytes(const RunSpec& spec);
// Throws InputException (field memoryBudgetGiB) when the estimate exceeds the budget.
void checkSimulationMemory(const Topology& t, const RunSpec& spec, bool writesStore);

} // namespace cs
