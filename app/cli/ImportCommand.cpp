// `clusterscope import`: recorded telemetry into a run store; `clusterscope
// generate-telemetry`: realistic telemetry for a topology, to try the replay without a cluster.
#include "ChoiceArgument.h"
#include "CommandArgs.h"
#include "CommandLine.h"
#include "NewStoreFile.h"
#include "PrometheusSource.h"
#include "RunSpecJson.h"
#include "TelemetryGenerator.h"
#include "TelemetryImporter.h"
#include "TerminalProgress.h"
#include "TopologyDocument.h"
#include "TopologyFile.h"

#include <QDateTime>
#include <QJsonDocument>

#include <cstdio>

namespace cs::app {

namespace {

// A time as --start / --end take it: Unix seconds, or RFC 3339 (2024-06-01T12:00:00Z).
int64_t timeArgS(const CommandArgs& a, const char* flag) {
    const QString text = a.value(flag);
    if (text.isEmpty()) throw UsageError(std::string(flag) + ": expected a time");
    bool ok = false;
    const qlonglong seconds = text.toLongLong(&ok);
    if (ok && seconds >= 0 && seconds < 9'200'000'000LL) return seconds;
    const QDateTime when = QDateTime::fromString(text, Qt::ISODate);
    if (when.isValid() && when.timeSpec() != Qt::LocalTime && when.toSecsSinceEpoch() >= 0)
        return when.toSecsSinceEpoch();
    throw UsageError(std::string(flag) +
                     ": expected Unix seconds or an RFC 3339 time such as 2024-06-01T12:00:00Z, "
                     "got \"" +
                     text.left(40).toStdString() + "\"");
}

PrometheusQuery prometheusQuery(const CommandArgs& a) {
    PrometheusQuery q;
    q.server = QUrl(a.value("--prometheus"));
    q.startS = timeArgS(a, "--start");
    q.endS = timeArgS(a, "--end");
    if (a.has("--step")) {
        const auto step = parseDurationS(a.value("--step").toStdString());
        if (!step || *step < 0.001) throw UsageError("--step: expected a duration such as 15s");
        q.stepS = *step;
    }
    return q;
}

} // namespace

CommandSpec importSpec() {
    return {
        "import",
        "(--preset NAME | FILE) (FILES... | --prometheus URL --start T --end T) --out run.sqlite",
        "recorded telemetry (files, or a Prometheus-compatible server) into a run store",
        {{"--preset", "NAME", "a built-in topology", {}, false},
         {"--out", "run.sqlite", "the run store to write (a new run in an existing one)"},
         {"-o", "run.sqlite", "the same as --out", {}, false},
         {"--format", kTelemetryFormatNames.alternatives(), "the files' format (default auto)"},
         {"--map", "MAP.json", "how series and labels map onto entities"},
         {"--jobs", "SACCT.txt",
          "the jobs, from Slurm's accounting (sacct --parsable2 with JobID, NodeList, Start, End; "
          "times in UTC)"},
         {"--tick", "DURATION", "the run's frame interval (default: the scrapes' median)"},
         {"--at",
          "T",
          "the time of scrapes without times (Unix seconds or RFC 3339)",
          {"else each file's modification time"}},
         {"--prometheus", "URL", "a Prometheus-compatible server to query"},
         {"--start", "T", "the first time queried: Unix seconds or RFC 3339"},
         {"--end", "T", "the last time queried"},
         {"--step", "DURATION", "the query's resolution (default 15s)"},
         {"--json", "", "the import report as one JSON object"}},
        100000};
}

int importCommand(const CommandArgs& a) {
    const bool server = a.has("--prometheus");
    QStringList files = a.positionals();
    TopologySourceArgs src;
    src.preset = a.value("--preset").toStdString();
    if (src.preset.empty()) {
        if (files.isEmpty())
            throw UsageError("expected --preset NAME or a topology FILE, then telemetry FILES");
        src.file = files.takeFirst().toStdString();
    }
    if (files.isEmpty() && !server)
        throw UsageError("expected telemetry FILES to import, or --prometheus URL");
    if (!files.isEmpty() && server)
        throw UsageError("--prometheus: imports from a server or from files, not both");
    const QString out = a.has("--out") ? a.value("--out") : a.value("-o");
    if (out.isEmpty()) throw UsageError("expected --out run.sqlite");
    ImportOptions o;
    o.format = choiceArgument(a, "--format", kTelemetryFormatNames, TelemetryFormat::Auto);
    o.mapFile = a.value("--map");
    o.jobsFile = a.value("--jobs");
    if (a.has("--tick")) {
        const auto tick = parseDurationS(a.value("--tick").toStdString());
        if (!tick || *tick <= 0) throw UsageError("--tick: expected a duration such as 15s");
        o.tickNs = int64_t(*tick * 1e9);
    }
    if (a.has("--at")) o.untimedAtNs = timeArgS(a, "--at") * 1'000'000'000LL; // untimed scrapes
    const auto doc = openTopology(src.preset, src.file);
    NewStoreFile created(out);
    RunStore store = RunStore::openForWriting(out);
    const ImportReport r = server ? importPrometheus(*doc, prometheusQuery(a), o, store,
                                                     terminalProgress(a.flag("--json")))
                                  : importTelemetry(*doc, files, o, store);
    created.keep();
    if (a.flag("--json")) {
        const QByteArray json = QJsonDocument(r.toJson()).toJson(QJsonDocument::Compact);
        std::fwrite(json.constData(), 1, size_t(json.size()), stdout);
        std::fputc('\n', stdout);
    } else {
        std::fputs(r.toText().c_str(), stdout);
    }
    return kExitOk;
}

CommandSpec generateTelemetrySpec() {
    return {"generate-telemetry",
            "(--preset NAME | FILE) -o OUT.prom",
            "realistic telemetry of the topology, to try the replay without a cluster",
            {{"--preset", "NAME", "a built-in topology", {}, false},
             {"-o", "OUT.prom", "the scrape file to write"},
             {"--output", "OUT.prom", "the same as -o", {}, false},
             {"--duration", "DURATION", "the time it covers, up to 30d (default 5m)"},
             {"--interval", "DURATION", "between scrapes, at least 0.1s (default 15s)"},
             {"--hosts", "N", "the first N hosts only (default 0: all)"},
             {"--seed", "S", "the random seed (default 1)"},
             {"--format", "prometheus|openmetrics", "the exposition format (default prometheus)"}},
            1};
}

int generateTelemetryCommand(const CommandArgs& a) {
    const TopologySourceArgs src = topologySource(a);
    const QString out = a.has("-o") ? a.value("-o") : a.value("--output");
    if (out.isEmpty()) throw UsageError("expected -o OUT.prom");
    TelemetryGeneratorParams p;
    if (a.has("--duration")) {
        const auto d = parseDurationS(a.value("--duration").toStdString());
        if (!d || *d > 30 * 86400)
            throw UsageError("--duration: expected a duration up to 30d, such as 10m");
        p.durationS = *d;
    }
    if (a.has("--interval")) {
        const auto d = parseDurationS(a.value("--interval").toStdString());
        if (!d || *d < 0.1)
            throw UsageError("--interval: expected a duration of at least 0.1s, such as 15s");
        p.intervalS = *d;
    }
    bool ok = true;
    if (a.has("--hosts")) p.maxHosts = a.value("--hosts").toInt(&ok);
    if (!ok || p.maxHosts < 0) throw UsageError("--hosts: expected a number of hosts (0: all)");
    if (a.has("--seed")) p.seed = a.value("--seed").toULongLong(&ok);
    if (!ok) throw UsageError("--seed: expected a number");
    const QString format = a.has("--format") ? a.value("--format") : "prometheus";
    if (format != "prometheus" && format != "openmetrics")
        throw UsageError("--format: expected prometheus or openmetrics");
    p.openMetrics = format == "openmetrics";
    const auto doc = openTopology(src.preset, src.file);
    const double lines = (p.durationS / p.intervalS + 1) *
                         double(p.maxHosts > 0 ? p.maxHosts : doc->topology().hosts.size()) * 8 * 6;
    if (lines > 2e8)
        throw UsageError("that would write about " + std::to_string(long(lines)) +
                         " lines; limit --hosts or --duration");
    writeFileAtomically(out, generatePrometheusTelemetry(doc->topology(), p));
    std::fprintf(stderr, "wrote %s\n", qPrintable(out));
    return kExitOk;
}

} // namespace cs::app
