#include "RunTimeArgument.h"

#include "CommandArgs.h"
#include "Duration.h"

#include <QDateTime>
#include <QTimeZone>

#include <limits>

namespace cs::app {

RunTimeArgument parseRunTimeArgument(const QString& text, const char* flag) {
    RunTimeArgument at;
    at.offsetNs = parseDurationNs(text.toStdString());
    if (at.offsetNs) return at;
    // RFC 3339 needs a zone: a time without one would mean different instants on different
    // machines.
    const QDateTime wall = QDateTime::fromString(text, Qt::ISODateWithMs);
    if (wall.isValid() && wall.timeSpec() != Qt::LocalTime) {
        // int64 nanoseconds since the epoch end in April 2262.
        const qint64 ms = wall.toMSecsSinceEpoch();
        if (ms < 0 || ms > std::numeric_limits<int64_t>::max() / 1'000'000)
            throw UsageError(std::string(flag) + ": expected a time from 1970 to 2262, got \"" +
                             text.toStdString() + "\"");
        at.wallNs = ms * 1'000'000;
        return at;
    }
    throw UsageError(std::string(flag) +
                     ": expected an offset such as 0s, 100ms, 90s or 1h30m, or an RFC 3339 "
                     "time such as 2024-06-01T12:00:15Z, got \"" +
                     text.toStdString() + "\"");
}

int64_t resolveRunTime(const RunTimeArgument& at, const RunInfo& run, const std::string& store,
                       const char* flag) {
    if (at.offsetNs) return *at.offsetNs;
    const int64_t startNs = run.wallStartNs;
    if (startNs <= 0)
        throw InputException(
            {store, 0, 0, flag, "this run has no date (a simulated run): give an offset"});
    if (*at.wallNs < startNs || *at.wallNs - startNs > run.endNs)
        throw InputException(
            {store, 0, 0, flag,
             "the run covers " +
                 QDateTime::fromMSecsSinceEpoch(startNs / 1'000'000, QTimeZone::utc())
                     .toString(Qt::ISODateWithMs)
                     .toStdString() +
                 " and the " + formatDuration(run.endNs) + " after it"});
    return *at.wallNs - startNs;
}

} // namespace cs::app
