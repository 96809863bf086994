// Run store benchmark: ingest rate, fetching a frame of 49,152 GPUs + all links of meta-both,
// one entity's history over an hour at 1 Hz, bytes per sample, beside a naive
// one-row-per-sample table; a 54-day 16K-GPU simulated run with 10 ms detail in its steps; and
// a simulated 405B step's store, its size once closed.
#include "BenchUtil.h"
#include "PrometheusImportBench.h"

#include "RunReader.h"
#include "RunWriter.h"
#include "SimulationRun.h"
#include "TelemetryParsers.h"
#include "TopologyDocument.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <sqlite3.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>

using namespace cs;

namespace {

constexpr int kGpus = 49152, kLinks = 253232, kTicks = 3600; // meta-both; 1 hour at 1 Hz
constexpr int64_t kSecond = 1'000'000'000;

void row(const char* store, const std::string& what, double value, const char* unit,
         const std::string& note = {}) {
    std::printf("| %-22s | %-52s | %12.3f %-10s | %s\n", store, what.c_str(), value, unit,
                note.c_str());
}

// A 100 MiB range-query answer (2,000 series of 2,600 points), parsed the way the importer
// reads it (events, nlohmann's SAX) beside a QJsonDocument of it (the reader before): the
// peak memory over the answer's own bytes, and the time.
void benchAnswerParse() {
    QByteArray answer = R"({"status":"success","data":{"resultType":"matrix","result":[)";
    for (int s = 0; s < 2000; ++s) {
        answer += (s ? ",{" : "{") + QByteArray(R"("metric":{"__name__":"DCGM_FI_DEV_GPU_UTIL",)") +
                  R"("Hostname":"node-)" + QByteArray::number(s / 8) + R"(","gpu":")" +
                  QByteArray::number(s % 8) + R"("},"values":[)";
        for (int k = 0; k < 2'600; ++k)
            answer += (k ? ",[" : "[") + QByteArray::number(1717200000 + k * 15) + R"(,"97.5"])";
        answer += "]}";
    }
    answer += "]}}";
    const double answerMiB = double(answer.size()) / (1 << 20);
    long long samples = 0;
    bench::releaseFreed();
    double before = bench::rssMiB();
    bench::resetPeak();
    const double eventsS = bench::timeSeconds([&] {
        std::vector<RejectedLine> rejected;
        parsePromJson(
            answer, "answer", {}, [&](RawSample&&) { ++samples; }, rejected);
    });
    const double eventsMiB = bench::peakMiB() - before;
    bench::releaseFreed();
    before = bench::rssMiB();
    bench::resetPeak();
    qsizetype series = 0;
    const double documentS = bench::timeSeconds([&] {
        const QJsonDocument doc = QJsonDocument::fromJson(answer);
        series = doc.object().value("data").toObject().value("result").toArray().size();
    });
    const double documentMiB = bench::peakMiB() - before;
    const std::string what = "a " + std::to_string(int(answerMiB)) + " MiB range-query answer";
    row("Prometheus answer", what + ", read as events", eventsMiB, "MiB more",
        std::to_string(samples) + " samples in " + std::to_string(eventsS).substr(0, 4) + " s");
    row("Prometheus answer", "baseline: as one QJsonDocument (before)", documentMiB, "MiB more",
        std::to_string(series) + " series in " + std::to_string(documentS).substr(0, 4) +
            " s (the document alone, no samples taken)");
}

double fileMiB(const QString& path) {
    return double(QFileInfo(path).size() + QFileInfo(path + "-wal").size()) / (1 << 20);
}

