#pragma once
// The derived figures as one JSON object (the `stats --json` output) and as a text table.
#include "FabricInference.h"
#include "TopologyStats.h"

#include <QJsonArray>
#include <QJsonObject>
#include <string>

namespace cs {

QJsonObject statsToJson(const Topology& t, const TopologyStats& s);
std::string statsToText(const Topology& t, const TopologyStats& s);
// What a foreign format did not say: [{"what", "how", "count"}] and a text section
// (empty when nothing was inferred).
QJsonArray inferredToJson(const std::vector<InferredFact>& facts);
std::string inferredToText(const std::vector<InferredFact>& facts);

} // namespace cs
