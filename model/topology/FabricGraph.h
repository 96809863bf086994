#pragma once
// A fabric as another tool describes it, before ClusterScope's structure is known: hosts and
// switches joined by links. The readers of foreign formats fill it; inferFabricStructure()
// turns it into a Topology and records every fact it had to infer.
#include "EntityKinds.h"
#include "Topology.h"

#include <optional>
#include <string>
#include <vector>

namespace cs {

enum class GraphNodeKind : uint8_t { Host, Switch };

struct GraphNode {
    std::string name;
    GraphNodeKind kind = GraphNodeKind::Host;
    bool kindInferred = false; // the format did not say; named or placed as one
    int gpus = -1;             // a host's GPUs when the format says; -1: unknown
    std::optional<int> tier;   // a switch's tier when the format says (1 leaf .. 3 core)
    std::string rack, pod;     // when the format says; empty: infer
    int ports = 0;             // a switch's radix when the format says
    std::vector<int> nicGpu;   // a host's port p (from 1) serves GPU nicGpu[p-1]; -1 unknown
    int line = 0;              // where it was declared, for errors
};

struct GraphLink {
    int32_t a = kNone, b = kNone;  // node indices
    uint16_t portA = 0, portB = 0; // from 1; 0: unnumbered. A host's port is one of its NICs.
    float gbps = 0;                // per direction; 0: the format does not say
    float latencyNs = 0;           // 0: the format does not say
    int line = 0;
};

struct FabricGraph {
    std::string name;
    std::string format; // the reader's name for the format, e.g. "ibnetdiscover"
    std::string file;   // for messages
    std::optional<Fabric> fabric;
    std::string gpuModel; // empty: the format does not say
    std::vector<GraphNode> nodes;
    std::vector<GraphLink> links;
    std::vector<std::string> readerNotes; // facts the reader assumed (e.g. a missing device file)
};

} // namespace cs
