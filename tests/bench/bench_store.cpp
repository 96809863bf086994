// Telemetry store benchmark: ingest rate, fetching a frame of 49,152 GPUs + all links of
// meta-both, one entity's history over an hour at 1 Hz, bytes per sample, beside a naive
// one-row-per-sample table in the same run.
#include "BenchUtil.h"

#include "RunStore.h"

#include <QFileInfo>
#include <QTemporaryDir>

#include <sqlite3.h>

#include <cstdio>
#include <random>

using namespace cs;

namespace {

constexpr int kGpus = 49152, kLinks = 253232, kTicks = 3600; // meta-both; 1 hour at 1 Hz
constexpr int64_t kSecond = 1'000'000'000;

void row(const char* store, const char* what, double value, const char* unit,
         const std::string& note = {}) {
    std::printf("| %-22s | %-44s | %12.3f %-10s | %s\n", store, what, value, unit, note.c_str());
}

double fileMiB(const QString& path) {
    return double(QFileInfo(path).size() + QFileInfo(path + "-wal").size()) / (1 << 20);
}

} // namespace

int main() {
    QTemporaryDir dir;
    std::printf("| %-22s | %-44s | %-23s | notes\n", "store", "measure", "value");
    std::printf("|------------------------|----------------------------------------------|---------"
                "----------------|------\n");
    std::mt19937 rng(1);
    std::vector<float> frame(kGpus);
    for (float& v : frame)
        v = std::uniform_real_distribution<float>(0, 1)(rng);

    // Blob per tick + per-entity history chunks.
    const QString path = dir.filePath("blob.sqlite");
    {
        RunStore s = RunStore::openForWriting(path);
        s.begin();
        const int64_t run = s.addRun("recorded", "bench", "meta-both", "{}");
        const int64_t gpu = s.metric({"gpu_busy", "fraction", "gauge", "gpu"});
        const int64_t link = s.metric({"link_bytes_per_s", "B/s", "gauge", "link"});
        const double ingest = bench::timeSeconds([&] {
            for (int t = 0; t < kTicks; ++t) {
                frame[size_t(t) % frame.size()] = float(t); // every frame differs
                s.addFrame(run, gpu, t * kSecond, frame);
            }
        });
        s.addFrame(run, link, 0, std::vector<float>(kLinks, 1e9f));
        const double history = bench::timeSeconds([&] { s.buildHistory(run); });
        s.finishRun(run, kTicks * kSecond, "{}");
        const double commit = bench::timeSeconds([&] { s.commit(); });
        s.checkpoint();
        const double samples = double(kGpus) * kTicks;
        row("blob per tick", "ingest, frames only", samples / ingest / 1e6, "M samples/s",
            std::to_string(kTicks) + " frames of " + std::to_string(kGpus) + " GPUs");
        row("blob per tick", "ingest incl. history chunks and commit",
            samples / (ingest + history + commit) / 1e6, "M samples/s");
        row("blob per tick", "bytes per sample (file / samples)",
            fileMiB(path) * (1 << 20) / (samples + kLinks), "B");
    }
    {
        const RunStore s = RunStore::openForReading(path);
        const int64_t run = s.runs().front();
        const int64_t gpu = *s.metricId("gpu_busy"), link = *s.metricId("link_bytes_per_s");
        std::uniform_int_distribution<int64_t> when(0, kTicks - 1);
        size_t got = 0;
        const int reps = 200;
        const double fetch = bench::timeSeconds([&] {
            for (int i = 0; i < reps; ++i) {
                const int64_t t = when(rng) * kSecond;
                got += s.frameAt(run, gpu, t).size() + s.frameAt(run, link, t).size();
            }
        });
        row("blob per tick", "frame at t: 49,152 GPUs + 253,232 links", fetch / reps * 1e3, "ms",
            std::to_string(got / reps) + " values");
        std::uniform_int_distribution<int64_t> who(0, kGpus - 1);
        size_t points = 0;
        const int hreps = 50;
        const double hist = bench::timeSeconds([&] {
            for (int i = 0; i < hreps; ++i)
                points += s.entityHistory(run, gpu, who(rng), 0, kTicks * kSecond).size();
        });
        row("blob per tick", "one GPU's history, 1 hour at 1 Hz", hist / hreps * 1e3, "ms",
            std::to_string(points / hreps) + " points");
    }

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
    return 0;
}