// 54 days of a 16,384-GPU job on meta-roce-24k with 10 ms detail inside each 6.5 s step: the
// step stored once (a pipeline wave over 16 stages, DP bursts on the rack uplinks at its
// start and end), checkpoints every 15 minutes, 500 interruptions, as a timeline.
void benchLongSimulatedRun(const QTemporaryDir& dir, std::mt19937& rng) {
    const auto doc = openTopology("meta-roce-24k", {});
    const Topology& t = doc->topology();
    constexpr int kJobGpus = 16384, kStages = 16;
    constexpr int64_t kMs = 1'000'000, kStepNs = 6500 * kMs, kDayNs = 86400 * kSecond;
    constexpr int64_t kSpanNs = 54 * kDayNs;
    const int frames = int(kStepNs / (10 * kMs));
    const QString path = dir.filePath("54d.sqlite");
    std::vector<size_t> uplinks;
    for (size_t l = 0; l < t.links.size(); ++l)
        if (tierOfLink(t, int32_t(l)) == 1) uplinks.push_back(l);
    long long segments = 0;
    RunWriter::Counts counts;
    const double write = bench::timeSeconds([&] {
        RunStore s = RunStore::openForWriting(path);
        RunWriter w(s, t, {"simulated", "54 days", "{}", 0});
        const int32_t step = w.addPattern("step", kStepNs);
        std::vector<float> gpus(t.gpus.size(), NAN), links(t.links.size(), 0.f);
        for (int k = 0; k < frames; ++k) {
            const double at = double(k) / frames; // fraction of the step
            for (int g = 0; g < kJobGpus; ++g) {
                const int stage = g / (kJobGpus / kStages);
                const double from = 0.03 + 0.004 * stage, to = 0.93 - 0.004 * (kStages - 1 - stage);
                // Busy between its first forward and last backward, with a p2p wait every
                // 16 frames.
                gpus[size_t(g)] = at < from || at > to ? 0.f : (k + stage) % 16 == 0 ? 0.6f : 1.f;
            }
            const bool burst = at < 0.03 || at > 0.93;
            for (size_t i = 0; i < uplinks.size(); ++i)
                links[uplinks[i]] = burst ? float(20e9 + 1e9 * ((i + size_t(k)) % 17)) : 1e8f;
            w.addFrame(step, Metric::GpuBusy, k * 10 * kMs, gpus);
            w.addFrame(step, Metric::LinkBytesPerS, k * 10 * kMs, links);
        }
        const int32_t checkpoint = w.addPattern("checkpoint", 3 * kSecond);
        const int32_t down = w.addPattern("down", 1);
        for (int32_t p : {checkpoint, down}) {
            std::vector<float> idle(t.gpus.size(), NAN);
            std::fill(idle.begin(), idle.begin() + kJobGpus, 0.f);
            w.addFrame(p, Metric::GpuBusy, 0, idle);
            w.addFrame(p, Metric::LinkBytesPerS, 0, std::vector<float>(t.links.size(), 0.f));
        }
        // Timeline: every 15 minutes a 3 s checkpoint; 500 interruptions of 20 minutes.
        std::vector<int64_t> failures;
        std::uniform_int_distribution<int64_t> anywhen(0, kSpanNs - 40 * 60 * kSecond);
        for (int i = 0; i < 500; ++i)
            failures.push_back(anywhen(rng));
        std::sort(failures.begin(), failures.end());
        int64_t now = 0, nextCkpt = 15 * 60 * kSecond;
        size_t f = 0;
        while (now < kSpanNs) {
            const int64_t nextFail = f < failures.size() ? failures[f] : kSpanNs;
            const int64_t until = std::min({nextCkpt, nextFail, kSpanNs});
            if (until > now) w.addSegment(now, until, step, kStepNs), ++segments;
            now = until;
            if (now >= kSpanNs) break;
            const bool fails = nextFail <= nextCkpt;
            const int64_t pause = fails ? 20 * 60 * kSecond : 3 * kSecond;
            w.addSegment(now, std::min(kSpanNs, now + pause), fails ? down : checkpoint, 0);
            ++segments;
            if (fails) {
                w.addEvent(now, EventKind::Failure, Endpoint{EntityKind::Gpu, int32_t(f)}, "bench");
                w.addEvent(now + pause, EventKind::Restart, std::nullopt, "bench");
                ++f;
                while (f < failures.size() && failures[f] < now + pause)
                    ++f;
            }
            now += pause;
            while (nextCkpt <= now)
                nextCkpt += 15 * 60 * kSecond;
        }
        w.finish(kSpanNs, "{}");
        counts = w.counts();
        s.checkpoint();
    });
    row("54 d, 16K GPUs, 10 ms", "write (step pattern + timeline)", write, "s",
        std::to_string(frames) + " frames per step, " + std::to_string(segments) + " segments, " +
            std::to_string(counts.keyFrames) + " key frames");
    row("54 d, 16K GPUs, 10 ms", "file size", fileMiB(path), "MiB",
        "(as 10 ms frames of every value: " +
            std::to_string(int64_t(double(kSpanNs / (10 * kMs)) *
                                   double(t.gpus.size() + t.links.size()) * 4 / 1e12)) +
            " TB)");
    RunReader r(path, t);
    std::uniform_int_distribution<int64_t> when(0, kSpanNs - 1);
    size_t got = 0;
    const int reps = 200;
    const double fetch = bench::timeSeconds([&] {
        for (int i = 0; i < reps; ++i) {
            const int64_t at = when(rng);
            got += r.frame(Metric::GpuBusy, at).size() + r.frame(Metric::LinkBytesPerS, at).size();
        }
    });
    row("54 d, 16K GPUs, 10 ms", "frame at random t: 24,576 GPUs + 120,624 links",
        fetch / reps * 1e3, "ms", std::to_string(got / reps) + " values");
    std::uniform_int_distribution<int32_t> who(0, kJobGpus - 1);
    for (auto [label, lengthNs] : {std::pair<const char*, int64_t>{"whole 54 days", kSpanNs},
                                   {"random 1 h", 3600 * kSecond},
                                   {"random 10 s", 10 * kSecond}}) {
        size_t points = 0;
        const int hreps = 20;
        const double hist = bench::timeSeconds([&] {
            for (int i = 0; i < hreps; ++i) {
                const int64_t from = lengthNs == kSpanNs ? 0 : when(rng) % (kSpanNs - lengthNs);
                points +=
                    r.history(Metric::GpuBusy, who(rng), from, from + lengthNs, 2000).tsNs.size();
            }
        });
        row("54 d, 16K GPUs, 10 ms", std::string("one GPU's history at 2,000 points, ") + label,
            hist / hreps * 1e3, "ms", std::to_string(points / hreps) + " points");
    }
}

} // namespace

