#pragma once
// --set FIELD=VALUE: generator parameters changed on the command line, FIELD being the key
// errors name (DesignFields.h): generator.clusters[0].oversubscription=3.
#include "SiteParams.h"

#include <string>
#include <vector>

namespace cs {

// Applies each "KEY=VALUE" in order (a later one wins). Throws InputException whose field is
// "--set KEY=VALUE": for an unknown KEY with the nearest keys of `p`, for a VALUE the field
// does not take with what it expects.
void applyDesignSets(SiteParams& p, const std::vector<std::string>& sets);
// Up to `count` keys of `p`, nearest to `key` first: by edits of the field's name, then of
// the whole key, ignoring case.
std::vector<std::string> nearDesignKeys(const SiteParams& p, const std::string& key,
                                        size_t count = 3);
// checkSiteParams after sets: a refused combination is reported as coming from `origin`
// ("preset:meta-roce-24k", a file) with --set, not from a place in a file.
void checkDesignWithSets(const SiteParams& p, const std::string& origin);
// A design changed by --set named from what changed, so that its runs, renders and
// comparisons say which variant they show: "meta-roce-24k · oversubscription 3"; the key's
// cluster is said where the site has several ("roce oversubscription 3"), the last value of
// a key repeated counts. `base` alone without sets.
std::string designVariantName(const std::string& base, const SiteParams& p,
                              const std::vector<std::string>& sets);

} // namespace cs
