#include "RunTopologyArgs.h"

#include "RunTopology.h"

#include <cstdio>

namespace cs::app {
namespace {
// The design a run replays on, said on stderr when it is not the one given.
std::unique_ptr<TopologyDocument> replayedOn(std::unique_ptr<TopologyDocument> given,
                                             const QString& runPath) {
    std::string note;
    auto doc = topologyForRun(std::move(given), runPath, &note);
    if (!note.empty()) std::fprintf(stderr, "note: %s: %s\n", qPrintable(runPath), note.c_str());
    return doc;
}
} // namespace

std::unique_ptr<TopologyDocument> topologyOfRunArgs(const CommandArgs& a, const QString& file,
                                                    const QString& runPath) {
    std::unique_ptr<TopologyDocument> given;
    const std::string preset = a.value("--preset").toStdString();
    if (!preset.empty() && !file.isEmpty())
        throw UsageError("expected either --preset NAME or a topology FILE, not both");
    if (!preset.empty() || !file.isEmpty()) {
        TopologyReadOptions read;
        read.nodeNameMap = a.value("--node-name-map").toStdString();
        read.structureFile = a.value("--structure").toStdString();
        for (const QString& set : a.values("--set"))
            read.sets.push_back(set.toStdString());
        given = openTopology(preset, file.toStdString(), read);
    } else if (a.has("--set")) {
        throw UsageError("--set: expected --preset NAME or a topology FILE to change (a run's "
                         "own design is replayed as it was stored)");
    }
    return replayedOn(std::move(given), runPath);
}

std::unique_ptr<TopologyDocument> topologyOfRunArgs(const QString& runPath) {
    return replayedOn(nullptr, runPath);
}

} // namespace cs::app
