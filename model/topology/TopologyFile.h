#pragma once
// The native topology file (JSON): either generator parameters or the explicit entity and
// link lists. Both forms round-trip exactly. Errors name the file, line, column and field.
#include "InputError.h"
#include "SiteParams.h"
#include "Topology.h"

#include <QByteArray>
#include <QString>

#include <optional>

namespace cs {

constexpr const char* kTopologyFormat = "clusterscope-topology";
constexpr int kTopologyFormatVersion = 1;
constexpr qint64 kMaxTopologyFileBytes = 256LL * 1024 * 1024; // 10x meta-both explicit fits

struct LoadedTopology {
    Topology topology;
    std::optional<SiteParams> params; // set when the file holds generator parameters
};

// Both throw InputException; `fileName` is only used in messages. Generator parameters may
// ask for at most maxGpus GPUs (fuzzing asks for fewer: a small file cannot then cost seconds).
LoadedTopology loadTopologyFile(const QString& path);
LoadedTopology parseTopologyText(const QByteArray& text, const std::string& fileName,
                                 long long maxGpus = kMaxGpus);

QByteArray explicitTopologyDocument(const Topology& t);
QByteArray paramsTopologyDocument(const std::string& name, const SiteParams& p);
// Writes atomically (temporary file, then rename): a failed save leaves the old file intact.
// Throws std::runtime_error naming the file on I/O errors.
void writeFileAtomically(const QString& path, const QByteArray& bytes);

} // namespace cs
