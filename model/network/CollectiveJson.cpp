#include "CollectiveJson.h"

#include <QJsonArray>

namespace cs {

QJsonObject collectiveToJson(const BenchResult& r, const LogComparison* log,
                             const std::string& logFile) {
    QJsonObject o{{"format", "clusterscope-collective"},
                  {"op", toString(r.op)},
                  {"ranks", r.ranks},
                  {"nodes", r.nodes},
                  {"gpusPerNode", r.perNode},
                  {"netBusbwGBs", r.netBusGBs},
                  {"perNicGBs", r.perNicGBs},
                  {"avgBusbwGBs", r.avgBusbwGBs}};
    if (r.flows > 0) o["flows"] = r.flows;
    QJsonArray rows;
    for (const BenchRow& x : r.rows) {
        QJsonObject row{{"bytes", x.bytes},
                        {"count", x.count},
                        {"type", "float"},
                        {"timeUs", x.timeUs},
                        {"algbwGBs", x.algbwGBs},
                        {"busbwGBs", x.busbwGBs},
                        {"algorithm", QString::fromStdString(x.algorithm)},
                        {"protocol", QString::fromStdString(x.protocol)}};
        if (x.p50Us >= 0) {
            row["p50Us"] = x.p50Us;
            row["p99Us"] = x.p99Us;
            row["maxUs"] = x.maxUs;
        }
        rows.append(row);
    }
    o["rows"] = rows;
    if (log) {
        QJsonArray lrows;
        for (const LogComparisonRow& x : log->rows)
            lrows.append(QJsonObject{{"bytes", x.bytes},
                                     {"measuredBusbwGBs", x.measuredBusbwGBs},
                                     {"simulatedBusbwGBs", x.simulatedBusbwGBs},
                                     {"errorPct", x.errorPct},
                                     {"measuredTimeUs", x.measuredTimeUs},
                                     {"simulatedTimeUs", x.simulatedTimeUs}});
        o["log"] = QJsonObject{{"file", QString::fromStdString(logFile)},
                               {"fromBytes", log->fromBytes},
                               {"compared", log->compared},
                               {"meanAbsErrorPct", log->meanAbsErrorPct},
                               {"maxAbsErrorPct", log->maxAbsErrorPct},
                               {"rows", lrows}};
    }
    return o;
}

} // namespace cs
