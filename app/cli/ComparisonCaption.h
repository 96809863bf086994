#pragma once
// The words on two runs side by side (render --compare, movie --compare): each view's title,
// "A: NAME" and "B: NAME" after its design, and the caption under them, the figures that
// differ between the runs and their designs (RunComparison.h's differencesCaption).
#include "RunReader.h"
#include "TopologyDocument.h"

#include <QString>

namespace cs::app {

QString comparisonCaption(const TopologyDocument& docA, const RunInfo& runA,
                          const TopologyDocument& docB, const RunInfo& runB);
// "A: meta-roce-24k" for side 'A' and its design.
QString sideTitle(char side, const TopologyDocument& doc);

} // namespace cs::app
