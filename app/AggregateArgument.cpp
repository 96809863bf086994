#include "AggregateArgument.h"

#include "CommandArgs.h"

namespace cs::app {

Aggregate parseAggregateArgument(const QString& text, const char* flag) {
    if (const auto a = parseAggregate(text.toStdString())) return *a;
    throw UsageError(std::string(flag) + ": expected " + kAggregateChoices + ", got \"" +
                     text.toStdString() + "\"");
}

} // namespace cs::app
