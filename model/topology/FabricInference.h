#pragma once
// Turns a FabricGraph into a Topology: hosts with their GPUs and NICs, switch tiers by
// distance from the hosts (leaf, spine, core), pods as the blocks joined below the core
// tier, racks from names when they say so, else one rack per leaf. Nothing is invented
// silently: each fact the graph did not hold is listed as inferred, and a small sidecar file
// (StructureOverrides) can set it instead.
#include "FabricGraph.h"
#include "InputError.h"

#include <QByteArray>

#include <map>
#include <string>
#include <vector>

namespace cs {

// One kind of fact inferred for a whole fabric: what (a field the inspector and
// `stats --json` name), how it was inferred, and for how many entities.
struct InferredFact {
    std::string what; // "fabric", "gpuModel", "gpusPerHost", "switchTiers", "pods", "racks", ...
    std::string how;
    long long count = 0;
    bool operator==(const InferredFact&) const = default;
};

// What the user states instead of letting the importer infer it (the sidecar file).
struct StructureOverrides {
    std::optional<Fabric> fabric;
    std::string gpuModel;
    int gpusPerHost = 0;                    // 0: infer
    double linkGbps = 0;                    // speed of links the format gives none for; 0: infer
    std::map<std::string, int> switchTiers; // switch name -> 1 leaf, 2 spine, 3 core
    std::map<std::string, std::string> hostRacks; // host name -> rack name
    std::string file;                             // where they came from, for messages
};

struct InferredTopology {
    Topology topology;
    std::vector<InferredFact> inferred;
};

// Throws InputException naming the graph's file (and the line, where the graph has one).
InferredTopology inferFabricStructure(const FabricGraph& g, const StructureOverrides& o = {});

// Which inferred facts concern entities of `kind` (for the inspector's "inferred" row).
std::vector<const InferredFact*> inferredFactsFor(const std::vector<InferredFact>& facts,
                                                  EntityKind kind);

// The sidecar: {"fabric", "gpuModel", "gpusPerHost", "linkGbps", "switchTiers": {name: "leaf"
// | "spine" | "core"}, "hostRacks": {host: rack}}. Throws InputException.
StructureOverrides parseStructureOverrides(const QByteArray& text, const std::string& fileName);

} // namespace cs
