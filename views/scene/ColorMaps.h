#pragma once
// Colours of the views, derived from kinds and values (never stored on entities).
// Kinds use the Okabe-Ito palette (colour-blind safe); values use viridis.
#include "EntityKinds.h"
#include "Topology.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace cs::views {

using Rgba = std::array<uint8_t, 4>;

// What a legend entry stands for, in kind colouring.
enum class KindClass : uint8_t {
    Gpu,
    Host,
    ComputeRack,
    NetworkRack,
    StorageRack,
    RackSwitch,     // RTSW / leaf, NVSwitch
    PodSwitch,      // CTSW / spine
    CoreSwitch,     // ATSW / core
    FrontendSwitch, // frontend ToR, fabric, spine; storage ToR
    Storage,
    BackendLink,
    FrontendLink,
    Nic,
    NvlinkSwitch, // an NVLink switch tray of a rack-wide NVLink domain (GB200 NVL72)
    Count
};

Rgba kindColor(KindClass k);
const char* kindLabel(KindClass k);
KindClass classOf(SwitchRole role);
// A switch's class: NVLink switch trays outside any host have one of their own.
KindClass classOf(const Switch& s);
KindClass classOf(RackRole role);
KindClass classOfLink(const Topology& t, const Link& l);

// The i-th series of a chart: the Okabe-Ito colours in an order that keeps neighbours apart
// (blue, orange, green, vermillion, purple, sky, yellow, black), then again.
Rgba seriesColor(size_t i);

// Viridis from 0 (dark purple) to 1 (yellow); NaN gives the no-data grey.
Rgba valueColor(float v);
Rgba noDataColor();

// valueColor() for loops over every GPU of a frame (a million at the largest sites): the same
// table, read without a call.
class ValueColors {
public:
    static constexpr int kSteps = 1024; // within one level of viridis's interpolation
    ValueColors();
    Rgba operator()(float v) const {
        if (std::isnan(v)) return noData_;
        return steps_[size_t(std::clamp(v, 0.f, 1.f) * kSteps + 0.5f)];
    }

private:
    const Rgba* steps_; // kSteps + 1 entries
    Rgba noData_;
};

Rgba neutralColor(); // hosts and switches when colouring by value
// Behind the 3D scene, and in the gaps between far racks. Flat: a gradient costs a whole
// extra pass over the view in a software rasteriser (about 2 ms at 1280x720).
Rgba sceneBackground();
// 256 entries of viridis, for scalar bars.
const std::vector<Rgba>& valueTable();
// A difference of two runs from -1 (blue: B higher) through grey 0 to 1 (vermillion: A
// higher), the Okabe-Ito ends of a diverging scale; NaN gives the no-data grey.
Rgba differenceColor(float v);
// 256 entries from -1 to 1, for the scalar bar.
const std::vector<Rgba>& differenceTable();

} // namespace cs::views
