#pragma once
// The derived figures as one JSON object (the `stats --json` output) and as a text table.
#include "TopologyStats.h"

#include <QJsonObject>
#include <string>

namespace cs {

QJsonObject statsToJson(const Topology& t, const TopologyStats& s);
std::string statsToText(const Topology& t, const TopologyStats& s);

} // namespace cs
