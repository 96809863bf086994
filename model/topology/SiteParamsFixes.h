#pragma once
// The smallest changes that make a refused combination of generator parameters fit: when a
// switch runs out of ports, the radix it needs or the number of switches that spreads the
// links thin enough. checkSiteParams appends them to its message, written as --set takes them.
#include "SiteParams.h"

#include <string>
#include <vector>

namespace cs {

// One field's new value: {"generator.clusters[0].coreRadix", "1536"}.
struct DesignChange {
    std::string key;
    std::string value;
};

// A cluster field that may resolve a problem, and the way it moves (+1 more, -1 fewer).
struct FixCandidate {
    const char* field; // a field of ClusterParams in the design table: "coresPerPlane"
    int direction;
};

// For each candidate, the value nearest to the current one, within the field's range, with
// which cluster `cluster` passes every check (its ports, wiring, names) and the site stays
// within kMaxGpus; candidates that cannot fit are left out.
std::vector<DesignChange> smallestFixes(const SiteParams& p, int cluster,
                                        const std::vector<FixCandidate>& candidates);
// A free name for cluster `cluster`: its name with the lowest number that no other name of
// the site has ("roce2").
DesignChange freeClusterName(const SiteParams& p, int cluster);
// "; smallest changes that fit: --set K=V or --set K=V"; empty without changes.
std::string fixesText(const std::vector<DesignChange>& changes);

} // namespace cs
