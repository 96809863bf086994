// `clusterscope simulate`: Llama 3 training on a topology; summary, time series, trace.
#include "CommandArgs.h"
#include "CommandLine.h"
#include "RunSpecJson.h"
#include "TopologyDocument.h"
#include "TopologyFile.h"

#include <QJsonDocument>

#include <cstdio>
#include <unistd.h>

namespace cs::app {
namespace {

int intArg(const CommandArgs& a, const char* name, int fallback, int lo, int hi) {
    if (!a.has(name)) return fallback;
    bool ok = false;
    const long long v = a.value(name).toLongLong(&ok);
    if (!ok || v < lo || v > hi)
        throw UsageError(std::string(name) + ": expected an integer from " + std::to_string(lo) +
                         " to " + std::to_string(hi) + ", got \"" + a.value(name).toStdString() +
                         "\"");
    return int(v);
}

void progressBar(double f) {
    const int width = 40, done = int(f * width + 0.5);
    std::fprintf(stderr, "\r[%s%s] %3d%%", std::string(size_t(done), '#').c_str(),
                 std::string(size_t(width - done), ' ').c_str(), int(f * 100 + 0.5));
    if (f >= 1.0) std::fputc('\n', stderr);
    std::fflush(stderr);
}

void printText(const QJsonObject& s) {
    auto num = [&](const char* k) { return s.value(k).toDouble(); };
    const QJsonObject exposed = s.value("exposedCommS").toObject();
    std::printf(
        "step time            %.2f s (%.0f micro-batches, pipeline %.2f s, bubble %.1f%%)\n",
        num("stepTimeS"), num("microBatches"), num("pipelineS"), num("bubbleFraction") * 100);
    std::printf("throughput           %.0f tokens/s, %.0f TFLOP/s per GPU, MFU %.1f%%\n",
                num("tokensPerS"), num("tflopsPerGpu"), num("mfu") * 100);
    std::printf("exposed comm / step  TP %.2f s, CP %.2f s, PP %.3f s, DP %.3f s\n",
                exposed.value("tp").toDouble(), exposed.value("cp").toDouble(),
                exposed.value("pp").toDouble(), exposed.value("dp").toDouble());
    std::printf("peak memory          %.1f GiB per GPU\n", num("peakMemoryGiB"));
    std::printf("checkpoint           %.1f s for %.2f TB\n", num("checkpointTimeS"),
                num("checkpointBytes") / 1e12);
    if (s.contains("interruptions")) {
        std::printf("interruptions        %d (lost %.1f h); effective training time %.1f%%\n",
                    s.value("interruptions").toInt(), num("lostHours"),
                    num("effectiveTrainingTime") * 100);
        const QJsonObject by = s.value("interruptionsByCause").toObject();
        for (auto it = by.begin(); it != by.end(); ++it)
            std::printf("  %-28s %d\n", qPrintable(it.key()), it.value().toInt());
    }
}

} // namespace

int simulateCommand(const QStringList& args) {
    const CommandArgs a(args,
                        {"--preset",
                         "--run",
                         "--model",
                         "--gpus",
                         "--tp",
                         "--cp",
                         "--pp",
                         "--dp",
                         "--seq",
                         "--batch-tokens",
                         "--steps",
                         "--span",
                         "--gpu",
                         "--placement",
                         "--failures",
                         "--seed",
                         "--out",
                         "--trace",
                         "--virtual-stages",
                         "--flows-per-pair",
                         "--checkpoint-interval"},
                        {"--json"}, 1);
    const TopologySourceArgs src = topologySource(a);
    RunSpec spec = a.has("--run") ? loadRunSpec(a.value("--run")) : RunSpec{};
    if (a.has("--model")) spec.model = a.value("--model").toStdString();
    if (a.has("--gpu")) spec.gpu = a.value("--gpu").toStdString();
    ParallelConfig& c = spec.parallel;
    c.tp = intArg(a, "--tp", c.tp, 1, 1024);
    c.cp = intArg(a, "--cp", c.cp, 1, 4096);
    c.pp = intArg(a, "--pp", c.pp, 1, 4096);
    c.dp = intArg(a, "--dp", c.dp, 1, 1'000'000);
    c.seqLen = intArg(a, "--seq", c.seqLen, 1, 10'000'000);
    c.virtualStages = intArg(a, "--virtual-stages", c.virtualStages, 1, 256);
    c.flowsPerPair = intArg(a, "--flows-per-pair", c.flowsPerPair, 1, 256);
    if (a.has("--batch-tokens")) {
        bool ok = false;
        c.batchTokens = a.value("--batch-tokens").toDouble(&ok);
        if (!ok || c.batchTokens < 1)
            throw UsageError("--batch-tokens: expected a positive number of tokens");
    }
    if (a.has("--placement")) {
        const QString p = a.value("--placement");
        if (p != "topology" && p != "linear")
            throw UsageError("--placement: expected topology or linear");
        c.placement = p == "linear" ? Placement::Linear : Placement::TopologyAware;
    }
    if (a.has("--gpus")) {
        const int gpus = intArg(a, "--gpus", 0, 1, 100'000'000);
        if (gpus != c.gpus())
            throw UsageError("--gpus " + std::to_string(gpus) +
                             " is not TP x CP x PP x DP = " + std::to_string(c.tp) + " x " +
                             std::to_string(c.cp) + " x " + std::to_string(c.pp) + " x " +
                             std::to_string(c.dp) + " = " + std::to_string(c.gpus()));
    }
    if (a.has("--steps")) {
        spec.steps = intArg(a, "--steps", 1, 1, 1'000'000);
        spec.spanS = 0;
    }
    if (a.has("--span")) {
        const auto span = parseDurationS(a.value("--span").toStdString());
        if (!span) throw UsageError("--span: expected a duration such as 54d, 12h or 30m");
        spec.spanS = *span;
        spec.steps = 0;
    }
    if (a.has("--checkpoint-interval")) {
        const auto iv = parseDurationS(a.value("--checkpoint-interval").toStdString());
        if (!iv) throw UsageError("--checkpoint-interval: expected a duration such as 15m");
        spec.checkpointIntervalS = *iv;
    }
    if (a.has("--failures")) {
        const QString f = a.value("--failures");
        if (f != "on" && f != "off") throw UsageError("--failures: expected on or off");
        spec.failures = f == "on";
    }
    if (a.has("--seed")) spec.seed = uint64_t(intArg(a, "--seed", 1, 0, 2'000'000'000));
    if (spec.steps == 0 && spec.spanS == 0) spec.steps = 1;

    const auto doc = openTopology(src.preset, src.file);
    std::optional<RunStore> store;
    if (a.has("--out")) store.emplace(RunStore::openForWriting(a.value("--out")));
    const bool tty = isatty(2) && !a.flag("--json");
    const RunResult r = simulateRun(*doc, spec, store ? &*store : nullptr,
                                    tty ? ProgressFn(progressBar) : ProgressFn());
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
