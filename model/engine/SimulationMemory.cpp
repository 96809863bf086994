#include "SimulationMemory.h"

#include "InputError.h"
#include "StepSchedule.h"

#include <unistd.h>

#include <cstdio>

namespace cs {

namespace {
constexpr double kGiB = 1024.0 * 1024 * 1024;
}

double estimateSimulationBytes(const Topology& t, const RunSpec& spec, bool writesStore) {
    const ParallelConfig& c = spec.parallel;
    const double directions = 2.0 * double(t.links.size());
    const double gpus = double(t.gpus.size()),
                 entities = gpus + double(t.links.size()) + double(t.hosts.size() + t.nics.size());
    // Per-link float vectors, one per transfer class with traffic on the fabric.
    const double boundaries = ScheduleClasses::of(c.pp, c.virtualStages).boundaries;
    // TP rings reach the fabric when DP is innermost (a TP group over several hosts).
    const bool tpOnFabric = c.tp > 1 && c.placement == Placement::Linear;
    const double classVectors = double(c.pp) + 2 * boundaries + (c.cp > 1 ? double(c.pp) : 0) +
                                (tpOnFabric ? double(c.pp) : 0);
    double bytes = classVectors * directions * sizeof(float);
    // Double per-link arrays: the step's bytes, the collective timer's and the fabric share's
    // capacities, a class's flow counts while it is routed, the checkpoint's capacities. (The
    // solver's arrays span only the links that can bind.)
    bytes += 5 * directions * sizeof(double);
    // The router's tables and the fabric share's loads and their transpose, per entity (the
    // topology and its index are in memory before a run is checked).
    bytes += 48 * entities;
    // The placement and per-GPU frames the writer assembles; with a store, each GPU's and
    // storage server's history chunk (256 frames of min and max) and the frame statistics.
    bytes += 16 * gpus;
    if (writesStore) bytes += (gpus + double(t.storage.size())) * 256 * 2 * sizeof(float);
    return bytes;
}

double memoryBudgetBytes(const RunSpec& spec) {
    if (spec.memoryBudgetGiB > 0) return spec.memoryBudgetGiB * kGiB;
    const long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
    return pages > 0 && pageSize > 0 ? double(pages) * double(pageSize) : 1e18;
}

void checkSimulationMemory(const Topology& t, const RunSpec& spec, bool writesStore) {
    const double need = estimateSimulationBytes(t, spec, writesStore),
                 budget = memoryBudgetBytes(spec);
    if (need <= budget) return;
    char msg[320];
    std::snprintf(msg, sizeof msg,
                  "this run needs about %.2f GiB, more than the budget of %.2f GiB%s; use fewer "
                  "pipeline stages or a smaller topology, or raise the budget",
                  need / kGiB, budget / kGiB,
                  spec.memoryBudgetGiB > 0 ? "" : " (the machine's memory)");
    throw InputException({{}, 0, 0, "memoryBudgetGiB", msg});
}

} // namespace cs
