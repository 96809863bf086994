// `clusterscope export`: writes a topology in the native format, explicit entity and link
// lists by default, or generator parameters with --params.
#include "CommandArgs.h"
#include "CommandLine.h"
#include "TopologyDocument.h"
#include "TopologyFile.h"

#include <cstdio>

namespace cs::app {

int exportCommand(const QStringList& args) {
    const CommandArgs a(args, {"--preset", "-o", "--output"}, {"--params"}, 1);
    const TopologySourceArgs src = topologySource(a);
    const QString out = a.has("-o") ? a.value("-o") : a.value("--output");
    if (out.isEmpty()) throw UsageError("expected -o OUT, the file to write");
    const auto doc = openTopology(src.preset, src.file);
    QByteArray bytes;
    if (a.flag("--params")) {
        if (!doc->params())
            throw UsageError(
                "--params: this topology was given explicitly and has no generator parameters");
        bytes = paramsTopologyDocument(doc->topology().name, *doc->params());
    } else {
        bytes = explicitTopologyDocument(doc->topology());
    }
    writeFileAtomically(out, bytes);
    std::fprintf(stderr, "wrote %s (%lld bytes)\n", qPrintable(out), (long long)bytes.size());
    return kExitOk;
}

} // namespace cs::app
