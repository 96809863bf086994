#include "ComposedTraffic.h"

#include "MetricCatalogue.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace cs {

void composeLinkFrame(const Topology& t, const ComposedTraffic& c,
                      const std::vector<float>& weights, std::vector<float>& out) {
    std::vector<float> direction(2 * t.links.size(), 0.f);
    for (size_t s = 0; s < c.sources.size() && s < weights.size(); ++s) {
        const float w = weights[s];
        if (w <= 0) continue;
        for (const auto& [slot, rate] : c.sources[s].rates)
            if (slot < direction.size()) direction[slot] += w * rate;
    }
    out.resize(t.links.size());
    for (size_t l = 0; l < t.links.size(); ++l) {
        const auto cap = float(capacityOf(Metric::LinkBytesPerS, t, int32_t(l)));
        out[l] = std::max(std::min(direction[2 * l], cap), std::min(direction[2 * l + 1], cap));
    }
    for (uint32_t l : c.noData)
        if (l < out.size()) out[l] = std::numeric_limits<float>::quiet_NaN();
}

void composeEntityFrame(size_t entities, const ComposedTraffic& c,
                        const std::vector<float>& weights, std::vector<float>& out) {
    out.assign(entities, 0.f);
    for (size_t s = 0; s < c.sources.size() && s < weights.size(); ++s) {
        const float w = weights[s];
        if (w == 0) continue;
        for (const auto& [slot, rate] : c.sources[s].rates)
            if (slot < entities) out[slot] += w * rate;
    }
    for (uint32_t e : c.noData)
        if (e < out.size()) out[e] = std::numeric_limits<float>::quiet_NaN();
}

std::vector<float> ratesOfEntity(const ComposedTraffic& c, uint32_t entity) {
    std::vector<float> out;
    for (const TrafficSource& s : c.sources) {
        const auto it = std::lower_bound(s.rates.begin(), s.rates.end(), entity,
                                         [](const auto& p, uint32_t v) { return p.first < v; });
        out.push_back(it != s.rates.end() && it->first == entity ? it->second : 0.f);
    }
    return out;
}

float composedEntityValue(const std::vector<float>& perSourceRates,
                          const std::vector<float>& weights, bool noData) {
    if (noData) return std::numeric_limits<float>::quiet_NaN();
    float v = 0;
    for (size_t s = 0; s < perSourceRates.size() && s < weights.size(); ++s)
        v += weights[s] * perSourceRates[s];
    return v;
}

std::vector<std::pair<float, float>> ratesOfLink(const ComposedTraffic& c, uint32_t link) {
    std::vector<std::pair<float, float>> out;
    for (const TrafficSource& s : c.sources) {
        auto at = [&](uint32_t slot) {
            const auto it = std::lower_bound(s.rates.begin(), s.rates.end(), slot,
                                             [](const auto& p, uint32_t v) { return p.first < v; });
            return it != s.rates.end() && it->first == slot ? it->second : 0.f;
        };
        out.emplace_back(at(2 * link), at(2 * link + 1));
    }
    return out;
}

float composedLinkValue(const Topology& t, const ComposedTraffic&,
                        const std::vector<std::pair<float, float>>& perSourceRates,
                        const std::vector<float>& weights, bool noData, uint32_t link) {
    if (noData) return std::numeric_limits<float>::quiet_NaN();
    float ab = 0, ba = 0;
    for (size_t s = 0; s < perSourceRates.size() && s < weights.size(); ++s) {
        ab += weights[s] * perSourceRates[s].first;
        ba += weights[s] * perSourceRates[s].second;
    }
    const auto cap = float(capacityOf(Metric::LinkBytesPerS, t, int32_t(link)));
    return std::max(std::min(ab, cap), std::min(ba, cap));
}

} // namespace cs
