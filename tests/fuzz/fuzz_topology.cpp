// Topology files (generator parameters and explicit lists): parsed, and when accepted, the
// derived figures and the id index computed as `stats` and the GUI do.
#include "FuzzSupport.h"
#include "InputError.h"
#include "TopologyFile.h"
#include "TopologyIndex.h"
#include "TopologyStats.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    try {
        // At most 20,000 GPUs: a few bytes asking for 2 million would cost seconds per input.
        const cs::LoadedTopology t =
            cs::parseTopologyText(fuzz::bytesOf(data, size), "fuzz.json", 20'000);
        const cs::TopologyStats s = cs::computeStats(t.topology);
        (void)s;
        const cs::TopologyIndex index(t.topology);
        (void)index;
    } catch (const cs::InputException&) {
    }
    return 0;
}
