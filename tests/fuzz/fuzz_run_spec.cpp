// Run descriptions: parsed, and when accepted, checked against a topology as `simulate` does
// before it runs (placement, memory), without running the simulation.
#include "FuzzSupport.h"
#include "InputError.h"
#include "RunSpecJson.h"
#include "SimulationMemory.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    try {
        const cs::RunSpec spec = cs::parseRunSpec(fuzz::bytesOf(data, size), "fuzz-run.json");
        (void)cs::modelOf(spec);
        cs::checkSimulationMemory(fuzz::smallTopology().topology(), spec, false);
    } catch (const cs::InputException&) {
    }
    return 0;
}
