#pragma once
// What the inspector shows about one entity: label/value pairs derived from the topology.
#include "TopologyDocument.h"

#include <string>
#include <utility>
#include <vector>

namespace cs {

using PropertyList = std::vector<std::pair<std::string, std::string>>;

PropertyList entityProperties(const TopologyDocument& doc, Endpoint e);
// "1,234"
std::string groupDigits(long long v);
// "400 Gb/s", "3.6 Tb/s"
std::string formatGbps(double gbps);

} // namespace cs
