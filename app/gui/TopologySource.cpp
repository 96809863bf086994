#include "TopologySource.h"

#include "InputError.h"
#include "RunReader.h"
#include "RunTopology.h"
#include "TopologyFile.h"

#include <QFileDialog>
#include <QObject>

namespace cs::app {

std::unique_ptr<TopologyDocument> openTopologySource(const QString& source,
                                                     const TopologyReadOptions& read) {
    // A preset takes the --set of the options; the fabric files' readers are for files.
    if (source.startsWith("preset:"))
        return openTopology(source.mid(7).toStdString(), {}, {.sets = read.sets});
    return openTopology({}, source.toStdString(), read);
}

std::unique_ptr<TopologyDocument>
comparedRunTopology(const QString& runPath, const QString& topology, const TopologyDocument& open,
                    const TopologyReadOptions& openRead, QWidget* ask) {
    if (!topology.isEmpty()) return openTopologySource(topology, {});
    const RunInfo b = RunReader::runsIn(runPath).back();
    std::unique_ptr<TopologyDocument> doc = topologyOfRun(b);
    // Two runs on the open topology: the same topology again, for the second view.
    if (!doc && b.topology == open.topology().name)
        doc = openTopologySource(QString::fromStdString(open.source()), openRead);
    if (!doc && ask) {
        const QString file = QFileDialog::getOpenFileName(
            ask, QObject::tr("Topology of %1").arg(QString::fromStdString(b.name)), {},
            QString::fromStdString(topologyOpenFilter()));
        if (file.isEmpty()) return nullptr;
        doc = openTopologySource(file, {});
    }
    if (!doc)
        throw InputException({runPath.toStdString(),
                              0,
                              0,
                              {},
                              "the store keeps no design and no preset is named \"" + b.topology +
                                  "\": give the run's topology"});
    return doc;
}

} // namespace cs::app
