// Run stores as another program (or a damaged disk) might leave them: a valid store holding
// a recorded run (with failures) and a simulated run (with composed traffic) is changed by
// the input — cells set to NULL, integers, reals, text or blobs of any size, rows deleted,
// tables rebuilt without their constraints, bytes of the file overwritten — then opened and
// read as the GUI reads it: every frame, failures, histories, statistics, scalars.
#include "FuzzSupport.h"
#include "InputError.h"
#include "RunOverview.h"
#include "RunReader.h"
#include "SimulationRun.h"
#include "TelemetryImporter.h"

#include <QFile>

#include <sqlite3.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

const char* const kTables[] = {
    "meta",        "runs",    "run_metrics",      "patterns",        "timeline", "frames",
    "frame_stats", "history", "composed_sources", "composed_frames", "scalars",  "events"};
constexpr int kTableCount = int(sizeof kTables / sizeof kTables[0]);

// The store every input starts from, made once.
QByteArray baseStore() {
    static const QByteArray bytes = [] {
        const QString path = fuzz::scratchDir() + "/base.sqlite";
        const cs::TopologyDocument& doc = fuzz::smallTopology();
        {
            cs::RunStore s = cs::RunStore::openForWriting(path);
            cs::importTelemetry(
                doc, {CS_SOURCE_DIR "/resources/telemetry/small-256-4hosts-3m.prom"}, {}, s);
            cs::RunSpec spec;
            spec.model = "llama3-8b";
            spec.parallel.tp = 8, spec.parallel.pp = 4, spec.parallel.dp = 8;
            spec.steps = 2;
            cs::simulateRun(doc, spec, &s);
        }
        QFile f(path);
        f.open(QIODevice::ReadOnly);
        return f.readAll();
    }();
    return bytes;
}

struct Input {
    const uint8_t* p;
    size_t left;
    bool empty() const { return left == 0; }
    uint8_t byte() {
        if (!left) return 0;
        --left;
        return *p++;
    }
    uint64_t u64() {
        uint64_t v = 0;
        for (int i = 0; i < 8; ++i)
            v = v << 8 | byte();
        return v;
    }
    std::string bytes(size_t n) {
        n = std::min(n, left);
        std::string s(reinterpret_cast<const char*>(p), n);
        p += n, left -= n;
        return s;
    }
};

std::vector<std::string> columnsOf(sqlite3* db, const char* table, std::vector<std::string>* pk) {
    std::vector<std::string> cols;
    sqlite3_stmt* s = nullptr;
    sqlite3_prepare_v2(db, (std::string("PRAGMA table_info(") + table + ")").c_str(), -1, &s,
                       nullptr);
    while (s && sqlite3_step(s) == SQLITE_ROW) {
        cols.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(s, 1)));
        if (sqlite3_column_int(s, 5) > 0) pk->push_back(cols.back());
    }
    sqlite3_finalize(s);
    return cols;
}

std::string join(const std::vector<std::string>& v) {
    std::string out;
    for (const std::string& x : v)
        out += (out.empty() ? "" : ",") + x;
    return out;
}

