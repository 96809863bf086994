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

// The topology to replay a store's last run on: `given` when the run was recorded on it;
// else the design the store keeps with the run (a simulated run on generator parameters keeps
// it, --set changes included), which also serves when nothing is given; `note`, when given,
// then says which design was taken. Throws InputException naming the store when neither fits.
std::unique_ptr<TopologyDocument> topologyForRun(std::unique_ptr<TopologyDocument> given,
                                                 const QString& runPath, std::string* note);

} // namespace cs
