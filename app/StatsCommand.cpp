// `clusterscope stats`: the derived figures of a topology, as text or one JSON object.
#include "CommandArgs.h"
#include "CommandLine.h"
#include "TopologyDocument.h"
#include "TopologyStatsJson.h"

#include <QJsonDocument>

#include <cstdio>

namespace cs::app {

int statsCommand(const QStringList& args) {
    const CommandArgs a(args, {"--preset"}, {"--json"}, 1);
    const TopologySourceArgs src = topologySource(a);
    const auto doc = openTopology(src.preset, src.file);
    if (a.flag("--json")) {
        const QByteArray json = QJsonDocument(statsToJson(doc->topology(), doc->stats()))
                                    .toJson(QJsonDocument::Compact);
        std::fwrite(json.constData(), 1, size_t(json.size()), stdout);
        std::fputc('\n', stdout);
    } else {
        std::fputs(statsToText(doc->topology(), doc->stats()).c_str(), stdout);
    }
    return kExitOk;
}

} // namespace cs::app
