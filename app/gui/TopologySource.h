#pragma once
// Finding the topology a name stands for: "preset:NAME" or a file, and the topology a stored
// run to compare with was made on.
#include "TopologyDocument.h"

#include <QString>

#include <memory>

class QWidget;

namespace cs::app {

// "preset:NAME" or a file path, as sessions, recent files and the command line name a topology.
std::unique_ptr<TopologyDocument> openTopologySource(const QString& source,
                                                     const TopologyReadOptions& read);

// The topology of the newest run in `runPath`: `topology` when given, else the design the store
// keeps or the preset it names, else `open` again when the run was made on it (read as
// `openRead`), else one the user picks in a dialog over `ask` (none: not asked). Null when the
// user cancelled; throws InputException when none is found.
std::unique_ptr<TopologyDocument>
comparedRunTopology(const QString& runPath, const QString& topology, const TopologyDocument& open,
                    const TopologyReadOptions& openRead, QWidget* ask);

} // namespace cs::app
