#pragma once
// Where a telemetry series lands in a topology, by its metric and labels: DCGM fields on a GPU
// (hostname + GPU index, or its UUID), node_exporter byte counters on a host's NIC cable
// (device), SNMP interface octets on a switch port (switch + interface name). A mapping file
// renames what the telemetry names otherwise.
#include "MetricCatalogue.h"
#include "SeriesMapping.h"
#include "TelemetryParsers.h"
#include "TopologyDocument.h"

#include <optional>
#include <string>
#include <unordered_map>

namespace cs {

// A catalogue metric (none: events only, e.g. XID errors) and an entity index of its kind,
// with the factor to the metric's unit.
struct SeriesTarget {
    std::string metric; // the source's name
    std::optional<Metric> stored;
    EntityKind kind = EntityKind::Gpu;
    int32_t index = kNone;
    double scale = 1;
    bool counter = false; // a counter: its samples become rates
};

class SeriesMapper {
public:
    // Throws InputException for a bad mapping file (SeriesMapping.h); none: mapFile empty.
    SeriesMapper(const TopologyDocument& doc, const QString& mapFile);
    // declaredCounter: the text typed the metric a counter (else its name says so or not).
    // None: `why` (when given) says why the series lands nowhere.
    std::optional<SeriesTarget> map(const std::string& metric, const Labels& labels,
                                    bool declaredCounter, std::string* why = nullptr);

private:
    std::optional<Endpoint> hostOf(const Labels& labels);
    int railOf(const std::string& device) const;
    std::optional<Endpoint> gpuOfUuid(const Labels& labels);
    int portOf(const std::string& name) const;
    std::optional<Endpoint> entity(std::string name, EntityKind kind);

    const TopologyDocument& doc_;
    const SeriesMapping mapping_;
    std::unordered_map<std::string, std::optional<Endpoint>> cache_; // "kind/name" -> entity
};

} // namespace cs
