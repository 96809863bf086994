#pragma once
// Parts of the fabric that are down or slowed for a run: `"fabric": {"failed": [ids],
// "degraded": {id: fraction}}` in run files, --fail and --degrade on the command line. A
// failed link, switch or NIC carries nothing, so routes go around it (FabricRouter skips
// links of 0 Gb/s); a degraded one keeps the fraction of its capacity. Ids are as the search
// box takes them: an entity's id, a link as "<end a> -- <end b>".
#include "TopologyDocument.h"

#include <QJsonObject>
#include <QJsonValue>

#include <string>
#include <utility>
#include <vector>

namespace cs {

class JsonObjectReader;

struct FabricFaults {
    std::vector<std::string> failed;
    std::vector<std::pair<std::string, double>> degraded; // id, fraction of capacity left
    bool empty() const { return failed.empty() && degraded.empty(); }
    bool operator==(const FabricFaults&) const = default;
};

// At most this many ids in each list: a fault list is typed by hand.
constexpr size_t kMaxFaults = 10'000;

// The topology with the faults applied (its entities and their indices unchanged). Throws
// InputException whose field is "fabric.failed[i]" or "fabric.degraded.<id>" for an id that
// names no link, switch or NIC of the topology.
Topology topologyWithFaults(const TopologyDocument& doc, const FabricFaults& faults);
// The links a fault list takes down (every link of a failed switch or NIC), sorted.
std::vector<int32_t> failedLinks(const TopologyDocument& doc, const FabricFaults& faults);

// The run file's "fabric" object, read with every field checked, and written back.
FabricFaults fabricFaultsOfJson(JsonObjectReader r);
QJsonObject fabricFaultsToJson(const FabricFaults& faults);
// One --degrade ID=FRACTION; throws InputException naming the flag.
std::pair<std::string, double> parseDegradeFlag(const std::string& text);

} // namespace cs
