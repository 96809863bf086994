// `clusterscope simulate-cluster`: a workload of many jobs on one cluster, scheduled and run
// on the fabric they share; per job its wait, its step time against the same job alone, and
// the links where it met others.
#include "ClusterRunJson.h"
#include "ClusterRunRecorder.h"
#include "CommandArgs.h"
#include "CommandLine.h"
#include "Duration.h"
#include "NewStoreFile.h"
#include "TerminalProgress.h"
#include "TopologyDocument.h"
#include "Workload.h"

#include <QFileInfo>
#include <QJsonDocument>

#include <cstdio>
#include <optional>

namespace cs::app {

CommandSpec simulateClusterSpec() {
    CommandSpec c{"simulate-cluster", "(--preset NAME | FILE) WORKLOAD.json",
                  "many jobs on one cluster: a scheduler places them, they share the fabric",
                  topologyOptions(), 2};
    c.options.push_back(
        {"--span", "DURATION", "simulate this long (2d, 12h); default: until every job has ended"});
    c.options.push_back({"--scheduler", "topology-aware|first-fit|fragmented",
                         "place the jobs by this policy instead of the workload's"});
    c.options.push_back({"--out", "run.sqlite",
                         "store the run for the replay: GPU busy and link traffic over time"});
    c.options.push_back({"--json", "", "one JSON object instead of text"});
    return c;
}

int simulateClusterCommand(const CommandArgs& a) {
    // The topology as the other commands take it, and the workload after it.
    TopologySourceArgs src;
    src.preset = a.value("--preset").toStdString();
    src.read.nodeNameMap = a.value("--node-name-map").toStdString();
    src.read.structureFile = a.value("--structure").toStdString();
    for (const QString& set : a.values("--set"))
        src.read.sets.push_back(set.toStdString());
    const qsizetype wanted = src.preset.empty() ? 2 : 1;
    if (a.positionals().size() != wanted)
        throw UsageError(src.preset.empty()
                             ? "expected a topology FILE (or --preset NAME) and a WORKLOAD.json"
                             : "expected one WORKLOAD.json after --preset NAME");
    if (src.preset.empty()) src.file = a.positionals().front().toStdString();
    double spanS = 0;
    if (a.has("--span")) {
        const auto s = parseDurationS(a.value("--span").toStdString());
        if (!s || *s <= 0 || *s > 366 * 86400.0)
            throw UsageError("--span: expected a duration from 1s to 366d (such as 2d or 12h), "
                             "got \"" +
                             a.value("--span").toStdString() + "\"");
        spanS = *s;
    }
    Workload w = loadWorkload(a.positionals().back());
    if (a.has("--scheduler")) {
        const auto p = kSchedulerPolicyNames.parse(a.value("--scheduler").toStdString());
        if (!p)
            throw UsageError("--scheduler: expected " + kSchedulerPolicyNames.choices() +
                             ", got \"" + a.value("--scheduler").toStdString() + "\"");
        w.scheduler = *p;
    }
    const auto doc = openTopology(src.preset, src.file, src.read);
    NewStoreFile created(a.value("--out"));
    std::optional<RunStore> store;
    if (a.has("--out")) store.emplace(RunStore::openForWriting(a.value("--out")));
    ClusterRunRecorder recorder(
        doc->topology(), "cluster: " + QFileInfo(a.positionals().back()).fileName().toStdString());
    ClusterFrameFn onFrame;
    if (store)
        onFrame = [&](double atS, const std::vector<ClusterFrameJob>& running) {
            recorder.frame(atS, running);
        };
    const ClusterRunResult r =
        simulateCluster(*doc, w, spanS, terminalProgress(a.flag("--json")), onFrame);
    if (store) recorder.write(*store, r);
    created.keep();
    if (a.flag("--json")) {
        const QByteArray json =
            QJsonDocument(clusterRunJson(r, doc->topology())).toJson(QJsonDocument::Compact);
        std::fwrite(json.constData(), 1, size_t(json.size()), stdout);
        std::fputc('\n', stdout);
    } else {
        std::fputs(clusterRunText(r, doc->topology()).c_str(), stdout);
    }
    return kExitOk;
}

} // namespace cs::app
