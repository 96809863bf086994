#pragma once
// The mapping file of an import (--map MAP.json): how the telemetry names what the topology
// names otherwise.
// {"names": {"gpu-node-17": "demo.pod0.rack0.host3"},        exact renames
//  "patterns": [["gpu-node-(\\d+)", "demo.pod0.rack0.host\\1"]], tried in order after names
//  "hostLabel": "node",                                       the one label naming the host
//  "uuids": {"GPU-1234": "demo.pod0.rack0.host0.gpu5"},       GPUs by their UUID
//  "devices": {"mlx5_9": 2},                                  NIC devices to their rail
//  "ports": {"Ethernet1/17": 17}}                             switch interfaces to their port
#include <QByteArray>
#include <QRegularExpression>
#include <QString>

#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace cs {

struct SeriesMapping {
    std::unordered_map<std::string, std::string> names;           // telemetry name -> topology id
    std::vector<std::pair<QRegularExpression, QString>> patterns; // whole-name match, replacement
    std::string hostLabel; // empty: the usual host labels, in their order
    std::unordered_map<std::string, std::string> uuids; // GPU UUID -> topology id
    std::unordered_map<std::string, int> devices;       // NIC device -> rail
    std::unordered_map<std::string, int> ports;         // switch interface -> port number
};

// Throws InputException naming the file, line, column and field, and what was expected.
SeriesMapping parseSeriesMapping(const QByteArray& text, const std::string& fileName);
SeriesMapping loadSeriesMapping(const QString& path);

} // namespace cs
