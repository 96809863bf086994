#pragma once
// Named generator parameter sets: Meta's two 24K Llama 3 clusters, both together, and small
// clusters for demos and tests. Sources: docs/reference/llama3-clusters.md,
// docs/reference/dgx-superpods.md.
#include "SiteParams.h"

#include <optional>
#include <string>
#include <vector>

namespace cs {

struct PresetInfo {
    std::string name;
    std::string description;
};

const std::vector<PresetInfo>& presets();
std::optional<SiteParams> presetParams(const std::string& name);
std::string presetNamesJoined();
// The preset's topology, named after the preset; throws InputException for unknown names.
struct Topology;
Topology generatePreset(const std::string& name); // "a, b, c" for messages
constexpr const char* kDefaultPreset = "meta-roce-24k";

// The building blocks, exposed for tests and for files that start from them.
ClusterParams metaRoceCluster();
ClusterParams metaInfiniBandCluster();

} // namespace cs
