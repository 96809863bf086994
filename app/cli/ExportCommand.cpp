// `clusterscope export`: writes a topology in the native format, explicit entity and link
// lists by default, or generator parameters with --params; --format writes it for graph
// tools (graphml, dot), an inventory (netbox: a directory of CSV files) or the fabric formats
// of other tools (ibnetdiscover, infragraph, networkx, ns3).
#include "ChoiceArgument.h"
#include "CommandArgs.h"
#include "CommandLine.h"
#include "FabricWriters.h"
#include "TopologyDocument.h"
#include "TopologyFile.h"

#include <QDir>

#include <cstdio>

namespace cs::app {

CommandSpec exportSpec() {
    CommandSpec c{"export", "(--preset NAME | FILE) -o OUT",
                  "the topology in ClusterScope's format, or in another tool's", topologyOptions(),
                  1};
    c.options.insert(c.options.end(),
                     {{"-o", "OUT", "the file to write (for netbox: a folder of CSV files)"},
                      {"--output", "OUT", "the same as -o", {}, false},
                      {"--params", "", "the generator's parameters instead of every entity"},
                      {"--format", kExportFormatNames.alternatives(), "another tool's format"}});
    return c;
}

namespace {
// What the loaders read (every topology file, ours or another tool's): a file past it is
// refused before it is written, with the way to a smaller one.
void refuseUnreadable(qint64 bytes, bool atLeast, const TopologyDocument& doc) {
    if (bytes <= kMaxTopologyFileBytes) return;
    std::string message = "the file would be " + std::string(atLeast ? "at least " : "") +
                          std::to_string(bytes / (1024 * 1024)) +
                          " MiB; topology files of at most " +
                          std::to_string(kMaxTopologyFileBytes / (1024 * 1024)) +
                          " MiB are read, so it would not open again";
    if (doc.params())
        message += "; --params writes the generator's parameters (" +
                   std::to_string(paramsTopologyDocument(doc.topology().name, *doc.params(),
                                                         doc.topology().description)
                                      .size()) +
                   " bytes), which read back the same site";
    throw UsageError(message);
}
} // namespace

int exportCommand(const CommandArgs& a) {
    const TopologySourceArgs src = topologySource(a);
    const QString out = a.has("-o") ? a.value("-o") : a.value("--output");
    if (out.isEmpty()) throw UsageError("expected -o OUT, the file to write");
    const auto doc = openTopology(src.preset, src.file, src.read);
    QByteArray bytes;
    if (a.has("--format")) {
        if (a.flag("--params")) throw UsageError("--params and --format exclude each other");
        const ExportFormat format =
            choiceArgument(a, "--format", kExportFormatNames, ExportFormat::GraphML);
        const Topology& t = doc->topology();
        if (format != ExportFormat::NetBox) {
            try {
                bytes = exportDocument(format, t);
            } catch (const std::invalid_argument& e) {
                throw UsageError(std::string("--format: ") + e.what());
            }
            if (format != ExportFormat::GraphML && format != ExportFormat::Dot)
                refuseUnreadable(bytes.size(), false, *doc); // a fabric format ClusterScope reads
        } else {
            if (!QDir().mkpath(out))
                throw std::runtime_error("cannot create the directory " + out.toStdString());
            long long total = 0;
            for (const auto& [name, content] : netboxCsvFiles(t)) {
                writeFileAtomically(QDir(out).filePath(QString::fromStdString(name)), content);
                total += content.size();
            }
            std::fprintf(stderr, "wrote %s/ (8 CSV files, %lld bytes)\n", qPrintable(out), total);
            return kExitOk;
        }
    } else if (a.flag("--params")) {
        if (!doc->params())
            throw UsageError(
                "--params: this topology was given explicitly and has no generator parameters");
        bytes = paramsTopologyDocument(doc->topology().name, *doc->params(),
                                       doc->topology().description);
    } else {
        refuseUnreadable(explicitTopologyDocumentMinBytes(doc->topology()), true, *doc);
        bytes = explicitTopologyDocument(doc->topology());
        refuseUnreadable(bytes.size(), false, *doc);
    }
    writeFileAtomically(out, bytes);
    std::fprintf(stderr, "wrote %s (%lld bytes)\n", qPrintable(out), (long long)bytes.size());
    return kExitOk;
}

} // namespace cs::app
