#include "SiteParamsFixes.h"

#include "DesignFields.h"
#include "SiteGenerator.h"

#include <set>

namespace cs {
namespace {

// A search stops after this many values: a fix that far away is no small change, and a
// hostile file must not make the check slow.
constexpr long long kMaxSteps = 4096;

long long gpusOf(const ClusterParams& c) {
    return 1LL * c.pods * c.racksPerPod * c.hostsPerRack * c.gpusPerHost;
}

// The cluster alone in a valid site, so that only its own problems count.
SiteParams probeSite(const ClusterParams& c) {
    SiteParams probe;
    probe.name = c.name + "-site";
    probe.clusters = {c};
    return probe;
}

struct Probe {
    SiteParams site;
    long long otherGpus = 0;
    bool fits() const {
        return !checkSiteParams(site, "generator", false) &&
               otherGpus + gpusOf(site.clusters[0]) <= kMaxGpus;
    }
};

// The value of `f` nearest to the current one in `direction` with which the probe fits.
std::optional<long long> nearestFitting(Probe& probe, const DesignField& f, int direction) {
    const long long current = std::get<long long>(f.get(probe.site, 0));
    auto fitsWith = [&](long long v) {
        f.set(probe.site, 0, v);
        return probe.fits();
    };
    // More ports never hurt: the smallest radix that fits is found by bisection.
    if (f.key.ends_with("Radix") && direction > 0) {
        long long lo = current + 1, hi = (long long)f.max;
        if (lo > hi || !fitsWith(hi)) return std::nullopt;
        while (lo < hi) {
            const long long mid = lo + (hi - lo) / 2;
            if (fitsWith(mid))
                hi = mid;
            else
                lo = mid + 1;
        }
        return lo;
    }
    for (long long v = current + direction, steps = 0;
         v >= (long long)f.min && v <= (long long)f.max && steps < kMaxSteps;
         v += direction, ++steps)
        if (fitsWith(v)) return v;
    return std::nullopt;
}

} // namespace

std::vector<DesignChange> smallestFixes(const SiteParams& p, int cluster,
                                        const std::vector<FixCandidate>& candidates) {
    std::vector<DesignChange> changes;
    long long otherGpus = 0;
    for (size_t i = 0; i < p.clusters.size(); ++i)
        if (int(i) != cluster) otherGpus += gpusOf(p.clusters[i]);
    for (const FixCandidate& c : candidates) {
        const DesignField* f = findDesignField(DesignScope::Cluster, c.field);
        if (!f || f->type != FieldType::Integer) continue;
        Probe probe{probeSite(p.clusters[size_t(cluster)]), otherGpus};
        if (const auto v = nearestFitting(probe, *f, c.direction))
            changes.push_back({designFieldKey(*f, cluster), std::to_string(*v)});
    }
    return changes;
}

DesignChange freeClusterName(const SiteParams& p, int cluster) {
    std::set<std::string> taken{p.name};
    for (const ClusterParams& c : p.clusters)
        taken.insert(c.name);
    const std::string base = p.clusters[size_t(cluster)].name;
    std::string name;
    for (int n = 2; name.empty() || taken.count(name); ++n)
        name = base + std::to_string(n);
    return {designFieldKey(*findDesignField(DesignScope::Cluster, "name"), cluster), name};
}

std::string fixesText(const std::vector<DesignChange>& changes) {
    std::string s;
    for (size_t i = 0; i < changes.size(); ++i)
        s += (i == 0 ? "; smallest changes that fit: " : " or ") + std::string("--set ") +
             changes[i].key + "=" + changes[i].value;
    return s;
}

} // namespace cs
