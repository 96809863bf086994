#pragma once
// What crosses one link over the stretch of run playing at a time (a simulated step, a
// checkpoint): each traffic source on it with the bytes it moves (both directions) and the time
// it is on; the link's peak and its time above a share of its capacity. RunReader::linkUse
// measures it from the stored frames; linkUseLines words it for the inspector.
#include <QJsonObject>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace cs {

struct LinkSourceUse {
    int32_t source = 0; // the pattern's traffic source (a simulated step: summary "trafficSources")
    double bytes = 0;   // both directions, over the pattern
    double activeS = 0; // time it moves any bytes on the link
};

struct LinkUse {
    std::string pattern; // "step", "checkpoint", ...
    double patternS = 0;
    double capacityBps = 0;
    double peakBps = 0;                 // the busier direction, at its highest frame
    double threshold = 0.8;             // of capacity
    double aboveS = 0;                  // time at or above threshold x capacity
    std::vector<LinkSourceUse> sources; // most bytes first; only sources with bytes here
};

// One link's load over a pattern, for the Hottest Links list.
struct LinkHeat {
    int32_t link = 0;
    double peakFraction = 0; // of capacity, the busier direction
    double aboveS = 0;       // time at or above the threshold
};
enum class HotBy { Peak, TimeAbove };

// Inspector rows: ("peak (step)", "92% of capacity"), ("above 80% (step)", "0.41 s of 6.12 s"),
// then one per source: ("PP activations, stage 2 to 3", "1.20 GB, on 35%": the share of the
// pattern's time it is on).
// `summary` names the step's sources; others read "source N".
std::vector<std::pair<std::string, std::string>> linkUseLines(const LinkUse& use,
                                                              const QJsonObject& summary);

} // namespace cs
