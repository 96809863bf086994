#pragma once
// Parts of the fabric that are down or slowed: `"fabric": {"failed": [ids], "degraded": {id:
// fraction}}` in run files and design (parameters) files, --fail and --degrade on the command
// line, the Design dock's and the simulation dialog's fault boxes. Ids are as the search box
// takes them: an entity's id, a link as "<end a> -- <end b>". Applying them: FabricFaults.h.
#include <QJsonObject>

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

// The run file's "fabric" object, read with every field checked, and written back.
FabricFaults fabricFaultsOfJson(JsonObjectReader r);
QJsonObject fabricFaultsToJson(const FabricFaults& faults);
// One --degrade ID=FRACTION; throws InputException naming the flag.
std::pair<std::string, double> parseDegradeFlag(const std::string& text);

// A design's faults and a run's together: the run's degradation wins for a part both name.
FabricFaults mergedFaults(const FabricFaults& design, const FabricFaults& run);

} // namespace cs
