#pragma once
// The site's power over a stored run: its peak, its trough, and the largest swing within a
// window (1 s: synchronised training idles every GPU in the same DP burst), read from the
// run's site_power_w series, or, for a run stored without it, from its GPU busy frames
// through the same SitePowerModel the simulator stores.
#include "RunReader.h"
#include "SitePower.h"

namespace cs {

// The largest change of a series within a window, and where: the earlier extreme holds at
// fromS, the later one starts at toS.
struct PowerSwing {
    double w = 0; // max - min inside the window
    double fromS = 0, toS = 0;
    bool rising = false; // the later extreme is the higher one
};

struct RunPower {
    bool fromBusy = false; // computed from GPU busy: the run holds no site_power_w
    double peakW = 0, troughW = 0;
    double peakAtS = 0, troughAtS = 0;
    PowerSwing swing;
    double windowS = 1;
    double resolutionS = 0; // the spacing the series was read at
    long long points = 0;
};

// A series whose values hold until the next point (the reader's frames); the window slides
// over time, each window holding the value in force at its start and the points inside it.
PowerSwing largestSwing(const Series& s, int64_t windowNs);
// Reads the whole run at its frames' spacing (10 ms, coarser for runs over 10^6 of them).
// Throws InputException naming `file` when the run holds neither site_power_w nor gpu_busy.
RunPower runPower(RunReader& reader, const SitePowerModel& model, const std::string& file,
                  double windowS = 1.0);

} // namespace cs
