// `clusterscope import`: recorded telemetry into a run store; `clusterscope
// generate-telemetry`: realistic telemetry for a topology, to try the replay without a cluster.
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

int importCommand(const QStringList& args) {
    const CommandArgs a(args,
                        {"--preset", "--out", "-o", "--format", "--map", "--tick", "--prometheus",
                         "--start", "--end", "--step", "--at"},
                        {"--json"}, 100000);
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
    const QString format = a.has("--format") ? a.value("--format") : "auto";
    const std::map<QString, TelemetryFormat> formats{{"auto", TelemetryFormat::Auto},
                                                     {"prometheus", TelemetryFormat::Prometheus},
                                                     {"openmetrics", TelemetryFormat::OpenMetrics},
                                                     {"prom-json", TelemetryFormat::PromJson},
                                                     {"csv", TelemetryFormat::Csv},
                                                     {"nvidia-smi", TelemetryFormat::NvidiaSmiCsv}};
    if (!formats.count(format))
        throw UsageError("--format: expected auto, prometheus, openmetrics, prom-json or csv");
    o.format = formats.at(format);
    o.mapFile = a.value("--map");
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

int generateTelemetryCommand(const QStringList& args) {
    const CommandArgs a(
        args,
        {"--preset", "-o", "--output", "--duration", "--interval", "--hosts", "--seed", "--format"},
        {}, 1);
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
