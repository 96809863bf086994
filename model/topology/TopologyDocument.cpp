#include "TopologyDocument.h"

#include "FabricFaults.h"

#include "DesignSets.h"
#include "Presets.h"
#include "SiteGenerator.h"
#include "TopologyFile.h"

#include <QString>

namespace cs {

TopologyDocument::TopologyDocument(Topology t, std::optional<SiteParams> params, std::string source)
    : topology_(std::make_unique<Topology>(std::move(t))), index_(*topology_),
      params_(std::move(params)), source_(std::move(source)) {}

TopologyDocument::TopologyDocument(LoadedTopology loaded, std::string source)
    : TopologyDocument(std::move(loaded.topology), std::move(loaded.params), std::move(source)) {
    format_ = loaded.format;
    inferred_ = std::move(loaded.inferred);
}

void TopologyDocument::rename(std::string name, std::string description, std::string source) {
    topology_->name = std::move(name);
    topology_->description = std::move(description);
    source_ = std::move(source);
}

const TopologyStats& TopologyDocument::stats() const {
    if (!stats_) stats_ = computeStats(*topology_);
    return *stats_;
}

std::unique_ptr<TopologyDocument> openTopology(const std::string& presetName,
                                               const std::string& filePath,
                                               const TopologyReadOptions& o) {
    if (!presetName.empty()) {
        if (!o.nodeNameMap.empty() || !o.structureFile.empty())
            throw InputException({"preset:" + presetName,
                                  0,
                                  0,
                                  {},
                                  "--node-name-map and --structure apply to fabric files, not "
                                  "presets"});
        if (o.sets.empty())
            return std::make_unique<TopologyDocument>(
                generatePreset(presetName), presetParams(presetName), "preset:" + presetName);
        std::optional<SiteParams> p = presetParams(presetName);
        if (!p) generatePreset(presetName); // refuses the unknown name with the presets
        applyDesignSets(*p, o.sets);
        checkDesignWithSets(*p, "preset:" + presetName);
        Topology t = generateSite(*p);
        t.name = designVariantName(presetName, *p, o.sets);
        return std::make_unique<TopologyDocument>(std::move(t), std::move(p),
                                                  "preset:" + presetName);
    }
    auto doc = std::make_unique<TopologyDocument>(
        loadTopologyFile(QString::fromStdString(filePath), o), filePath);
    // A design's faults must name parts of the site it generates.
    if (doc->params() && !doc->params()->faults.empty()) try {
            checkFaultIds(*doc, doc->params()->faults);
        } catch (const InputException& e) {
            InputError error = e.error();
            error.file = filePath;
            throw InputException(error);
        }
    return doc;
}

} // namespace cs
