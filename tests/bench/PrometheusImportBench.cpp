#include "PrometheusImportBench.h"

#include "BenchUtil.h"
#include "PrometheusServer.h"
#include "PrometheusSource.h"
#include "TelemetryGenerator.h"
#include "TelemetryImporter.h"
#include "TopologyDocument.h"

#include <QDir>
#include <QFileInfo>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <thread>

using namespace cs;

namespace {

void row(const std::string& what, double value, const char* unit, const std::string& note = {}) {
    std::printf("| %-22s | %-52s | %12.3f %-10s | %s\n", "prometheus", what.c_str(), value, unit,
                note.c_str());
}

// Peak resident memory while fn runs, sampled every 20 ms (VmHWM would include what ran
// before: generating the telemetry).
template <class Fn> double peakDuringMiB(Fn&& fn) {
    std::atomic<bool> done{false};
    double peak = bench::rssMiB();
    std::thread sampler([&] {
        while (!done) {
            peak = std::max(peak, bench::rssMiB());
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
    });
    fn();
    done = true;
    sampler.join();
    return std::max(peak, bench::rssMiB());
}

} // namespace

void benchPrometheusImport(const QString& workDir) {
    // Every host of meta-roce-24k (3,072 hosts, 24,576 GPUs) unless told fewer.
    const char* env = std::getenv("CS_BENCH_PROMETHEUS_HOSTS");
    const int hosts = env ? std::atoi(env) : 3072;
    if (hosts <= 0) {
        row("skipped (CS_BENCH_PROMETHEUS_HOSTS=0)", 0, "");
        return;
    }
    const auto doc = openTopology("meta-roce-24k", {});
    TelemetryGeneratorParams p;
    p.durationS = 3600;
    p.intervalS = 15;
    p.maxHosts = hosts;
    p.openMetrics = true;
    PrometheusServer server;
    server.setBackfillTimeoutMs(3'600'000);
    const QDir dir(workDir);
    dir.mkpath("prometheus");
    const QString serverDir = dir.filePath("prometheus");
    double generateS = 0;
    bool up = false;
    {
        QByteArray text;
        generateS =
            bench::timeSeconds([&] { text = generatePrometheusTelemetry(doc->topology(), p); });
        up = server.start(text, serverDir);
    }
    if (!up) {
        row("skipped: " + server.error().toStdString(), 0, "");
        return;
    }
    const QString file = QDir(serverDir).filePath("telemetry.om");
    const double fileMiB = double(QFileInfo(file).size()) / (1 << 20);
    row("generate 1 h at 15 s, then promtool backfill", server.backfillSeconds(), "s",
        std::to_string(hosts * 8) + " GPUs, " + std::to_string(int(fileMiB)) +
            " MiB OpenMetrics, generated in " + std::to_string(int(generateS)) + " s");

    PrometheusQuery q;
    q.server = server.url();
    q.startS = p.startMs / 1000;
    q.endS = q.startS + int64_t(p.durationS);
    q.stepS = p.intervalS;
    const double beforeMiB = bench::rssMiB();
    ImportReport viaServer, viaFile;
    double serverS = 0, fileS = 0;
    long long requests = 0;
    const double serverPeak = peakDuringMiB([&] {
        RunStore store = RunStore::openForWriting(dir.filePath("prometheus-import.sqlite"));
        serverS = bench::timeSeconds([&] {
            PrometheusSource source(q);
            viaServer = importTelemetryTexts(
                *doc, [&](TelemetryText& t) { return source.next(t); }, {}, store);
            requests = source.requests();
        });
    });
    row("import via query_range: samples/s", double(viaServer.samples) / serverS / 1e6,
        "M samples/s",
        std::to_string(viaServer.samples) + " samples, " + std::to_string(viaServer.frames) +
            " frames, " + std::to_string(requests) + " requests, " + std::to_string(int(serverS)) +
            " s");
    row("import via query_range: peak memory", serverPeak, "MiB RSS",
        std::to_string(int(beforeMiB)) + " MiB before it");
    // Beside it: the same telemetry imported from the file the server was loaded from.
    const double filePeak = peakDuringMiB([&] {
        RunStore store = RunStore::openForWriting(dir.filePath("file-import.sqlite"));
        fileS = bench::timeSeconds([&] { viaFile = importTelemetry(*doc, {file}, {}, store); });
    });
    row("import of the same file: samples/s", double(viaFile.samples) / fileS / 1e6, "M samples/s",
        std::to_string(viaFile.samples) + " samples, " + std::to_string(viaFile.frames) +
            " frames, " + std::to_string(int(fileS)) + " s");
    row("import of the same file: peak memory", filePeak, "MiB RSS",
        std::to_string(int(beforeMiB)) + " MiB before the imports");
}
