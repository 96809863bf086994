#pragma once
// The native topology file (JSON): either generator parameters or the explicit entity and
// link lists. Both forms round-trip exactly. Errors name the file, line, column and field.
#include "AtomicFileWrite.h"
#include "FabricInference.h"
#include "InputError.h"
#include "SiteParams.h"
#include "Topology.h"
#include "TopologyFormats.h"

#include <QByteArray>
#include <QString>

#include "FabricReaders.h"

#include <optional>
#include <string>
#include <vector>

namespace cs {

constexpr const char* kTopologyFormat = "clusterscope-topology";
constexpr int kTopologyFormatVersion = 1;
constexpr qint64 kMaxTopologyFileBytes = 256LL * 1024 * 1024; // 10x meta-both explicit fits

struct LoadedTopology {
    Topology topology;
    std::optional<SiteParams> params; // set when the file holds generator parameters
    TopologyFormat format = TopologyFormat::Native;
    std::vector<InferredFact> inferred; // what a foreign format did not say (empty for ours)
};

// What reading a file may need besides the file.
struct TopologyReadOptions {
    std::string nodeNameMap;   // ibnetdiscover: a node-name map file (`GUID "name"`)
    std::string structureFile; // the sidecar; empty: FILE.structure.json when it exists
    // --set KEY=VALUE (DesignSets.h), applied to generator parameters before generating;
    // refused for explicit topologies and foreign fabric files, which have none.
    std::vector<std::string> sets;
};

// Both read every format of topologyFormats(), chosen by content, and throw InputException;
// `fileName` is only used in messages. Generator parameters may ask for at most maxGpus GPUs
// (fuzzing asks for fewer: a small file cannot then cost seconds).
LoadedTopology loadTopologyFile(const QString& path, const TopologyReadOptions& o = {});
LoadedTopology parseTopologyText(const QByteArray& text, const std::string& fileName,
                                 long long maxGpus = kMaxGpus);
// A foreign format's text with what the options name already read.
LoadedTopology parseForeignTopology(const QByteArray& text, const std::string& fileName,
                                    TopologyFormat format, const FabricReadOptions& read,
                                    const StructureOverrides& overrides, long long maxGpus);

QByteArray explicitTopologyDocument(const Topology& t);
// No more than explicitTopologyDocument(t) writes (its links' two ends' ids and their keys),
// found without writing it: export refuses up front a file no loader would read.
qint64 explicitTopologyDocumentMinBytes(const Topology& t);
// A design as a parameters file, under `name`, with its `description` when not empty.
QByteArray paramsTopologyDocument(const std::string& name, const SiteParams& p,
                                  const std::string& description = {});

} // namespace cs
