#include "RunStore.h"

#include <sqlite3.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <memory>

namespace cs {
namespace {

constexpr int32_t kApplicationId = 0x43534331; // "CSC1": a ClusterScope store

struct StmtDeleter {
    void operator()(sqlite3_stmt* s) const { sqlite3_finalize(s); }
};
using Stmt = std::unique_ptr<sqlite3_stmt, StmtDeleter>;

const char* kSchema = R"sql(
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs(id INTEGER PRIMARY KEY, kind TEXT NOT NULL CHECK(kind IN ('simulated','recorded')),
  name TEXT NOT NULL, topology TEXT NOT NULL, start_ns INTEGER NOT NULL DEFAULT 0, end_ns INTEGER NOT NULL DEFAULT 0,
  params_json TEXT NOT NULL DEFAULT '{}', summary_json TEXT NOT NULL DEFAULT '{}');
CREATE TABLE IF NOT EXISTS metrics(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, unit TEXT NOT NULL,
  kind TEXT NOT NULL CHECK(kind IN ('gauge','counter')), entity_kind TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS frames(run INTEGER NOT NULL, metric INTEGER NOT NULL, ts_ns INTEGER NOT NULL, vals BLOB NOT NULL,
  PRIMARY KEY(run, metric, ts_ns)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS scalars(run INTEGER NOT NULL, metric INTEGER NOT NULL, ts_ns INTEGER NOT NULL, value REAL NOT NULL,
  PRIMARY KEY(run, metric, ts_ns)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS events(run INTEGER NOT NULL, ts_ns INTEGER NOT NULL, kind TEXT NOT NULL, entity_kind TEXT NOT NULL,
  entity INTEGER NOT NULL, detail TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS events_by_time ON events(run, ts_ns);
CREATE TABLE IF NOT EXISTS history_ts(run INTEGER NOT NULL, metric INTEGER NOT NULL, chunk INTEGER NOT NULL,
  first_ns INTEGER NOT NULL, last_ns INTEGER NOT NULL, ts BLOB NOT NULL, PRIMARY KEY(run, metric, chunk)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS history(run INTEGER NOT NULL, metric INTEGER NOT NULL, entity INTEGER NOT NULL, chunk INTEGER NOT NULL,
  vals BLOB NOT NULL, PRIMARY KEY(run, metric, entity, chunk)) WITHOUT ROWID;
)sql";

} // namespace

RunStore::RunStore(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}

RunStore::RunStore(RunStore&& o) noexcept
    : db_(o.db_), path_(std::move(o.path_)), inTransaction_(o.inTransaction_) {
    o.db_ = nullptr;
}

RunStore& RunStore::operator=(RunStore&& o) noexcept {
    std::swap(db_, o.db_);
    std::swap(path_, o.path_);
    std::swap(inTransaction_, o.inTransaction_);
    std::swap(cache_, o.cache_);
    return *this;
}

RunStore::~RunStore() {
    finalizeCached();
    if (!db_) return;
    if (inTransaction_) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    sqlite3_close(db_);
}

void RunStore::fail(const std::string& what) const {
    throw InputException(
        {path_, 0, 0, {}, what + (db_ ? std::string(": ") + sqlite3_errmsg(db_) : std::string())});
}

void RunStore::exec(const char* sql) const {
    char* err = nullptr;
    if (sqlite3_exec(db_, sql, nullptr, nullptr, &err) != SQLITE_OK) {
        const std::string msg = err ? err : "error";
        sqlite3_free(err);
        throw InputException({path_, 0, 0, {}, msg});
    }
}

sqlite3_stmt* RunStore::cached(const char* sql) const {
    for (auto& [key, stmt] : cache_)
        if (key == sql) {
            sqlite3_reset(stmt);
            sqlite3_clear_bindings(stmt);
            return stmt;
        }
    cache_.emplace_back(sql, prepare(sql));
    return cache_.back().second;
}

void RunStore::finalizeCached() {
    for (auto& [key, stmt] : cache_)
        sqlite3_finalize(stmt);
    cache_.clear();
}

sqlite3_stmt* RunStore::prepare(const char* sql) const {
    sqlite3_stmt* s = nullptr;
    if (sqlite3_prepare_v2(db_, sql, -1, &s, nullptr) != SQLITE_OK)
        fail("cannot prepare a statement");
    return s;
}

static sqlite3* openDb(const std::string& path, int flags) {
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(path.c_str(), &db, flags, nullptr) != SQLITE_OK) {
        const std::string msg = db ? sqlite3_errmsg(db) : "out of memory";
        sqlite3_close(db);
        throw InputException({path, 0, 0, {}, "cannot open: " + msg});
    }
    sqlite3_busy_timeout(db, 2000);
    return db;
}

// A file is ours if it carries our application id (or is empty, when creating).
static void checkIdentity(RunStore& store, sqlite3* db, const std::string& path, bool allowEmpty) {
    (void)store;
    auto scalar = [&](const char* sql, int64_t& out) {
        sqlite3_stmt* s = nullptr;
        if (sqlite3_prepare_v2(db, sql, -1, &s, nullptr) != SQLITE_OK) {
            sqlite3_finalize(s);
            return false;
        }
        const bool ok = sqlite3_step(s) == SQLITE_ROW;
        if (ok) out = sqlite3_column_int64(s, 0);
        sqlite3_finalize(s);
        return ok;
    };
    int64_t appId = 0, version = 0, tables = 0;
    if (!scalar("PRAGMA application_id", appId) || !scalar("PRAGMA user_version", version) ||
        !scalar("SELECT count(*) FROM sqlite_master", tables))
        throw InputException(
            {path, 0, 0, {}, "not a ClusterScope run store (not a readable SQLite database)"});
    if (appId == 0 && tables == 0 && allowEmpty) return;
    if (appId != kApplicationId)
        throw InputException(
            {path, 0, 0, {}, "not a ClusterScope run store (a foreign SQLite database)"});
    if (version > kRunStoreSchemaVersion)
        throw InputException({path,
                              0,
                              0,
                              {},
                              "written by a newer ClusterScope (schema " + std::to_string(version) +
                                  ", this build reads " + std::to_string(kRunStoreSchemaVersion) +
                                  ")"});
}

RunStore RunStore::openForWriting(const QString& qpath) {
    const std::string path = qpath.toStdString();
    sqlite3* db = openDb(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    RunStore store(db, path);
    checkIdentity(store, db, path, true);
    // 64 KiB pages: a frame of 250k links is a 1 MB blob, read in 16 pages rather than 250.
    store.exec("PRAGMA page_size=65536; PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA "
               "mmap_size=1073741824;");
    store.exec(kSchema);
    store.exec(("PRAGMA application_id=" + std::to_string(kApplicationId) +
                "; PRAGMA user_version=" + std::to_string(kRunStoreSchemaVersion) + ";")
                   .c_str());
    store.exec("INSERT OR IGNORE INTO meta VALUES('format','clusterscope-runs'),('schema','1');");
    return store;
}

RunStore RunStore::openForReading(const QString& qpath) {
    const std::string path = qpath.toStdString();
    sqlite3* db = openDb(path, SQLITE_OPEN_READONLY);
    RunStore store(db, path);
    checkIdentity(store, db, path, false);
    store.exec("PRAGMA mmap_size=1073741824;"); // frames are read straight from the mapped file
    return store;
}

void RunStore::begin() {
    exec("BEGIN IMMEDIATE");
    inTransaction_ = true;
}

void RunStore::checkpoint() {
    exec("PRAGMA wal_checkpoint(TRUNCATE)");
}

void RunStore::commit() {
    exec("COMMIT");
    inTransaction_ = false;
}

int64_t RunStore::addRun(const std::string& kind, const std::string& name,
                         const std::string& topology, const std::string& paramsJson) {
    Stmt s(prepare("INSERT INTO runs(kind, name, topology, params_json) VALUES(?,?,?,?)"));
    sqlite3_bind_text(s.get(), 1, kind.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(s.get(), 2, name.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(s.get(), 3, topology.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(s.get(), 4, paramsJson.c_str(), -1, SQLITE_TRANSIENT);
    if (sqlite3_step(s.get()) != SQLITE_DONE) fail("cannot add a run");
    return sqlite3_last_insert_rowid(db_);
}

void RunStore::finishRun(int64_t run, int64_t endNs, const std::string& summaryJson) {
    Stmt s(prepare("UPDATE runs SET end_ns=?, summary_json=? WHERE id=?"));
    sqlite3_bind_int64(s.get(), 1, endNs);
    sqlite3_bind_text(s.get(), 2, summaryJson.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(s.get(), 3, run);
    if (sqlite3_step(s.get()) != SQLITE_DONE) fail("cannot finish the run");
}

int64_t RunStore::metric(const MetricInfo& m) {
    if (auto id = metricId(m.name)) return *id;
    Stmt s(prepare("INSERT INTO metrics(name, unit, kind, entity_kind) VALUES(?,?,?,?)"));
    sqlite3_bind_text(s.get(), 1, m.name.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(s.get(), 2, m.unit.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(s.get(), 3, m.kind.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(s.get(), 4, m.entityKind.c_str(), -1, SQLITE_TRANSIENT);
    if (sqlite3_step(s.get()) != SQLITE_DONE) fail("cannot add a metric");
    return sqlite3_last_insert_rowid(db_);
}

std::optional<int64_t> RunStore::metricId(const std::string& name) const {
    Stmt s(prepare("SELECT id FROM metrics WHERE name=?"));
    sqlite3_bind_text(s.get(), 1, name.c_str(), -1, SQLITE_TRANSIENT);
    if (sqlite3_step(s.get()) == SQLITE_ROW) return sqlite3_column_int64(s.get(), 0);
    return std::nullopt;
}

void RunStore::addFrame(int64_t run, int64_t metric, int64_t tsNs,
                        const std::vector<float>& values) {
    Stmt s(prepare("INSERT OR REPLACE INTO frames VALUES(?,?,?,?)"));
    sqlite3_bind_int64(s.get(), 1, run);
    sqlite3_bind_int64(s.get(), 2, metric);
    sqlite3_bind_int64(s.get(), 3, tsNs);
    sqlite3_bind_blob(s.get(), 4, values.data(), int(values.size() * sizeof(float)),
                      SQLITE_TRANSIENT);
    if (sqlite3_step(s.get()) != SQLITE_DONE) fail("cannot add a frame");
}

void RunStore::addScalar(int64_t run, int64_t metric, int64_t tsNs, double value) {
    sqlite3_stmt* s = cached("INSERT OR REPLACE INTO scalars VALUES(?,?,?,?)");
    sqlite3_bind_int64(s, 1, run);
    sqlite3_bind_int64(s, 2, metric);
    sqlite3_bind_int64(s, 3, tsNs);
    sqlite3_bind_double(s, 4, value);
    if (sqlite3_step(s) != SQLITE_DONE) fail("cannot add a value");
    sqlite3_reset(s);
}

void RunStore::addEvent(int64_t run, int64_t tsNs, const std::string& kind,
                        const std::string& entityKind, int64_t entity, const std::string& detail) {
    Stmt s(prepare("INSERT INTO events VALUES(?,?,?,?,?,?)"));
    sqlite3_bind_int64(s.get(), 1, run);
    sqlite3_bind_int64(s.get(), 2, tsNs);
    sqlite3_bind_text(s.get(), 3, kind.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(s.get(), 4, entityKind.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(s.get(), 5, entity);
    sqlite3_bind_text(s.get(), 6, detail.c_str(), -1, SQLITE_TRANSIENT);
    if (sqlite3_step(s.get()) != SQLITE_DONE) fail("cannot add an event");
}

std::vector<int64_t> RunStore::runs() const {
    std::vector<int64_t> out;
    Stmt s(prepare("SELECT id FROM runs ORDER BY id"));
    while (sqlite3_step(s.get()) == SQLITE_ROW)
        out.push_back(sqlite3_column_int64(s.get(), 0));
    return out;
}

std::vector<float> RunStore::frameAt(int64_t run, int64_t metric, int64_t tsNs,
                                     int64_t* frameTsNs) const {
    Stmt s(prepare("SELECT ts_ns, vals FROM frames WHERE run=? AND metric=? AND ts_ns<=? ORDER BY "
                   "ts_ns DESC LIMIT 1"));
    sqlite3_bind_int64(s.get(), 1, run);
    sqlite3_bind_int64(s.get(), 2, metric);
    sqlite3_bind_int64(s.get(), 3, tsNs);
    std::vector<float> out;
    if (sqlite3_step(s.get()) != SQLITE_ROW) return out;
    if (frameTsNs) *frameTsNs = sqlite3_column_int64(s.get(), 0);
    const int bytes = sqlite3_column_bytes(s.get(), 1);
    out.resize(size_t(bytes) / sizeof(float));
    if (bytes > 0)
        std::memcpy(out.data(), sqlite3_column_blob(s.get(), 1), out.size() * sizeof(float));
    return out;
}

std::vector<std::pair<int64_t, double>> RunStore::scalars(int64_t run, int64_t metric) const {
    std::vector<std::pair<int64_t, double>> out;
    Stmt s(prepare("SELECT ts_ns, value FROM scalars WHERE run=? AND metric=? ORDER BY ts_ns"));
    sqlite3_bind_int64(s.get(), 1, run);
    sqlite3_bind_int64(s.get(), 2, metric);
    while (sqlite3_step(s.get()) == SQLITE_ROW)
        out.emplace_back(sqlite3_column_int64(s.get(), 0), sqlite3_column_double(s.get(), 1));
    return out;
}

int64_t RunStore::countEvents(int64_t run, const std::string& kind) const {
    Stmt s(prepare("SELECT count(*) FROM events WHERE run=? AND kind=?"));
    sqlite3_bind_int64(s.get(), 1, run);
    sqlite3_bind_text(s.get(), 2, kind.c_str(), -1, SQLITE_TRANSIENT);
    return sqlite3_step(s.get()) == SQLITE_ROW ? sqlite3_column_int64(s.get(), 0) : 0;
}

bool RunStore::integrityOk() const {
    Stmt s(prepare("PRAGMA integrity_check"));
    return sqlite3_step(s.get()) == SQLITE_ROW &&
           std::string(reinterpret_cast<const char*>(sqlite3_column_text(s.get(), 0))) == "ok";
}

std::string RunStore::summaryJson(int64_t run) const {
    Stmt s(prepare("SELECT summary_json FROM runs WHERE id=?"));
    sqlite3_bind_int64(s.get(), 1, run);
    if (sqlite3_step(s.get()) != SQLITE_ROW) return {};
    return reinterpret_cast<const char*>(sqlite3_column_text(s.get(), 0));
}

std::vector<RunStore::Event> RunStore::events(int64_t run, bool withSteps, size_t limit) const {
    std::vector<Event> out;
    Stmt s(prepare(withSteps ? "SELECT ts_ns, kind, entity_kind, entity, detail FROM events WHERE "
                               "run=? ORDER BY ts_ns LIMIT ?"
                             : "SELECT ts_ns, kind, entity_kind, entity, detail FROM events WHERE "
                               "run=? AND kind<>'step' "
                               "ORDER BY ts_ns LIMIT ?"));
    sqlite3_bind_int64(s.get(), 1, run);
    sqlite3_bind_int64(s.get(), 2, int64_t(limit));
    auto text = [&](int col) {
        return std::string(reinterpret_cast<const char*>(sqlite3_column_text(s.get(), col)));
    };
    while (sqlite3_step(s.get()) == SQLITE_ROW)
        out.push_back({sqlite3_column_int64(s.get(), 0), text(1), text(2),
                       sqlite3_column_int64(s.get(), 3), text(4)});
    return out;
}

std::vector<int64_t> RunStore::frameTimes(int64_t run, int64_t metric) const {
    std::vector<int64_t> out;
    Stmt s(prepare("SELECT ts_ns FROM frames WHERE run=? AND metric=? ORDER BY ts_ns"));
    sqlite3_bind_int64(s.get(), 1, run);
    sqlite3_bind_int64(s.get(), 2, metric);
    while (sqlite3_step(s.get()) == SQLITE_ROW)
        out.push_back(sqlite3_column_int64(s.get(), 0));
    return out;
}

std::pair<int64_t, int64_t> RunStore::timeRange(int64_t run) const {
    Stmt s(prepare("SELECT start_ns, end_ns FROM runs WHERE id=?"));
    sqlite3_bind_int64(s.get(), 1, run);
    if (sqlite3_step(s.get()) != SQLITE_ROW) return {0, 0};
    return {sqlite3_column_int64(s.get(), 0), sqlite3_column_int64(s.get(), 1)};
}

namespace {
constexpr size_t kHistoryChunk = 256; // frames per chunk: one hour at 1 Hz is 15 rows
}

void RunStore::buildHistory(int64_t run) {
    Stmt metrics(prepare("SELECT DISTINCT metric FROM frames WHERE run=?"));
    sqlite3_bind_int64(metrics.get(), 1, run);
    std::vector<int64_t> ids;
    while (sqlite3_step(metrics.get()) == SQLITE_ROW)
        ids.push_back(sqlite3_column_int64(metrics.get(), 0));
    Stmt read(prepare("SELECT ts_ns, vals FROM frames WHERE run=? AND metric=? ORDER BY ts_ns"));
    Stmt putTs(prepare("INSERT OR REPLACE INTO history_ts VALUES(?,?,?,?,?,?)"));
    Stmt putVals(prepare("INSERT OR REPLACE INTO history VALUES(?,?,?,?,?)"));
    for (int64_t metric : ids) {
        sqlite3_reset(read.get());
        sqlite3_bind_int64(read.get(), 1, run);
        sqlite3_bind_int64(read.get(), 2, metric);
        std::vector<int64_t> ts;
        std::vector<std::vector<float>> frames;
        int64_t chunk = 0;
        auto flush = [&] {
            if (ts.empty()) return;
            sqlite3_reset(putTs.get());
            sqlite3_bind_int64(putTs.get(), 1, run);
            sqlite3_bind_int64(putTs.get(), 2, metric);
            sqlite3_bind_int64(putTs.get(), 3, chunk);
            sqlite3_bind_int64(putTs.get(), 4, ts.front());
            sqlite3_bind_int64(putTs.get(), 5, ts.back());
            sqlite3_bind_blob(putTs.get(), 6, ts.data(), int(ts.size() * sizeof(int64_t)),
                              SQLITE_TRANSIENT);
            if (sqlite3_step(putTs.get()) != SQLITE_DONE) fail("cannot write history");
            size_t entities = 0;
            for (const auto& f : frames)
                entities = std::max(entities, f.size());
            std::vector<float> column(ts.size());
            for (size_t e = 0; e < entities; ++e) {
                for (size_t k = 0; k < frames.size(); ++k)
                    column[k] = e < frames[k].size() ? frames[k][e]
                                                     : std::numeric_limits<float>::quiet_NaN();
                sqlite3_reset(putVals.get());
                sqlite3_bind_int64(putVals.get(), 1, run);
                sqlite3_bind_int64(putVals.get(), 2, metric);
                sqlite3_bind_int64(putVals.get(), 3, int64_t(e));
                sqlite3_bind_int64(putVals.get(), 4, chunk);
                sqlite3_bind_blob(putVals.get(), 5, column.data(),
                                  int(column.size() * sizeof(float)), SQLITE_TRANSIENT);
                if (sqlite3_step(putVals.get()) != SQLITE_DONE) fail("cannot write history");
            }
            ts.clear();
            frames.clear();
            ++chunk;
        };
        while (sqlite3_step(read.get()) == SQLITE_ROW) {
            ts.push_back(sqlite3_column_int64(read.get(), 0));
            const int bytes = sqlite3_column_bytes(read.get(), 1);
            std::vector<float> f(size_t(bytes) / sizeof(float));
            if (bytes > 0)
                std::memcpy(f.data(), sqlite3_column_blob(read.get(), 1), f.size() * sizeof(float));
            frames.push_back(std::move(f));
            if (ts.size() == kHistoryChunk) flush();
        }
        flush();
    }
}

std::vector<std::pair<int64_t, float>> RunStore::entityHistory(int64_t run, int64_t metric,
                                                               int64_t entity, int64_t fromNs,
                                                               int64_t toNs) const {
    std::vector<std::pair<int64_t, float>> out;
    Stmt s(prepare("SELECT t.ts, h.vals FROM history_ts t JOIN history h ON h.run=t.run AND "
                   "h.metric=t.metric AND "
                   "h.chunk=t.chunk AND h.entity=? WHERE t.run=? AND t.metric=? AND t.last_ns>=? "
                   "AND t.first_ns<=? "
                   "ORDER BY t.chunk"));
    sqlite3_bind_int64(s.get(), 1, entity);
    sqlite3_bind_int64(s.get(), 2, run);
    sqlite3_bind_int64(s.get(), 3, metric);
    sqlite3_bind_int64(s.get(), 4, fromNs);
    sqlite3_bind_int64(s.get(), 5, toNs);
    while (sqlite3_step(s.get()) == SQLITE_ROW) {
        const auto* ts = static_cast<const int64_t*>(sqlite3_column_blob(s.get(), 0));
        const auto* vals = static_cast<const float*>(sqlite3_column_blob(s.get(), 1));
        const size_t n = std::min(size_t(sqlite3_column_bytes(s.get(), 0)) / sizeof(int64_t),
                                  size_t(sqlite3_column_bytes(s.get(), 1)) / sizeof(float));
        for (size_t i = 0; i < n; ++i)
            if (ts[i] >= fromNs && ts[i] <= toNs) out.emplace_back(ts[i], vals[i]);
    }
    return out;
}

} // namespace cs