// One change to the database, as the input says: table, row, what to do, column, value.
void mutate(sqlite3* db, Input& in) {
    const char* table = kTables[in.byte() % kTableCount];
    const int rowOffset = in.byte() % 64;
    const uint8_t op = in.byte() % 8;
    const uint8_t column = in.byte();
    std::vector<std::string> pk;
    const std::vector<std::string> cols = columnsOf(db, table, &pk);
    if (cols.empty()) return;
    // The row: the k-th by its key (rowid tables: by rowid).
    const std::string key = pk.empty() ? "rowid" : "(" + join(pk) + ")";
    const std::string row = key + " = (SELECT " + (pk.empty() ? "rowid" : join(pk)) + " FROM " +
                            table + " LIMIT 1 OFFSET " + std::to_string(rowOffset) + ")";
    if (op == 6) { // delete the row
        sqlite3_exec(db, ("DELETE FROM " + std::string(table) + " WHERE " + row).c_str(), nullptr,
                     nullptr, nullptr);
        return;
    }
    if (op == 7) { // rebuild the table without NOT NULL, CHECK, keys
        const std::string t(table);
        sqlite3_exec(db,
                     ("CREATE TABLE loose AS SELECT * FROM " + t + "; DROP TABLE " + t +
                      "; ALTER TABLE loose RENAME TO " + t + ";")
                         .c_str(),
                     nullptr, nullptr, nullptr);
        return;
    }
    const std::string& col = cols[column % cols.size()];
    sqlite3_stmt* s = nullptr;
    const std::string sql = "UPDATE " + std::string(table) + " SET " + col + " = " +
                            (op == 5 ? "substr(" + col + ", 1, ?)" : std::string("?")) + " WHERE " +
                            row;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &s, nullptr) != SQLITE_OK) return;
    switch (op) {
    case 0:
        sqlite3_bind_null(s, 1);
        break;
    case 1:
        sqlite3_bind_int64(s, 1, int64_t(in.u64()));
        break;
    case 2: {
        const uint64_t bits = in.u64();
        double d;
        std::memcpy(&d, &bits, sizeof d);
        sqlite3_bind_double(s, 1, d);
        break;
    }
    case 3: {
        const std::string text = in.bytes(in.byte());
        sqlite3_bind_text(s, 1, text.data(), int(text.size()), SQLITE_TRANSIENT);
        break;
    }
    case 4: {
        const std::string blob = in.bytes(in.byte());
        sqlite3_bind_blob(s, 1, blob.data(), int(blob.size()), SQLITE_TRANSIENT);
        break;
    }
    case 5:
        sqlite3_bind_int(s, 1, in.byte() % 32);
        break; // a blob or text cut short
    }
    sqlite3_step(s);
    sqlite3_finalize(s);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    Input in{data, size};
    const QString path = fuzz::scratchDir() + "/store.sqlite";
    for (const char* suffix : {"-wal", "-shm"})
        QFile::remove(path + suffix);
    fuzz::writeScratch("store.sqlite", baseStore());
    const bool recorded = in.byte() % 2 == 0; // which of the two runs to open
    bool changed = false;
    {
        sqlite3* db = nullptr;
        if (sqlite3_open(path.toUtf8().constData(), &db) == SQLITE_OK) {
            sqlite3_exec(db, "BEGIN", nullptr, nullptr, nullptr);
            for (int ops = in.byte() % 8; ops > 0 && !in.empty(); --ops, changed = true)
                mutate(db, in);
            sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr);
        }
        sqlite3_close(db);
    }
    // What is left of the input overwrites bytes of the file: (offset, byte) pairs.
    if (!in.empty()) {
        QFile f(path);
        if (f.open(QIODevice::ReadWrite)) {
            const qint64 fileSize = f.size();
            while (in.left >= 5 && fileSize > 0) {
                const uint32_t at = uint32_t(in.byte()) << 24 | uint32_t(in.byte()) << 16 |
                                    uint32_t(in.byte()) << 8 | in.byte();
                const char b = char(in.byte());
                f.seek(qint64(at % uint64_t(fileSize)));
                f.write(&b, 1);
                changed = true;
            }
        }
    }
    const cs::Topology& t = fuzz::smallTopology().topology();
    try {
        cs::RunReader r(path, t, recorded ? std::optional<int64_t>(1) : std::nullopt);
        const int64_t endNs = r.info().endNs;
        for (int k = 0; k <= 16; ++k) { // no sum of times: a hostile end may be near 2^63
            const int64_t at = endNs / 16 * k;
            (void)r.frameAt(at);
            (void)r.failedAt(at);
        }
        (void)r.history(cs::Metric::GpuBusy, 0, 0, endNs, 200);
        (void)r.history(cs::Metric::LinkBytesPerS, 0, 0, endNs, 200);
        (void)r.statHistory(cs::Metric::GpuBusy, cs::FrameStat::Mean, 0, endNs, 200);
        (void)r.scalars(cs::Metric::StepTimeS, 0, endNs, 200);
        (void)cs::overviewOf(r, 200);
    } catch (const cs::InputException& e) {
        // The store as made must open: else every input tests only the refusal.
        if (!changed) {
            std::fprintf(stderr, "the unchanged store is refused: %s\n", e.what());
            std::abort();
        }
    }
    return 0;
}
