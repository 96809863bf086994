// `clusterscope compare`: two stored runs side by side, as the window's comparison table
// shows them: each run's figures, each design's, and the difference B - A.
#include "CommandLine.h"
#include "DesignFiguresOf.h"
#include "Presets.h"
#include "RunComparison.h"
#include "RunReader.h"
#include "RunTopology.h"

#include <QFileInfo>
#include <QJsonDocument>

#include <cstdio>

namespace cs::app {
namespace {

struct Side {
    RunInfo info;
    std::unique_ptr<TopologyDocument> doc; // null: the design is not known
};

// The newest run of the store, and the topology it was made on: --a / --b when given (a
// preset name or a file), else what the store keeps; the reader checks it is the run's.
Side openSide(const QString& store, const CommandArgs& a, const char* topologyFlag) {
    Side s;
    s.info = RunReader::runsIn(store).back();
    if (a.has(topologyFlag)) {
        const std::string t = a.value(topologyFlag).toStdString();
        s.doc = presetParams(t) ? openTopology(t, {}) : openTopology({}, t);
    } else {
        s.doc = topologyOfRun(s.info);
    }
    if (s.doc) RunReader(store, s.doc->topology(), s.info.run); // refused: another topology
    return s;
}

} // namespace

CommandSpec compareSpec() {
    return {"compare",
            "A.sqlite B.sqlite",
            "two stored runs and their designs side by side, with the difference B - A",
            {{"--a", "TOPOLOGY", "run A's topology (a preset or a file) when the store keeps none"},
             {"--b", "TOPOLOGY", "run B's topology"},
             {"--json", "", "the table as one JSON object"}},
            2};
}

int compareCommand(const CommandArgs& a) {
    if (a.positionals().size() != 2) throw UsageError("expected two run stores, A.sqlite B.sqlite");
    const Side sideA = openSide(a.positionals()[0], a, "--a");
    const Side sideB = openSide(a.positionals()[1], a, "--b");
    auto summary = [](const RunInfo& i) {
        return QJsonDocument::fromJson(QByteArray::fromStdString(i.summaryJson)).object();
    };
    // Named with their stores: two runs of one job on two designs have the same name.
    auto name = [](const Side& s, const QString& store) {
        return s.info.name + " (" + QFileInfo(store).fileName().toStdString() + ")";
    };
    const RunComparison c = compareRuns(name(sideA, a.positionals()[0]), summary(sideA.info),
                                        name(sideB, a.positionals()[1]), summary(sideB.info),
                                        sideA.doc ? designFiguresOf(*sideA.doc) : DesignFigures{},
                                        sideB.doc ? designFiguresOf(*sideB.doc) : DesignFigures{});
    if (a.flag("--json")) {
        std::printf("%s\n",
                    QJsonDocument(comparisonToJson(c)).toJson(QJsonDocument::Compact).constData());
        return kExitOk;
    }
    std::fputs(comparisonToText(c).c_str(), stdout);
    for (const Side* s : {&sideA, &sideB})
        if (!s->doc)
            std::fprintf(stderr,
                         "%s: the store keeps no design and no preset is named \"%s\": give its "
                         "topology with %s to compare the designs\n",
                         s->info.name.c_str(), s->info.topology.c_str(),
                         s == &sideA ? "--a" : "--b");
    return kExitOk;
}

} // namespace cs::app