// A simulated 405B step on 16,384 GPUs of meta-roce-24k at 10 ms, as `simulate --out` writes
// it: what it costs to write and what stays on disk once the store is closed.
void simulatedStep(const QString& path) {
    const auto doc = openTopology("meta-roce-24k", {});
    RunSpec spec;
    spec.parallel.tp = 8, spec.parallel.cp = 1, spec.parallel.pp = 16, spec.parallel.dp = 128;
    spec.steps = 1;
    qint64 openBytes = 0;
    double writeS = 0;
    {
        RunStore store = RunStore::openForWriting(path);
        writeS = bench::timeSeconds([&] { simulateRun(*doc, spec, &store); });
        openBytes = QFileInfo(path).size() + QFileInfo(path + "-wal").size();
    }
    row("405B step, 16K GPUs", "simulate and write", writeS, "s");
    row("405B step, 16K GPUs", "file size while open (with its log)", double(openBytes) / (1 << 20),
        "MiB");
    row("405B step, 16K GPUs", "file size after close", fileMiB(path), "MiB", "what stays on disk");
}

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv); // the Prometheus rows talk HTTP
    QTemporaryDir dir;
    std::printf("| %-22s | %-52s | %-23s | notes\n", "store", "measure", "value");
    std::printf(
        "|------------------------|------------------------------------------------------|---------"
        "----------------|------\n");
    // CS_BENCH_ONLY=prometheus: the Prometheus rows alone (the rest takes a quarter of an hour).
    if (qEnvironmentVariable("CS_BENCH_ONLY") == "prometheus") {
        benchAnswerParse();
        benchPrometheusImport(dir.path());
        return 0;
    }
    simulatedStep(dir.filePath("step.sqlite"));
    std::mt19937 rng(1);
    std::vector<float> frame(kGpus);
    for (float& v : frame)
        v = std::uniform_real_distribution<float>(0, 1)(rng);

    // The store: key frames and changes per tick, per-entity history chunks.
    const auto both = openTopology("meta-both", {});
    const QString path = dir.filePath("blob.sqlite");
    {
        RunStore s = RunStore::openForWriting(path);
        RunWriter w(s, both->topology(), {"recorded", "bench", "{}", 0});
        const int32_t p = w.addPattern("recording", kTicks * kSecond);
        const double ingest = bench::timeSeconds([&] {
            for (int t = 0; t < kTicks; ++t) {
                for (float& v : frame) // every value changes every tick, as recorded data does
                    v = std::uniform_real_distribution<float>(0, 1)(rng);
                w.addFrame(p, Metric::GpuBusy, t * kSecond, frame);
            }
            w.addFrame(p, Metric::LinkBytesPerS, 0, std::vector<float>(kLinks, 1e9f));
            w.addSegment(0, kTicks * kSecond, p, 0);
        });
        const double commit = bench::timeSeconds([&] { w.finish(kTicks * kSecond, "{}"); });
        s.checkpoint();
        const double samples = double(kGpus) * kTicks;
        row("store", "ingest incl. history chunks and commit", samples / (ingest + commit) / 1e6,
            "M samples/s",
            std::to_string(kTicks) + " frames of " + std::to_string(kGpus) + " GPUs");
        row("store", "bytes per sample (file / samples)",
            fileMiB(path) * (1 << 20) / (samples + kLinks), "B");
    }
    {
        RunReader r(path, both->topology());
        std::uniform_int_distribution<int64_t> when(0, kTicks - 1);
        size_t got = 0;
        const int reps = 200;
        const double fetch = bench::timeSeconds([&] {
            for (int i = 0; i < reps; ++i) {
                const int64_t t = when(rng) * kSecond;
                got +=
                    r.frame(Metric::GpuBusy, t).size() + r.frame(Metric::LinkBytesPerS, t).size();
            }
        });
        row("store", "frame at random t: 49,152 GPUs + 253,232 links", fetch / reps * 1e3, "ms",
            std::to_string(got / reps) + " values");
        std::uniform_int_distribution<int32_t> who(0, kGpus - 1);
        size_t points = 0;
        const int hreps = 50;
        const double hist = bench::timeSeconds([&] {
            for (int i = 0; i < hreps; ++i)
                points +=
                    r.history(Metric::GpuBusy, who(rng), 0, kTicks * kSecond, 4000).tsNs.size();
        });
        row("store", "one GPU's history, 1 hour at 1 Hz", hist / hreps * 1e3, "ms",
            std::to_string(points / hreps) + " points");
    }
    benchLongSimulatedRun(dir, rng);

    // Naive: one row per sample, (run, metric, entity, ts) primary key. Fewer ticks: it is slow.
    constexpr int kNaiveTicks = 60;
    const QString npath = dir.filePath("naive.sqlite");
    sqlite3* db = nullptr;
    sqlite3_open(npath.toUtf8().constData(), &db);
    sqlite3_exec(db,
                 "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; CREATE TABLE samples(run "
                 "INTEGER, metric INTEGER, "
                 "entity INTEGER, ts INTEGER, value REAL, PRIMARY KEY(run, metric, entity, ts)) "
                 "WITHOUT ROWID;",
                 nullptr, nullptr, nullptr);
    sqlite3_stmt* ins = nullptr;
    sqlite3_prepare_v2(db, "INSERT INTO samples VALUES(1,1,?,?,?)", -1, &ins, nullptr);
    const double ningest = bench::timeSeconds([&] {
        sqlite3_exec(db, "BEGIN", nullptr, nullptr, nullptr);
        for (int t = 0; t < kNaiveTicks; ++t)
            for (int e = 0; e < kGpus; ++e) {
                sqlite3_bind_int64(ins, 1, e);
                sqlite3_bind_int64(ins, 2, t * kSecond);
                sqlite3_bind_double(ins, 3, frame[size_t(e)]);
                sqlite3_step(ins);
                sqlite3_reset(ins);
            }
        sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr);
    });
    sqlite3_finalize(ins);
    sqlite3_exec(db, "PRAGMA wal_checkpoint(TRUNCATE)", nullptr, nullptr, nullptr);
    const double nsamples = double(kGpus) * kNaiveTicks;
    row("naive row per sample", "ingest", nsamples / ningest / 1e6, "M samples/s",
        std::to_string(kNaiveTicks) + " ticks");
    row("naive row per sample", "bytes per sample", fileMiB(npath) * (1 << 20) / nsamples, "B");
    sqlite3_stmt* frameQ = nullptr;
    sqlite3_prepare_v2(
        db, "SELECT entity, value FROM samples WHERE run=1 AND metric=1 AND ts=? ORDER BY entity",
        -1, &frameQ, nullptr);
    size_t rows = 0;
    const double nfetch = bench::timeSeconds([&] {
        for (int i = 0; i < 20; ++i) {
            sqlite3_bind_int64(frameQ, 1, (i % kNaiveTicks) * kSecond);
            while (sqlite3_step(frameQ) == SQLITE_ROW)
                ++rows;
            sqlite3_reset(frameQ);
        }
    });
    sqlite3_finalize(frameQ);
    row("naive row per sample", "frame at t: 49,152 GPUs (no links)", nfetch / 20 * 1e3, "ms",
        std::to_string(rows / 20) + " rows");
    sqlite3_stmt* histQ = nullptr;
    sqlite3_prepare_v2(db,
                       "SELECT ts, value FROM samples WHERE run=1 AND metric=1 AND entity=? AND ts "
                       "BETWEEN ? AND ?",
                       -1, &histQ, nullptr);
    rows = 0;
    const double nhist = bench::timeSeconds([&] {
        for (int i = 0; i < 50; ++i) {
            sqlite3_bind_int64(histQ, 1, i * 97);
            sqlite3_bind_int64(histQ, 2, 0);
            sqlite3_bind_int64(histQ, 3, kNaiveTicks * kSecond);
            while (sqlite3_step(histQ) == SQLITE_ROW)
                ++rows;
            sqlite3_reset(histQ);
        }
    });
    sqlite3_finalize(histQ);
    row("naive row per sample", "one GPU's history (60 s at 1 Hz)", nhist / 50 * 1e3, "ms",
        std::to_string(rows / 50) + " points");
    sqlite3_close(db);
    benchAnswerParse();
    benchPrometheusImport(dir.path());
    return 0;
}
