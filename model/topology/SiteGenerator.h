#pragma once
// Builds a topology from generator parameters: clusters of pods of racks on a Clos backend
// fabric, a frontend network, and the site's storage behind a shared frontend spine.
#include "InputError.h"
#include "SiteParams.h"
#include "Topology.h"

#include <optional>

namespace cs {

// The first problem with the parameters; field is a path below `prefix`. Where fields
// together do not fit (a switch without the ports its links need), the message ends with the
// smallest changes that fit, as --set takes them (SiteParamsFixes.h), unless !suggestFixes.
std::optional<InputError> checkSiteParams(const SiteParams& p,
                                          const std::string& prefix = "generator",
                                          bool suggestFixes = true);
// Throws InputException when checkSiteParams finds a problem.
Topology generateSite(const SiteParams& p);

// Uplinks from one pod to the tier above, rounded to whole links:
// pod injection / (oversubscription x link speed). 3,072 x 400G / (7 x 400G) = 438.9 -> 439.
long long podUplinkCount(const ClusterParams& c);
// Backend leaves of one pod: one per rack, or gpusPerHost per scalable unit (rail wiring).
long long leavesPerPod(const ClusterParams& c);
// NICs under one leaf: a rack's, or one per host of the scalable unit (rail wiring).
long long leafDownlinks(const ClusterParams& c);
// The core switches the generator builds per plane. coresPerPlane > 0: that many. 0: as many
// as the pods' uplinks need and no more: the fewest cores with room for a plane's uplinks
// (coreRadix) that also divide a spine's uplinks evenly (each spine reaches every core alike);
// none for a single pod. So a thinner core tier (a higher oversubscription) has fewer cores.
int coresPerPlaneBuilt(const ClusterParams& c);
// Uplinks of the most loaded spine: the pod's uplinks spread evenly over its spines.
long long uplinksPerSpine(const ClusterParams& c);

} // namespace cs
