#include "FrameDifference.h"

#include "MetricCatalogue.h"

#include <unordered_map>

namespace cs {
namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

float at(const std::vector<float>& v, int32_t i) {
    return i >= 0 && size_t(i) < v.size() ? v[size_t(i)] : kNaN;
}

// Index in B of each A entity of a kind, by id.
std::vector<int32_t> byId(const Topology& a, const Topology& b, EntityKind kind) {
    std::unordered_map<std::string, int32_t> ids;
    for (int32_t i = 0; i < int32_t(b.count(kind)); ++i)
        ids.emplace(b.nameOf({kind, i}), i);
    std::vector<int32_t> out(a.count(kind), kNone);
    for (int32_t i = 0; i < int32_t(a.count(kind)); ++i)
        if (const auto it = ids.find(a.nameOf({kind, i})); it != ids.end())
            out[size_t(i)] = it->second;
    return out;
}

// A link's key: its ends' ids and its rank among the links joining them.
std::vector<std::string> linkKeys(const Topology& t) {
    std::unordered_map<std::string, int> seen;
    std::vector<std::string> keys(t.links.size());
    for (size_t l = 0; l < t.links.size(); ++l) {
        const std::string ends = t.nameOf(t.links[l].a) + "|" + t.nameOf(t.links[l].b);
        keys[l] = ends + "|" + std::to_string(seen[ends]++);
    }
    return keys;
}

size_t matched(const std::vector<int32_t>& v) {
    size_t n = 0;
    for (int32_t x : v)
        n += x != kNone;
    return n;
}

// The mean of finite values per group (group kNone: left out).
std::vector<double> groupMeans(const std::vector<float>& v, const std::vector<int32_t>& groupOf,
                               size_t groups) {
    std::vector<double> sum(groups, 0), n(groups, 0);
    for (size_t i = 0; i < v.size() && i < groupOf.size(); ++i)
        if (groupOf[i] >= 0 && !std::isnan(v[i]))
            sum[size_t(groupOf[i])] += v[i], ++n[size_t(groupOf[i])];
    for (size_t g = 0; g < groups; ++g)
        sum[g] = n[g] > 0 ? sum[g] / n[g] : std::nan("");
    return sum;
}

// Each GPU's pod (kNone: a rack outside pods).
std::vector<int32_t> podOfGpus(const Topology& t) {
    std::vector<int32_t> pod(t.gpus.size(), kNone);
    for (size_t g = 0; g < t.gpus.size(); ++g) {
        const int32_t row = t.racks[size_t(t.hosts[size_t(t.gpus[g].host)].rack)].row;
        if (row != kNone) pod[g] = t.rows[size_t(row)].pod;
    }
    return pod;
}

std::vector<int32_t> tierOfLinks(const Topology& t) {
    std::vector<int32_t> tier(t.links.size());
    for (size_t l = 0; l < t.links.size(); ++l)
        tier[l] = tierOfLink(t, int32_t(l));
    return tier;
}

} // namespace

EntityMatch matchEntities(const Topology& a, const Topology& b) {
    EntityMatch m;
    m.gpu = byId(a, b, EntityKind::Gpu);
    m.storage = byId(a, b, EntityKind::Storage);
    std::unordered_map<std::string, int32_t> linkOfKey;
    const std::vector<std::string> keysB = linkKeys(b);
    for (size_t l = 0; l < keysB.size(); ++l)
        linkOfKey.emplace(keysB[l], int32_t(l));
    const std::vector<std::string> keysA = linkKeys(a);
    m.link.assign(a.links.size(), kNone);
    for (size_t l = 0; l < keysA.size(); ++l)
        if (const auto it = linkOfKey.find(keysA[l]); it != linkOfKey.end()) m.link[l] = it->second;
    m.byName =
        matched(m.gpu) >= a.gpus.size() * 9 / 10 && matched(m.link) >= a.links.size() * 9 / 10;
    return m;
}

FrameValues frameDifference(const Topology& a, const FrameValues& va, const Topology& b,
                            const FrameValues& vb, const EntityMatch& m) {
    FrameValues d;
    if (m.byName) {
        auto diff = [](const std::vector<float>& x, const std::vector<float>& y,
                       const std::vector<int32_t>& match, size_t count) {
            std::vector<float> out(count, kNaN);
            for (size_t i = 0; i < count; ++i)
                out[i] = at(x, int32_t(i)) - at(y, i < match.size() ? match[i] : kNone);
            return out;
        };
        d.gpu = diff(va.gpu, vb.gpu, m.gpu, a.gpus.size());
        d.link = diff(va.link, vb.link, m.link, a.links.size());
        d.storage = diff(va.storage, vb.storage, m.storage, a.storage.size());
        return d;
    }
    // By pod and tier: each of A's GPUs shows its pod's mean minus the same pod's of B.
    const std::vector<int32_t> podA = podOfGpus(a), podB = podOfGpus(b);
    const size_t pods = std::max(a.pods.size(), b.pods.size());
    const std::vector<double> meanA = groupMeans(va.gpu, podA, pods),
                              meanB = groupMeans(vb.gpu, podB, pods);
    d.gpu.resize(a.gpus.size());
    for (size_t g = 0; g < a.gpus.size(); ++g)
        d.gpu[g] = podA[g] == kNone ? kNaN : float(meanA[size_t(podA[g])] - meanB[size_t(podA[g])]);
    const std::vector<int32_t> tierA = tierOfLinks(a), tierB = tierOfLinks(b);
    const std::vector<double> tA = groupMeans(va.link, tierA, kTierCount),
                              tB = groupMeans(vb.link, tierB, kTierCount);
    d.link.assign(a.links.size(), kNaN);
    for (size_t l = 0; l < a.links.size(); ++l)
        if (tierA[l] >= 0) d.link[l] = float(tA[size_t(tierA[l])] - tB[size_t(tierA[l])]);
    d.storage.assign(a.storage.size(), kNaN);
    return d;
}

} // namespace cs
