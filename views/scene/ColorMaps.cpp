#include "ColorMaps.h"

#include <algorithm>
#include <cmath>

namespace cs::views {

Rgba kindColor(KindClass k) {
    // Okabe & Ito (2008), "Color Universal Design": distinguishable with common colour-vision
    // deficiencies.
    switch (k) {
    case KindClass::Gpu:
        return {230, 159, 0, 255}; // orange
    case KindClass::Host:
        return {150, 150, 150, 255}; // grey
    case KindClass::ComputeRack:
        return {86, 180, 233, 255}; // sky blue
    case KindClass::NetworkRack:
        return {130, 130, 150, 255};
    case KindClass::StorageRack:
        return {213, 94, 0, 255}; // vermillion
    case KindClass::RackSwitch:
        return {0, 158, 115, 255}; // bluish green
    case KindClass::PodSwitch:
        return {0, 114, 178, 255}; // blue
    case KindClass::CoreSwitch:
        return {204, 121, 167, 255}; // reddish purple
    case KindClass::FrontendSwitch:
        return {240, 228, 66, 255}; // yellow
    case KindClass::Storage:
        return {213, 94, 0, 255}; // vermillion
    case KindClass::BackendLink:
        return {110, 160, 205, 255}; // light blue
    case KindClass::FrontendLink:
        return {200, 190, 90, 255}; // dull yellow
    case KindClass::Nic:
        return {235, 235, 235, 255}; // near white on the grey host
    case KindClass::NvlinkSwitch:
        return {120, 94, 240, 255}; // violet (IBM's accessible palette)
    default:
        return {255, 255, 255, 255};
    }
}

Rgba seriesColor(size_t i) {
    static const Rgba kSeries[] = {{0, 114, 178, 255},  {230, 159, 0, 255},   {0, 158, 115, 255},
                                   {213, 94, 0, 255},   {204, 121, 167, 255}, {86, 180, 233, 255},
                                   {240, 228, 66, 255}, {0, 0, 0, 255}};
    return kSeries[i % std::size(kSeries)];
}

const char* kindLabel(KindClass k) {
    switch (k) {
    case KindClass::Gpu:
        return "GPU";
    case KindClass::Host:
        return "Host";
    case KindClass::ComputeRack:
        return "Compute rack";
    case KindClass::NetworkRack:
        return "Network rack";
    case KindClass::StorageRack:
        return "Storage rack";
    case KindClass::RackSwitch:
        return "Rack switch (RTSW / leaf)";
    case KindClass::PodSwitch:
        return "Pod switch (CTSW / spine)";
    case KindClass::CoreSwitch:
        return "Core switch (ATSW / core)";
    case KindClass::FrontendSwitch:
        return "Frontend / storage switch";
    case KindClass::Storage:
        return "Storage server";
    case KindClass::BackendLink:
        return "Backend link";
    case KindClass::FrontendLink:
        return "Frontend link";
    case KindClass::Nic:
        return "NIC";
    case KindClass::NvlinkSwitch:
        return "NVLink switch tray";
    default:
        return "";
    }
}

KindClass classOf(SwitchRole role) {
    if (networkOf(role) == Network::Frontend) return KindClass::FrontendSwitch;
    switch (tierOf(role)) {
    case 0:
    case 1:
        return KindClass::RackSwitch;
    case 2:
        return KindClass::PodSwitch;
    default:
        return KindClass::CoreSwitch;
    }
}

KindClass classOf(const Switch& s) {
    return s.role == SwitchRole::NvSwitch && s.host == kNone ? KindClass::NvlinkSwitch
                                                             : classOf(s.role);
}

KindClass classOf(RackRole role) {
    switch (role) {
    case RackRole::Compute:
        return KindClass::ComputeRack;
    case RackRole::Network:
        return KindClass::NetworkRack;
    default:
        return KindClass::StorageRack;
    }
}

KindClass classOfLink(const Topology& t, const Link& l) {
    for (Endpoint e : {l.a, l.b}) {
        if (e.kind == EntityKind::Storage) return KindClass::FrontendLink;
        if (e.kind == EntityKind::Nic && t.nics[size_t(e.index)].role == NicRole::Frontend)
            return KindClass::FrontendLink;
        if (e.kind == EntityKind::Switch &&
            networkOf(t.switches[size_t(e.index)].role) == Network::Frontend)
            return KindClass::FrontendLink;
    }
    return KindClass::BackendLink;
}

namespace {
// Viridis (matplotlib, van der Walt & Smith), sampled at 9 stops.
constexpr float kViridis[9][3] = {{68, 1, 84},    {71, 45, 123},  {59, 82, 139},
                                  {44, 114, 142}, {33, 145, 140}, {40, 174, 128},
                                  {94, 201, 98},  {173, 220, 48}, {253, 231, 37}};
} // namespace

namespace {
Rgba viridisAt(float v) {
    const float x = std::clamp(v, 0.f, 1.f) * 8.f;
    const int i = std::min(7, int(x));
    const float f = x - float(i);
    Rgba c{0, 0, 0, 255};
    for (int k = 0; k < 3; ++k)
        c[size_t(k)] = uint8_t(kViridis[i][k] + (kViridis[i + 1][k] - kViridis[i][k]) * f + 0.5f);
    return c;
}

// Every frame colours each GPU, rack, link and segment: a table lookup instead of the
// interpolation, within one level of it.
constexpr int kSteps = ValueColors::kSteps;
const std::array<Rgba, kSteps + 1>& viridisSteps() {
    static const std::array<Rgba, kSteps + 1> steps = [] {
        std::array<Rgba, kSteps + 1> t{};
        for (int i = 0; i <= kSteps; ++i)
            t[size_t(i)] = viridisAt(float(i) / kSteps);
        return t;
    }();
    return steps;
}
} // namespace

ValueColors::ValueColors() : steps_(viridisSteps().data()), noData_(noDataColor()) {}

Rgba valueColor(float v) {
    static const ValueColors colors;
    return colors(v);
}

Rgba noDataColor() {
    return {175, 175, 175, 255};
}
Rgba neutralColor() {
    return {150, 150, 150, 255};
}
Rgba sceneBackground() {
    return {30, 33, 42, 255};
}

const std::vector<Rgba>& valueTable() {
    static const std::vector<Rgba> table = [] {
        std::vector<Rgba> t(256);
        for (int i = 0; i < 256; ++i)
            t[size_t(i)] = viridisAt(float(i) / 255.f);
        return t;
    }();
    return table;
}

Rgba differenceColor(float v) {
    if (std::isnan(v)) return noDataColor();
    // Through a mid grey lighter than "no data", so that 0 reads as "the same", not "unknown".
    constexpr float low[3] = {0, 114, 178}, mid[3] = {225, 225, 225}, high[3] = {213, 94, 0};
    const float x = std::clamp(v, -1.f, 1.f);
    const float* end = x < 0 ? low : high;
    const float f = std::fabs(x);
    Rgba c{0, 0, 0, 255};
    for (size_t i = 0; i < 3; ++i)
        c[i] = uint8_t(std::lround(mid[i] + (end[i] - mid[i]) * f));
    return c;
}

const std::vector<Rgba>& differenceTable() {
    static const std::vector<Rgba> table = [] {
        std::vector<Rgba> t(256);
        for (int i = 0; i < 256; ++i)
            t[size_t(i)] = differenceColor(float(i) / 255.f * 2 - 1);
        return t;
    }();
    return table;
}

} // namespace cs::views
