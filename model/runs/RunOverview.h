#pragma once
// What the charts and the timeline show of a whole run, read once when it opens: GPU busy
// (mean with the 5th-95th percentile band), throughput per network tier, storage
// throughput, step time and MFU, the site's power, and the events. Plain values: built on the
// reader's thread, handed to the GUI.
#include "RunReader.h"

namespace cs {

struct RunOverview {
    RunInfo info;
    Series busyMean, busyLow, busyHigh;   // fraction
    std::array<Series, kTierCount> tiers; // B/s
    Series storage;                       // B/s over all storage servers
    Series stepTime, mfu;                 // s, fraction
    Series sitePowerW;                    // W; empty when the run does not hold it
    std::vector<RunEvent> events;
    std::vector<Metric> metrics; // the catalogue metrics the run holds
};

RunOverview overviewOf(RunReader& reader, int maxPoints = 2000);

// The selected entity's values in a frame, for the inspector: label and text ("busy (now)",
// "97%"). Racks and hosts show their GPUs' mean and range.
std::vector<std::pair<std::string, std::string>> liveValues(const RunFrame& f, const Topology& t,
                                                            Endpoint e);

} // namespace cs
