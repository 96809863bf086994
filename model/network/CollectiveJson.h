#pragma once
// A collective sweep as one JSON object: {"format": "clusterscope-collective", "op", "ranks",
// "nodes", "gpusPerNode", "netBusbwGBs", "perNicGBs", "rows": [{"bytes", "count", "type",
// "timeUs", "algbwGBs", "busbwGBs", "algorithm", "protocol"[, "p50Us", "p99Us", "maxUs"]}],
// "avgBusbwGBs"[, "log": {"file", "fromBytes", "meanAbsErrorPct", "maxAbsErrorPct", "rows":
// [{"bytes", "measuredBusbwGBs", "simulatedBusbwGBs", "errorPct", "measuredTimeUs",
// "simulatedTimeUs"}]}]}.
#include "CollectiveBench.h"

#include <QJsonObject>

namespace cs {

QJsonObject collectiveToJson(const BenchResult& r, const LogComparison* log = nullptr,
                             const std::string& logFile = {});

} // namespace cs
