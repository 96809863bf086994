#pragma once
// Writers of a topology for other tools: graph tools (GraphML, Graphviz DOT), an inventory
// (NetBox bulk-import CSV files) and the fabric formats the importer reads (ibnetdiscover,
// InfraGraph, NetworkX node-link JSON, SimAI / ASTRA-sim ns-3), so that a ClusterScope
// design can be taken to a packet simulator and back. The four fabric formats carry the
// backend fabric only (hosts, their backend NICs, the backend switches and links): they have
// no frontend or storage network.
#include "Topology.h"

#include "EnumNames.h"

#include <QByteArray>

#include <map>
#include <string>

namespace cs {

enum class ExportFormat : uint8_t {
    GraphML,
    Dot,
    NetBox,
    IbNetDiscover,
    InfraGraph,
    NetworkX,
    Ns3
};

inline constexpr EnumNames kExportFormatNames{std::to_array<EnumName<ExportFormat>>({
    {ExportFormat::GraphML, "graphml", "GraphML"},
    {ExportFormat::Dot, "dot", "Graphviz DOT"},
    {ExportFormat::NetBox, "netbox", "NetBox CSV"},
    {ExportFormat::IbNetDiscover, "ibnetdiscover", "ibnetdiscover"},
    {ExportFormat::InfraGraph, "infragraph", "InfraGraph"},
    {ExportFormat::NetworkX, "networkx", "NetworkX JSON"},
    {ExportFormat::Ns3, "ns3", "ns-3 topology"},
})};

QByteArray graphmlDocument(const Topology& t);
QByteArray dotDocument(const Topology& t);
// File name ("sites.csv", ...) -> content, in the order NetBox imports them.
std::vector<std::pair<std::string, QByteArray>> netboxCsvFiles(const Topology& t);
QByteArray ibnetdiscoverDocument(const Topology& t);
QByteArray infragraphDocument(const Topology& t);
QByteArray networkxDocument(const Topology& t);
// Throws std::invalid_argument when hosts differ in GPU count (the format has one per server).
QByteArray ns3Document(const Topology& t);
// The one-file formats by name (NetBox is a set of files: std::invalid_argument).
QByteArray exportDocument(ExportFormat f, const Topology& t);

} // namespace cs
