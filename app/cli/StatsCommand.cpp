// `clusterscope stats`: the derived figures of a topology, as text or one JSON object.
#include "CommandArgs.h"
#include "CommandLine.h"
#include "TopologyDocument.h"
#include "TopologyStatsJson.h"

#include <QJsonDocument>

#include <cstdio>

namespace cs::app {

CommandSpec statsSpec() {
    CommandSpec c{"stats", "(--preset NAME | FILE)",
                  "the figures a topology implies: counts, injection, oversubscription, bisection",
                  topologyOptions(), 1};
    c.options.push_back({"--json", "", "one JSON object instead of text"});
    return c;
}

int statsCommand(const CommandArgs& a) {
    const TopologySourceArgs src = topologySource(a);
    const auto doc = openTopology(src.preset, src.file, src.read);
    if (a.flag("--json")) {
        QJsonObject o = statsToJson(doc->topology(), doc->stats());
        o.insert("format", QString::fromUtf8(topologyFormatName(doc->format()).data(),
                                             qsizetype(topologyFormatName(doc->format()).size())));
        o.insert("inferred", inferredToJson(doc->inferred()));
        const QByteArray json = QJsonDocument(o).toJson(QJsonDocument::Compact);
        std::fwrite(json.constData(), 1, size_t(json.size()), stdout);
        std::fputc('\n', stdout);
    } else {
        std::fputs(statsToText(doc->topology(), doc->stats()).c_str(), stdout);
        std::fputs(inferredToText(doc->inferred()).c_str(), stdout);
    }
    return kExitOk;
}

} // namespace cs::app
