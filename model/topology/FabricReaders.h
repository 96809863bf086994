#pragma once
// Readers of the fabric descriptions other tools write. Each fills a FabricGraph (hosts,
// switches, links) and throws InputException with the file, line and what was expected.
// The formats and their specifications: docs/reference/formats.md.
#include "FabricGraph.h"

#include <QByteArray>

#include <string>

namespace cs {

struct FabricReadOptions {
    QByteArray nodeNameMap;      // ibnetdiscover: lines `GUID "name"`
    std::string nodeNameMapFile; // for messages
    std::string directory;       // InfraGraph: where device files beside the file are looked for
    long long maxNodes = 2'000'000;
    long long maxLinks = 16'000'000;
};

// ibnetdiscover output (Switch / Ca records) and the ibsim fabric description, its relative.
FabricGraph readIbNetDiscover(const QByteArray& text, const std::string& file,
                              const FabricReadOptions& o = {});
// InfraGraph infrastructure, YAML or JSON: devices (components with counts), instances,
// links with bandwidth, and connections as strings or edges with slices.
FabricGraph readInfraGraph(const QByteArray& text, const std::string& file,
                           const FabricReadOptions& o = {});
// NetworkX node-link JSON: "nodes" with attributes, "links" or "edges".
FabricGraph readNetworkX(const QByteArray& text, const std::string& file,
                         const FabricReadOptions& o = {});
// The SimAI / ASTRA-sim ns-3 text topology.
FabricGraph readNs3Topology(const QByteArray& text, const std::string& file,
                            const FabricReadOptions& o = {});

// Nominal data rate of an InfiniBand link such as "4xNDR" (400), 0 when not one.
double infinibandGbps(std::string_view widthAndSpeed);

} // namespace cs
