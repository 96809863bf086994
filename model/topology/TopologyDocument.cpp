#include "TopologyDocument.h"

#include "Presets.h"
#include "TopologyFile.h"

#include <QString>

namespace cs {

TopologyDocument::TopologyDocument(Topology t, std::optional<SiteParams> params, std::string source)
    : topology_(std::make_unique<const Topology>(std::move(t))), index_(*topology_),
      params_(std::move(params)), source_(std::move(source)) {}

const TopologyStats& TopologyDocument::stats() const {
    if (!stats_) stats_ = computeStats(*topology_);
    return *stats_;
}

std::unique_ptr<TopologyDocument> openTopology(const std::string& presetName,
                                               const std::string& filePath) {
    if (!presetName.empty()) {
        Topology t = generatePreset(presetName);
        return std::make_unique<TopologyDocument>(std::move(t), presetParams(presetName),
                                                  "preset:" + presetName);
    }
    LoadedTopology loaded = loadTopologyFile(QString::fromStdString(filePath));
    return std::make_unique<TopologyDocument>(std::move(loaded.topology), std::move(loaded.params),
                                              filePath);
}

} // namespace cs
