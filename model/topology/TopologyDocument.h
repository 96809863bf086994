#pragma once
// A loaded topology with its lookups and derived figures, kept together so views share them.
#include "FabricInference.h"
#include "SiteParams.h"
#include "Topology.h"
#include "TopologyFile.h"
#include "TopologyIndex.h"
#include "TopologyStats.h"

#include <memory>
#include <optional>
#include <string>

namespace cs {

class TopologyDocument {
public:
    TopologyDocument(Topology t, std::optional<SiteParams> params, std::string source);
    // A file's topology with its format and what was inferred reading it.
    TopologyDocument(LoadedTopology loaded, std::string source);

    const Topology& topology() const { return *topology_; }
    const TopologyIndex& index() const { return index_; }
    const TopologyStats& stats() const; // computed on first use
    const std::optional<SiteParams>& params() const { return params_; }
    const std::string& source() const { return source_; } // "preset:NAME" or a file path
    TopologyFormat format() const { return format_; }
    const std::vector<InferredFact>& inferred() const { return inferred_; }
    // Save Design As: the design goes by `name` and `description` from now on, read from
    // `source`. Nothing else of the topology changes.
    void rename(std::string name, std::string description, std::string source);

private:
    std::unique_ptr<Topology> topology_; // stable address for index_; rename() alone changes it
    TopologyIndex index_;
    std::optional<SiteParams> params_;
    std::string source_;
    TopologyFormat format_ = TopologyFormat::Native;
    std::vector<InferredFact> inferred_;
    mutable std::optional<TopologyStats> stats_;
};

// "--preset NAME" or a file path, as the command line and the GUI name a topology, with the
// --set changes of `o` applied to the preset's or the file's generator parameters.
// Throws InputException.
std::unique_ptr<TopologyDocument> openTopology(const std::string& presetName,
                                               const std::string& filePath,
                                               const TopologyReadOptions& o = {});

} // namespace cs
