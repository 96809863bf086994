#pragma once
// The topology a command that replays a stored run (frame, movie, render --run) opens: the one
// given (--preset NAME or FILE, with --set) when the run was recorded on it; else, or when
// none is given, the design the store keeps with the run (RunTopology.h), said on stderr.
#include "CommandArgs.h"
#include "TopologyDocument.h"

#include <memory>

namespace cs::app {

// `file`: the topology file among the positionals, empty when none was given.
std::unique_ptr<TopologyDocument> topologyOfRunArgs(const CommandArgs& a, const QString& file,
                                                    const QString& runPath);
// A run's own design, as a second run beside the first is shown (--compare).
std::unique_ptr<TopologyDocument> topologyOfRunArgs(const QString& runPath);

} // namespace cs::app
