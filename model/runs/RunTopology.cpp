#include "RunTopology.h"

#include "Presets.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace cs {

std::unique_ptr<TopologyDocument> topologyOfRun(const RunInfo& run) {
    const QJsonObject summary =
        QJsonDocument::fromJson(QByteArray::fromStdString(run.summaryJson)).object();
    if (summary.value("design").isObject()) {
        const QByteArray text = QJsonDocument(summary.value("design").toObject()).toJson();
        LoadedTopology loaded =
            parseTopologyText(text, "the design stored with run " + std::to_string(run.run));
        return std::make_unique<TopologyDocument>(std::move(loaded),
                                                  "design of run " + std::to_string(run.run));
    }
    if (presetParams(run.topology)) return openTopology(run.topology, {});
    return nullptr;
}

} // namespace cs
