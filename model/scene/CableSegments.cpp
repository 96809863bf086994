#include "CableSegments.h"

#include <array>
#include <cmath>
#include <limits>
#include <unordered_map>

namespace cs {
namespace {

using Key = std::array<long, 6>;

long mm(float metres) {
    return std::lround(double(metres) * 1000.0);
}

// The same key whichever end comes first.
Key keyOf(Vec3 a, Vec3 b) {
    const Key ab{mm(a.x), mm(a.y), mm(a.z), mm(b.x), mm(b.y), mm(b.z)};
    const Key ba{ab[3], ab[4], ab[5], ab[0], ab[1], ab[2]};
    return std::min(ab, ba);
}

struct KeyHash {
    size_t operator()(const Key& k) const {
        size_t h = 1469598103934665603ull;
        for (long v : k)
            h = (h ^ size_t(v)) * 1099511628211ull;
        return h;
    }
};

} // namespace

CableSegments cableSegments(const SceneLayout& L, const std::vector<int32_t>& links) {
    CableSegments s;
    std::unordered_map<Key, int32_t, KeyHash> segmentOf;
    std::vector<int32_t> segmentOfEntry, linkOfEntry;
    for (int32_t l : links) {
        const CablePath p = linkPath(L, l);
        for (int i = 0; i + 1 < p.count; ++i) {
            const Vec3 a = p.points[size_t(i)], b = p.points[size_t(i + 1)];
            const Key k = keyOf(a, b);
            if (k[0] == k[3] && k[1] == k[4] && k[2] == k[5]) continue;
            const auto [it, fresh] = segmentOf.try_emplace(k, int32_t(s.a.size()));
            if (fresh) {
                s.a.push_back(a);
                s.b.push_back(b);
            }
            segmentOfEntry.push_back(it->second);
            linkOfEntry.push_back(l);
        }
    }
    // Entries grouped by segment, links in the order given.
    const ChildList entries = ChildList::build(s.a.size(), segmentOfEntry);
    s.links.offsets = entries.offsets;
    s.links.items.reserve(entries.items.size());
    for (int32_t e : entries.items)
        s.links.items.push_back(linkOfEntry[size_t(e)]);
    return s;
}

void hottestPerSegment(const CableSegments& s, const std::vector<float>& linkValues,
                       std::vector<float>& out) {
    out.assign(s.a.size(), std::numeric_limits<float>::quiet_NaN());
    for (size_t k = 0; k < s.a.size(); ++k)
        for (int32_t l : s.links.of(int32_t(k))) {
            const float v = size_t(l) < linkValues.size() ? linkValues[size_t(l)]
                                                          : std::numeric_limits<float>::quiet_NaN();
            if (!std::isnan(v) && !(v <= out[k])) out[k] = v;
        }
}

} // namespace cs
