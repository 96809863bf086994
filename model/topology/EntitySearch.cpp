#include "EntitySearch.h"

#include <algorithm>
#include <cctype>

namespace cs {
namespace {

std::string trimmed(const std::string& s) {
    const size_t a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t");
    return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
}

std::optional<long long> gpuNumber(std::string s) {
    std::string lower = s;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    if (lower.rfind("gpu", 0) == 0)
        s = trimmed(s.substr(3));
    else if (!s.empty() && s[0] == '#')
        s = s.substr(1);
    if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string::npos)
        return std::nullopt;
    return std::stoll(s);
}

bool endsWithPart(const std::string& id, const std::string& tail) {
    return id.size() > tail.size() && id.compare(id.size() - tail.size(), tail.size(), tail) == 0 &&
           id[id.size() - tail.size() - 1] == '.';
}

template <typename V> std::optional<int32_t> bySuffix(const V& v, const std::string& tail) {
    for (size_t i = 0; i < v.size(); ++i)
        if (endsWithPart(v[i].name, tail)) return int32_t(i);
    return std::nullopt;
}

} // namespace

std::optional<Endpoint> findEntity(const TopologyDocument& doc, const std::string& text) {
    const std::string s = trimmed(text);
    if (s.empty() || s.size() > 512) return std::nullopt;
    if (auto e = doc.index().find(s)) return e;
    const Topology& t = doc.topology();
    // A link by its name as the inspector shows it: "<end a> -- <end b>" (either way round).
    if (const size_t dash = s.find(" -- "); dash != std::string::npos) {
        const auto a = doc.index().find(trimmed(s.substr(0, dash)));
        const auto b = doc.index().find(trimmed(s.substr(dash + 4)));
        if (!a || !b) return std::nullopt;
        for (size_t l = 0; l < t.links.size(); ++l)
            if ((t.links[l].a == *a && t.links[l].b == *b) ||
                (t.links[l].a == *b && t.links[l].b == *a))
                return Endpoint{EntityKind::Link, int32_t(l)};
        return std::nullopt;
    }
    if (auto n = gpuNumber(s)) {
        if (*n < (long long)t.gpus.size()) return Endpoint{EntityKind::Gpu, int32_t(*n)};
        return std::nullopt;
    }
    // GPUs by suffix: "<host suffix>.gpuK".
    const size_t dot = s.rfind(".gpu");
    if (dot != std::string::npos)
        if (auto h = bySuffix(t.hosts, s.substr(0, dot)))
            return doc.index().find(t.hosts[size_t(*h)].name + s.substr(dot));
    if (auto i = bySuffix(t.hosts, s)) return Endpoint{EntityKind::Host, *i};
    if (auto i = bySuffix(t.switches, s)) return Endpoint{EntityKind::Switch, *i};
    if (auto i = bySuffix(t.racks, s)) return Endpoint{EntityKind::Rack, *i};
    if (auto i = bySuffix(t.pods, s)) return Endpoint{EntityKind::Pod, *i};
    if (auto i = bySuffix(t.storage, s)) return Endpoint{EntityKind::Storage, *i};
    return std::nullopt;
}

} // namespace cs
