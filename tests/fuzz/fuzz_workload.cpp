// Workload files: parsed, and when accepted with a handful of jobs and failures, run on
// small-256 for a day of simulated time (the scheduler, the shared fabric, the failures).
#include "ClusterSimulation.h"
#include "FuzzSupport.h"
#include "InputError.h"
#include "Workload.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    try {
        const cs::Workload w = cs::parseWorkload(fuzz::bytesOf(data, size), "fuzz-workload.json");
        if (w.jobs.size() <= 6 && w.failures.size() <= 6)
            (void)cs::simulateCluster(fuzz::smallTopology(), w, 86400);
    } catch (const cs::InputException&) {
    }
    return 0;
}
