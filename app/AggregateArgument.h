#pragma once
// `--aggregate mean|max|min` of render and movie. Throws UsageError naming the flag.
#include "FrameValues.h"

#include <QString>

namespace cs::app {

Aggregate parseAggregateArgument(const QString& text, const char* flag = "--aggregate");

} // namespace cs::app
