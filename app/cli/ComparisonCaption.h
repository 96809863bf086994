#pragma once
// The caption under two runs side by side (render --compare, movie --compare): the figures
// that differ between them and their designs (RunComparison.h's differencesCaption).
#include "RunReader.h"
#include "TopologyDocument.h"

#include <QString>

namespace cs::app {

QString comparisonCaption(const TopologyDocument& docA, const RunInfo& runA,
                          const TopologyDocument& docB, const RunInfo& runB);

} // namespace cs::app
