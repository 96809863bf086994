#include "CableLengths.h"

#include "CableRoutes.h"

#include <array>
#include <cmath>

namespace cs {

std::optional<CableKind> cableKindOf(LinkMedium m) {
    if (m == LinkMedium::CopperDac) return CableKind::Dac;
    if (m == LinkMedium::Fibre) return CableKind::Fibre;
    return std::nullopt;
}

std::vector<float> cableLengthsM(const Topology& t, const TopologyIndex& index) {
    const SceneLayout floor = computeLayout(t, index, LayoutKind::Floor);
    std::vector<float> out(t.links.size(), 0.f);
    for (size_t l = 0; l < t.links.size(); ++l) {
        if (!cableKindOf(t.links[l].medium)) continue;
        const CablePath p = linkPath(floor, int32_t(l));
        float length = 0;
        for (int i = 1; i < p.count; ++i)
            length += (p.points[size_t(i)] - p.points[size_t(i - 1)]).length();
        out[l] = length;
    }
    return out;
}

double lengthClassM(double lengthM) {
    static constexpr std::array<double, 20> kStandard{
        0.5, 1, 1.5, 2, 2.5, 3, 5, 7, 10, 15, 20, 30, 50, 70, 100, 150, 200, 300, 500, 1000};
    for (double s : kStandard)
        if (lengthM <= s) return s;
    return std::ceil(lengthM / 100) * 100;
}

} // namespace cs
