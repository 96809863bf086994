// `clusterscope simulate`: Llama 3 training on a topology; summary, time series, trace.
#include "ChromeTrace.h"
#include "CommandArgs.h"
#include "CommandLine.h"
#include "NewStoreFile.h"
#include "SimulateArgs.h"
#include "SimulationRun.h"
#include "StepBreakdown.h"
#include "TerminalProgress.h"
#include "TopologyDocument.h"
#include "TopologyFile.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <cstdio>

namespace cs::app {
namespace {

void printText(const QJsonObject& s) {
    auto num = [&](const char* k) { return s.value(k).toDouble(); };
    std::printf(
        "step time            %.2f s (%.0f micro-batches, pipeline %.2f s, bubble %.1f%%)\n",
        num("stepTimeS"), num("microBatches"), num("pipelineS"), num("bubbleFraction") * 100);
    std::printf("throughput           %.0f tokens/s, %.0f TFLOP/s per GPU, MFU %.1f%%\n",
                num("tokensPerS"), num("tflopsPerGpu"), num("mfu") * 100);
    // The slowest stage's step, part by part (the parts that take any time).
    const QJsonObject parts = s.value("breakdown").toObject();
    QStringList shown;
    for (const StepPartName& n : stepPartNames()) {
        const double partS =
            parts.value(QLatin1String(n.key.data(), qsizetype(n.key.size()))).toDouble();
        if (partS >= 0.0005)
            shown << QStringLiteral("%1 %2 s")
                         .arg(QLatin1String(n.label.data(), qsizetype(n.label.size())))
                         .arg(partS, 0, 'f', 3);
    }
    std::printf("step on stage %-6d %s\n", s.value("slowestStage").toInt(),
                qPrintable(shown.join(QStringLiteral(", "))));
    // Compute time that is not the kernels' own: named mechanisms, then the unexplained rest.
    const QJsonObject losses = s.value("computeLosses").toObject();
    std::printf("compute losses       %.3f s to SMs held by communication, %.3f s unexplained "
                "(kernels at %.3f of their rate alone)\n",
                losses.value("commSmsS").toDouble(), losses.value("unexplainedS").toDouble(),
                losses.value("inTrainingFraction").toDouble());
    if (losses.value("gpuClockFraction").toDouble(1) < 1)
        std::printf("power limit          tensor cores at %.3f of their full clock\n",
                    losses.value("gpuClockFraction").toDouble());
    // The run's steps as a distribution: the clock over the day, checkpoint waits, degraded
    // stretches.
    const QJsonObject spread = s.value("stepTimeDistribution").toObject();
    if (!spread.isEmpty())
        std::printf("step spread          p50 %.3f s, p99 %.3f s, max %.3f s over %.0f steps; "
                    "%.1f%% of a step waits for the slowest GPU\n",
                    spread.value("p50").toDouble(), spread.value("p99").toDouble(),
                    spread.value("max").toDouble(), spread.value("steps").toDouble(),
                    spread.value("slowestGpuShare").toDouble() * 100);
    std::printf("peak memory          %.1f GiB per GPU\n", num("peakMemoryGiB"));
    std::printf("checkpoint           %.1f s for %.2f TB%s\n", num("checkpointTimeS"),
                num("checkpointBytes") / 1e12,
                s.contains("checkpointLastHost")
                    ? qPrintable(QStringLiteral(", the last shard from %1")
                                     .arg(s.value("checkpointLastHost").toString()))
                    : "");
    if (s.contains("checkpointHostsWithoutPath"))
        std::printf("                     %d hosts have no frontend path to storage: their "
                    "shards are not written\n",
                    s.value("checkpointHostsWithoutPath").toInt());
    // The parts down or slowed for the whole run, as the run file gives them.
    const QJsonObject fabric = s.value("config").toObject().value("fabric").toObject();
    if (!fabric.isEmpty())
        std::printf("fabric faults        %lld links down (%lld parts failed), %lld parts "
                    "degraded\n",
                    qlonglong(s.value("failedLinks").toArray().size()),
                    qlonglong(fabric.value("failed").toArray().size()),
                    qlonglong(fabric.value("degraded").toObject().size()));
    if (s.contains("interruptions")) {
        std::printf("interruptions        %d (lost %.1f h; %.1f h run slower around failed "
                    "fabric parts until repair); effective training time %.1f%%\n",
                    s.value("interruptions").toInt(), num("lostHours"), num("degradedHours"),
                    num("effectiveTrainingTime") * 100);
        const QJsonObject by = s.value("interruptionsByCause").toObject();
        for (auto it = by.begin(); it != by.end(); ++it)
            std::printf("  %-28s %d\n", qPrintable(it.key()), it.value().toInt());
    }
}

} // namespace

int simulateCommand(const CommandArgs& a) {
    const TopologySourceArgs src = topologySource(a);
    const RunSpec spec = runSpecOfArgs(a);

    const auto doc = openTopology(src.preset, src.file, src.read);
    NewStoreFile created(a.value("--out"));
    std::optional<RunStore> store;
    if (a.has("--out")) store.emplace(RunStore::openForWriting(a.value("--out")));
    RunResult r;
    try {
        r = simulateRun(*doc, spec, store ? &*store : nullptr, terminalProgress(a.flag("--json")));
    } catch (const InputException& e) {
        throw withFlag(e, a); // "--tp: TP must divide ..." or "run.json: parallel.tp: ..."
    }
    created.keep();
    if (a.has("--trace")) writeFileAtomically(a.value("--trace"), chromeTraceOfStep(r, spec));
    const QJsonObject summary = runSummaryJson(r, spec);
    if (a.flag("--json")) {
        const QByteArray json = QJsonDocument(summary).toJson(QJsonDocument::Compact);
        std::fwrite(json.constData(), 1, size_t(json.size()), stdout);
        std::fputc('\n', stdout);
    } else {
        printText(summary);
    }
    return kExitOk;
}

} // namespace cs::app
