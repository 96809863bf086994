// `clusterscope frame`: one frame of a stored run, read through the run reader, for scripts
// and tests (the GUI reads frames the same way).
#include "CommandArgs.h"

#include "CommandLine.h"
#include "Duration.h"
#include "EntitySearch.h"
#include "RunReader.h"
#include "RunTimeArgument.h"
#include "RunTopologyArgs.h"
#include "TopologyDocument.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>
#include <cstdio>

namespace cs::app {
namespace {

// A link by index ("link:12") or by name ("a -- b"); other kinds as the search box reads them.
std::optional<int32_t> entityIndex(const TopologyDocument& doc, MetricEntity kind,
                                   const std::string& id) {
    const Topology& t = doc.topology();
    if (kind == MetricEntity::Link) {
        if (id.rfind("link:", 0) == 0) {
            bool ok = false;
            const int n = QString::fromStdString(id.substr(5)).toInt(&ok);
            if (ok && n >= 0 && size_t(n) < t.links.size()) return n;
            return std::nullopt;
        }
        for (size_t l = 0; l < t.links.size(); ++l)
            if (t.nameOf({EntityKind::Link, int32_t(l)}) == id) return int32_t(l);
        return std::nullopt;
    }
    const auto e = findEntity(doc, id);
    if (!e || metricEntityOf(e->kind) != kind) return std::nullopt;
    return e->index;
}

} // namespace

CommandSpec frameSpec() {
    CommandSpec c{"frame", "[--preset NAME | FILE] RUN.sqlite --at T",
                  "one frame of a stored run, read as the GUI reads it, on its own design",
                  topologyOptions(), 2};
    c.options.insert(
        c.options.end(),
        {{"--at", "T", "the frame's time"},
         {"--metric", "NAME", "the metric (default gpu_busy): " + metricNames()},
         {"--select", "ID", "an entity whose value to print (repeatable; links as link:N)"},
         {"--hottest", "N",
          "also the N links with the highest peak over the stretch playing at --at (a "
          "simulated step), with their time at or above 80% of capacity"},
         {"--json", "", "one JSON object instead of text"}});
    return c;
}

int frameCommand(const CommandArgs& a) {
    const bool preset = a.has("--preset");
    const QStringList pos = a.positionals();
    if (pos.isEmpty() || pos.size() > (preset ? 1 : 2))
        throw UsageError("expected [--preset NAME | FILE] RUN.sqlite");
    if (!a.has("--at")) throw UsageError("--at: expected a time such as 0s, 100ms, 90s or 1h30m");
    // An offset from the run's start, or a date and time (RFC 3339) for recorded runs.
    const RunTimeArgument atArg = parseRunTimeArgument(a.value("--at"));
    const std::string metricName =
        a.has("--metric") ? a.value("--metric").toStdString() : metricDef(Metric::GpuBusy).name;
    const auto metric = metricByName(metricName);
    if (!metric || metricDef(*metric).entity == MetricEntity::Run)
        throw UsageError("--metric: expected one of " + metricNames() +
                         " (not step_time_s or mfu)");
    const MetricDef& def = metricDef(*metric);

    const auto doc = topologyOfRunArgs(a, pos.size() == 2 ? pos.front() : QString(), pos.back());
    RunReader reader(pos.back(), doc->topology());
    const int64_t at = resolveRunTime(atArg, reader.info(), pos.back().toStdString());
    if (!reader.has(*metric))
        throw InputException(
            {pos.back().toStdString(), 0, 0, "--metric", "the run holds no " + metricName});
    const std::vector<float> v = reader.frame(*metric, at);
    const Topology& t = doc->topology();
    long long count = 0;
    double lo = INFINITY, hi = -INFINITY, sum = 0, maxFraction = 0;
    const bool hasCapacity = def.capacity != Capacity::None;
    for (size_t i = 0; i < v.size(); ++i) {
        if (std::isnan(v[i])) continue;
        ++count, sum += v[i], lo = std::min(lo, double(v[i])), hi = std::max(hi, double(v[i]));
        if (hasCapacity)
            maxFraction = std::max(maxFraction, double(v[i]) / capacityOf(*metric, t, int32_t(i)));
    }
    QJsonObject values;
    for (const QString& id : a.values("--select")) {
        const auto index = entityIndex(*doc, def.entity, id.toStdString());
        if (!index)
            throw UsageError("--select: no " + std::string(toString(def.entity)) +
                             " has the id \"" + id.toStdString() + "\"");
        const float x = v[size_t(*index)];
        values.insert(id, std::isnan(x) ? QJsonValue() : QJsonValue(double(x)));
    }
    QJsonObject o{{"atS", double(at) / 1e9},
                  {"metric", def.name},
                  {"unit", def.unit},
                  {"count", double(count)}};
    auto number = [](double x) { return std::isfinite(x) ? QJsonValue(x) : QJsonValue(); };
    o.insert("min", number(count ? lo : NAN));
    o.insert("max", number(count ? hi : NAN));
    o.insert("mean", number(count ? sum / double(count) : NAN));
    if (hasCapacity) o.insert("maxFractionOfCapacity", number(count ? maxFraction : NAN));
    if (!values.isEmpty()) o.insert("values", values);
    // The Hottest Links dock's list, by name: what a user selects to see what crosses it.
    QJsonArray hottest;
    if (a.has("--hottest")) {
        const int n = positiveInt(a, "--hottest", 10000);
        for (const LinkHeat& h : reader.hottestLinks(at, n, HotBy::Peak))
            hottest.append(
                QJsonObject{{"link", QString::fromStdString(t.nameOf({EntityKind::Link, h.link}))},
                            {"peakFractionOfCapacity", h.peakFraction},
                            {"aboveS", h.aboveS}});
        o.insert("hottest", hottest);
    }
    if (a.flag("--json")) {
        std::printf("%s\n", QJsonDocument(o).toJson(QJsonDocument::Compact).constData());
        return kExitOk;
    }
    std::printf("%s at %s: %lld %s values", def.name, formatDuration(at).c_str(), count,
                std::string(toString(def.entity)).c_str());
    if (count) std::printf(", min %g, mean %g, max %g %s", lo, sum / double(count), hi, def.unit);
    if (hasCapacity && count) std::printf(", at most %.1f%% of capacity", maxFraction * 100);
    std::printf("\n");
    for (auto it = values.begin(); it != values.end(); ++it)
        std::printf("  %s: %s\n", qPrintable(it.key()),
                    it.value().isNull()
                        ? "no data"
                        : qPrintable(QString::number(it.value().toDouble(), 'g', 6)));
    for (const QJsonValue& h : hottest)
        std::printf("  hot: %s: peak %.0f%%, %.3f s at or above 80%%\n",
                    qPrintable(h["link"].toString()), h["peakFractionOfCapacity"].toDouble() * 100,
                    h["aboveS"].toDouble());
    return kExitOk;
}

} // namespace cs::app
