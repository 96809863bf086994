// `clusterscope collective`: nccl-tests on a design. One collective (or a point-to-point
// pattern) over a group of GPUs at a sweep of sizes, printed in nccl-tests' columns, or one
// JSON object; with --log, a measured nccl-tests log held against the simulated sizes.
#include "ByteSize.h"
#include "CollectiveJson.h"
#include "CollectiveRun.h"
#include "CommandArgs.h"
#include "CommandLine.h"
#include "NcclTestsLog.h"
#include "TopologyDocument.h"
#include "Transport.h"

#include <QJsonDocument>

#include <cmath>
#include <cstdio>

namespace cs::app {
namespace {

constexpr int kMaxGroupGpus = 2'000'000;
constexpr double kMaxFactor = 1024;

double byteSizeArg(const CommandArgs& a, const char* flag, const char* fallback) {
    const std::string text = a.has(flag) ? a.value(flag).toStdString() : fallback;
    const std::optional<double> v = parseByteSize(text);
    if (!v || *v < 4)
        throw UsageError(std::string(flag) +
                         ": expected a size of 4 bytes or more, as nccl-tests takes it (8, 1K, "
                         "16M, 8G), got \"" +
                         text + "\"");
    return *v;
}

NcclAlgoFilter algoArg(const CommandArgs& a) {
    const std::string s = a.has("--algo") ? a.value("--algo").toStdString() : "auto";
    if (s == "auto") return {};
    for (NcclAlgo x :
         {NcclAlgo::Ring, NcclAlgo::Tree, NcclAlgo::Nvls, NcclAlgo::CollNet, NcclAlgo::Pat})
        if (s == toString(x)) return {false, x};
    throw UsageError("--algo: expected auto, ring, tree, nvls, collnet or pat, got \"" + s + "\"");
}

void printTable(const BenchResult& r, const std::string& topology, const Transport& transport,
                const LogComparison* log) {
    const bool flows = r.flows > 0;
    std::printf("# clusterscope collective: %s on %d GPUs (%d hosts, up to %d per host) of %s\n",
                toString(r.op), r.ranks, r.nodes, r.perNode, topology.c_str());
    std::printf(
        "# fabric: %s, %s, %d flows per GPU pair, %s%s\n",
        std::string(namesOf(transport.fabric).name(transport.fabric)).c_str(),
        std::string(namesOf(transport.loadBalancing).name(transport.loadBalancing)).c_str(),
        transport.flowsPerGpuPair(),
        std::string(namesOf(transport.congestionControl).name(transport.congestionControl)).c_str(),
        transport.sharp ? ", SHARP" : "");
    if (r.nodes > 1 && !flows)
        std::printf("# network: %.1f GB/s per rail's NIC, %.1f GB/s bus bandwidth\n", r.perNicGBs,
                    r.netBusGBs);
    if (flows) std::printf("# %d flows a size\n", r.flows);
    std::printf("#\n#%12s %13s %9s %10s %7s %7s", "size", "count", "type", "time", "algbw",
                "busbw");
    if (flows)
        std::printf(" %10s %10s %10s", "p50", "p99", "max");
    else
        std::printf("  %-16s", "algorithm");
    if (log) std::printf(" %9s %7s", "measured", "error");
    std::printf("\n#%12s %13s %9s %10s %7s %7s", "(B)", "(elements)", "", "(us)", "(GB/s)",
                "(GB/s)");
    if (flows)
        std::printf(" %10s %10s %10s", "(us)", "(us)", "(us)");
    else
        std::printf("  %-16s", "");
    if (log) std::printf(" %9s %7s", "(GB/s)", "(%)");
    std::printf("\n");
    for (const BenchRow& x : r.rows) {
        std::printf(" %12.0f %13.0f %9s %10.2f %7.2f %7.2f", x.bytes, x.count, "float", x.timeUs,
                    x.algbwGBs, x.busbwGBs);
        if (flows)
            std::printf(" %10.2f %10.2f %10.2f", x.p50Us, x.p99Us, x.maxUs);
        else
            std::printf("  %-16s", (x.algorithm + "/" + x.protocol).c_str());
        if (log) {
            const LogComparisonRow* m = nullptr;
            for (const LogComparisonRow& c : log->rows)
                if (c.bytes == x.bytes) m = &c;
            if (m)
                std::printf(" %9.2f %+7.1f", m->measuredBusbwGBs, m->errorPct);
            else
                std::printf(" %9s %7s", "-", "-");
        }
        std::printf("\n");
    }
    std::printf("# Avg bus bandwidth    : %.4f\n", r.avgBusbwGBs);
    if (log)
        std::printf("# Against the log, from %s up: %d sizes, busbw error mean %.1f%%, largest "
                    "%.1f%%\n",
                    formatByteSize(log->fromBytes).c_str(), log->compared, log->meanAbsErrorPct,
                    log->maxAbsErrorPct);
}

} // namespace

CommandSpec collectiveSpec() {
    CommandSpec c{
        "collective", "(--preset NAME | FILE) --op OP --gpus N [--log MEASURED.txt] [--json]",
        "a collective on the design, as nccl-tests prints it; with --log, against a measured one",
        topologyOptions(), 1};
    c.options.insert(
        c.options.end(),
        {{"--op",
          benchOpChoices(),
          "the collective, or a point-to-point pattern",
          {"permutation: each GPU to a distinct other (seeded); incast: every GPU to the first;",
           "both, alltoall and sendrecv add per-flow completion p50 / p99 / max"}},
         {"--gpus", "N", "GPUs in the group (default: the log's ranks)"},
         {"--gpus-per-host", "K", "GPUs of each host in the group (default: the log's, or all)"},
         {"--placement", "topology|fragmented",
          "hosts in index order, or whole racks scattered over the site (seeded)"},
         {"--seed", "N", "the fragmented placement's and the permutation's seed (default 1)"},
         {"--min-bytes", "SIZE", "the smallest size, as nccl-tests -b (default 1K)"},
         {"--max-bytes", "SIZE", "the largest size, as nccl-tests -e (default 16G)"},
         {"--factor", "F", "each size F times the one before, as nccl-tests -f (default 2)"},
         {"--algo", "auto|ring|tree|nvls|collnet|pat",
          "NCCL's algorithm (NCCL_ALGO); auto: the fastest at each size"},
         {"--channels-per-nic", "N",
          "NCCL's ring channels on each NIC (default 2; NCCL_MIN_CTAS raises it)"},
         {"--flows-per-pair", "N",
          "flows each GPU pair opens, hashed on their own (default: NCCL's 2 channels x the "
          "fabric's qpsPerConnection)"},
         {"--log",
          "MEASURED.txt",
          "an nccl-tests output (MPI rank prefixes allowed): measured against simulated per size",
          {"its op, ranks and GPUs per host are the defaults of --op, --gpus, --gpus-per-host;",
           "its sizes are the sizes simulated"}},
         {"--json", "", "one JSON object (format clusterscope-collective) instead of the table"}});
    return c;
}

int collectiveCommand(const CommandArgs& a) {
    std::optional<NcclTestsLog> log;
    if (a.has("--log")) log = readNcclTestsLog(a.value("--log").toStdString());
    CollectiveRequest r;
    if (a.has("--op")) {
        const auto op = parseBenchOp(a.value("--op").toStdString());
        if (!op)
            throw UsageError("--op: expected " + benchOpChoices() + ", got \"" +
                             a.value("--op").toStdString() + "\"");
        r.op = *op;
    } else if (log && benchOpOfLog(log->op)) {
        r.op = *benchOpOfLog(log->op);
    } else {
        throw UsageError(log ? "--op: the log does not say which collective it ran; name it"
                             : "--op is needed: expected " + benchOpChoices());
    }
    if (a.has("--gpus"))
        r.gpus = positiveInt(a, "--gpus", kMaxGroupGpus);
    else if (log && log->ranks > 0)
        r.gpus = log->ranks;
    else
        throw UsageError(log ? "--gpus: the log lists no ranks; give the group's size"
                             : "--gpus is needed: the GPUs in the group");
    if (a.has("--gpus-per-host"))
        r.perHost = positiveInt(a, "--gpus-per-host", 1024);
    else if (log && log->gpusPerHost() > 0)
        r.perHost = log->gpusPerHost();
    const std::string placement =
        a.has("--placement") ? a.value("--placement").toStdString() : "topology";
    if (placement != "topology" && placement != "fragmented")
        throw UsageError("--placement: expected topology or fragmented, got \"" + placement + "\"");
    r.placement = placement == "fragmented" ? GroupPlacement::Fragmented : GroupPlacement::Packed;
    if (a.has("--seed")) r.seed = uint64_t(positiveInt(a, "--seed", 2147483647));
    r.algo = algoArg(a);
    if (a.has("--channels-per-nic")) r.channelsPerNic = positiveInt(a, "--channels-per-nic", 64);
    if (a.has("--flows-per-pair")) r.qpsOverride = positiveInt(a, "--flows-per-pair", 256);
    if (log) {
        r.sizes = logSizes(*log);
    } else {
        const double lo = byteSizeArg(a, "--min-bytes", "1K"),
                     hi = byteSizeArg(a, "--max-bytes", "16G");
        if (hi < lo) throw UsageError("--max-bytes: expected a size of --min-bytes or more");
        bool ok = false;
        const double f = a.has("--factor") ? a.value("--factor").toDouble(&ok) : 2.0;
        if (a.has("--factor") && (!ok || !(f > 1) || f > kMaxFactor))
            throw UsageError("--factor: expected a number above 1 and at most 1024, got \"" +
                             a.value("--factor").toStdString() + "\"");
        r.sizes = benchSizes(lo, hi, f);
    }
    const TopologySourceArgs src = topologySource(a);
    const auto doc = openTopology(src.preset, src.file, src.read);
    const BenchResult result = runCollective(doc->topology(), doc->index(), r);
    std::optional<LogComparison> cmp;
    if (log) cmp = compareWithLog(*log, result);
    if (a.flag("--json")) {
        const QByteArray json = QJsonDocument(collectiveToJson(result, cmp ? &*cmp : nullptr,
                                                               log ? log->file : std::string()))
                                    .toJson(QJsonDocument::Compact);
        std::fwrite(json.constData(), 1, size_t(json.size()), stdout);
        std::fputc('\n', stdout);
    } else {
        const Transport transport = FabricTransports(doc->topology()).ofGpu(0);
        printTable(result, doc->topology().name, transport, cmp ? &*cmp : nullptr);
    }
    return kExitOk;
}

} // namespace cs::app
