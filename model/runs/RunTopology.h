#pragma once
// The topology a stored run was made on, rebuilt from the store alone: the design kept in the
// run's summary (a simulated run on generator parameters keeps them), else the preset of the
// run's topology name. The run reader's fingerprint check decides whether it is the one.
#include "RunReader.h"
#include "TopologyDocument.h"

#include <memory>

namespace cs {

// nullptr when the store holds no design and no preset has the run's name.
std::unique_ptr<TopologyDocument> topologyOfRun(const RunInfo& run);

} // namespace cs
