#include "RunTopology.h"

#include "InputError.h"
#include "Presets.h"
#include "TopologyFingerprint.h"

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

std::unique_ptr<TopologyDocument> topologyForRun(std::unique_ptr<TopologyDocument> given,
                                                 const QString& runPath, std::string* note) {
    const RunInfo last = RunReader::runsIn(runPath).back();
    auto recordedOn = [&](const TopologyDocument& d) {
        return d.topology().name == last.topology &&
               topologyFingerprint(d.topology()) == last.fingerprint;
    };
    if (given && recordedOn(*given)) return given;
    std::unique_ptr<TopologyDocument> stored = topologyOfRun(last);
    if (stored && recordedOn(*stored)) {
        if (note && given)
            *note = "the run was recorded on " +
                    (given->topology().name == last.topology
                         ? "another design of \"" + last.topology + "\" than the one given"
                         : "\"" + last.topology + "\", not on the topology given (\"" +
                               given->topology().name + "\")") +
                    ": replaying it on the design stored with it";
        else if (note)
            *note = "replaying the run on the design stored with it (\"" + last.topology + "\")";
        return stored;
    }
    if (given) return given; // the run reader says why it does not fit
    throw InputException({runPath.toStdString(),
                          0,
                          0,
                          {},
                          "the store keeps no design of its run and no preset is named \"" +
                              last.topology +
                              "\": give the run's topology (--preset NAME or FILE)"});
}

} // namespace cs
