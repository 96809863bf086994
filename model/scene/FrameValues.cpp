#include "FrameValues.h"

#include <algorithm>
#include <limits>

namespace cs {
namespace {

struct Accumulator {
    Aggregate mode;
    float sum = 0, max = -std::numeric_limits<float>::infinity(),
          min = std::numeric_limits<float>::infinity();
    int n = 0;
    void add(float v) {
        if (std::isnan(v)) return;
        sum += v;
        max = std::max(max, v);
        min = std::min(min, v);
        ++n;
    }
    float result() const {
        if (n == 0) return std::numeric_limits<float>::quiet_NaN();
        switch (mode) {
        case Aggregate::Max:
            return max;
        case Aggregate::Min:
            return min;
        case Aggregate::Mean:
            break;
        }
        return sum / float(n);
    }
};

} // namespace

void aggregateRacks(const Topology& t, const FrameValues& v, Aggregate a, std::vector<float>& out) {
    std::vector<Accumulator> acc(t.racks.size(), Accumulator{a});
    if (v.gpu.size() == t.gpus.size())
        for (size_t g = 0; g < t.gpus.size(); ++g)
            acc[size_t(t.hosts[size_t(t.gpus[g].host)].rack)].add(v.gpu[g]);
    if (v.storage.size() == t.storage.size())
        for (size_t s = 0; s < t.storage.size(); ++s)
            if (t.storage[s].rack != kNone) acc[size_t(t.storage[s].rack)].add(v.storage[s]);
    out.resize(t.racks.size());
    for (size_t r = 0; r < acc.size(); ++r)
        out[r] = acc[r].result();
}

void aggregateBundles(const LinkBundles& b, const FrameValues& v, Aggregate a,
                      std::vector<float>& out) {
    const size_t n = b.a.size();
    out.resize(n);
    for (size_t k = 0; k < n; ++k) {
        Accumulator acc{a};
        if (!v.link.empty())
            for (int32_t l : b.members.of(int32_t(k)))
                acc.add(v.link[size_t(l)]);
        out[k] = acc.result();
    }
}

void fillTestPattern(const Topology& t, double timeS, FrameValues& out) {
    const auto phase = float(timeS);
    out.gpu.resize(t.gpus.size());
    for (size_t g = 0; g < t.gpus.size(); ++g)
        out.gpu[g] =
            0.5f + 0.5f * std::sin(phase + float(g) * 0.0021f) * std::cos(float(g % 977) * 0.013f);
    out.link.resize(t.links.size());
    for (size_t l = 0; l < t.links.size(); ++l)
        out.link[l] = 0.5f + 0.5f * std::sin(1.7f * phase + float(l) * 0.0007f);
    out.storage.resize(t.storage.size());
    for (size_t s = 0; s < t.storage.size(); ++s)
        out.storage[s] = 0.5f + 0.5f * std::sin(0.6f * phase + float(s) * 0.05f);
}

void fillLinkSpeed(const Topology& t, FrameValues& out) {
    float fastest = 1;
    for (const Link& l : t.links)
        fastest = std::max(fastest, l.gbps);
    out.link.resize(t.links.size());
    // log scale: 10 Gb/s -> 0 ... fastest -> 1
    const float lo = std::log(10.f), hi = std::log(fastest);
    for (size_t i = 0; i < t.links.size(); ++i)
        out.link[i] =
            hi > lo
                ? std::clamp((std::log(std::max(t.links[i].gbps, 10.f)) - lo) / (hi - lo), 0.f, 1.f)
                : 1.f;
    out.gpu.assign(t.gpus.size(), std::numeric_limits<float>::quiet_NaN());
    out.storage.assign(t.storage.size(), std::numeric_limits<float>::quiet_NaN());
}

FrameValues fractionsOfCapacity(const RunFrame& f, const Topology& t) {
    FrameValues v;
    v.gpu = f.of(Metric::GpuBusy);
    auto scaled = [&](Metric m, std::vector<float>& out) {
        const std::vector<float>& in = f.of(m);
        out.resize(in.size());
        for (size_t i = 0; i < in.size(); ++i)
            out[i] = std::isnan(in[i])
                         ? in[i]
                         : std::clamp(float(in[i] / capacityOf(m, t, int32_t(i))), 0.f, 1.f);
    };
    scaled(Metric::LinkBytesPerS, v.link);
    scaled(Metric::StorageBytesPerS, v.storage);
    return v;
}

} // namespace cs
