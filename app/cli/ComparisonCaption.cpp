#include "ComparisonCaption.h"

#include "DesignFiguresOf.h"
#include "RunComparison.h"

#include <QJsonDocument>

namespace cs::app {

QString comparisonCaption(const TopologyDocument& docA, const RunInfo& runA,
                          const TopologyDocument& docB, const RunInfo& runB) {
    auto summary = [](const RunInfo& i) {
        return QJsonDocument::fromJson(QByteArray::fromStdString(i.summaryJson)).object();
    };
    return QString::fromStdString(
        differencesCaption(compareRuns(runA.name, summary(runA), runB.name, summary(runB),
                                       designFiguresOf(docA), designFiguresOf(docB))));
}

QString sideTitle(char side, const TopologyDocument& doc) {
    return QString(QChar(side)) + ": " + QString::fromStdString(doc.topology().name);
}

} // namespace cs::app
