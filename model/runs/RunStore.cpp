#include "RunStore.h"

#include <sqlite3.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace cs {
namespace {

constexpr int32_t kApplicationId = 0x43534331; // "CSC1": a ClusterScope store

const char* kSchema = R"sql(
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs(id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL CHECK(kind IN ('simulated','recorded')), name TEXT NOT NULL,
  topology TEXT NOT NULL, fingerprint INTEGER NOT NULL, wall_start_ns INTEGER NOT NULL DEFAULT 0,
  end_ns INTEGER NOT NULL DEFAULT 0, params_json TEXT NOT NULL DEFAULT '{}',
  summary_json TEXT NOT NULL DEFAULT '{}');
CREATE TABLE IF NOT EXISTS run_metrics(run INTEGER NOT NULL, id INTEGER NOT NULL,
  name TEXT NOT NULL, unit TEXT NOT NULL, entity_kind TEXT NOT NULL, entities INTEGER NOT NULL,
  PRIMARY KEY(run, id), UNIQUE(run, name)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS patterns(run INTEGER NOT NULL, pattern INTEGER NOT NULL,
  name TEXT NOT NULL, duration_ns INTEGER NOT NULL, PRIMARY KEY(run, pattern)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS timeline(run INTEGER NOT NULL, start_ns INTEGER NOT NULL,
  end_ns INTEGER NOT NULL, pattern INTEGER NOT NULL, period_ns INTEGER NOT NULL,
  PRIMARY KEY(run, start_ns)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS frames(run INTEGER NOT NULL, metric INTEGER NOT NULL,
  pattern INTEGER NOT NULL, frame INTEGER NOT NULL, offset_ns INTEGER NOT NULL,
  is_key INTEGER NOT NULL, vals BLOB NOT NULL,
  PRIMARY KEY(run, metric, pattern, frame)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS frame_stats(run INTEGER NOT NULL, metric INTEGER NOT NULL,
  pattern INTEGER NOT NULL, frame INTEGER NOT NULL, count INTEGER NOT NULL, mean REAL, min REAL,
  max REAL, sum REAL, p5 REAL, p95 REAL,
  PRIMARY KEY(run, metric, pattern, frame)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS history(run INTEGER NOT NULL, metric INTEGER NOT NULL,
  pattern INTEGER NOT NULL, entity INTEGER NOT NULL, chunk INTEGER NOT NULL, vals BLOB NOT NULL,
  PRIMARY KEY(run, metric, pattern, entity, chunk)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS composed_sources(run INTEGER NOT NULL, metric INTEGER NOT NULL,
  pattern INTEGER NOT NULL, source INTEGER NOT NULL, vals BLOB NOT NULL,
  PRIMARY KEY(run, metric, pattern, source)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS composed_frames(run INTEGER NOT NULL, metric INTEGER NOT NULL,
  pattern INTEGER NOT NULL, frame INTEGER NOT NULL, offset_ns INTEGER NOT NULL,
  weights BLOB NOT NULL, PRIMARY KEY(run, metric, pattern, frame)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS scalars(run INTEGER NOT NULL, metric INTEGER NOT NULL,
  ts_ns INTEGER NOT NULL, value REAL NOT NULL, PRIMARY KEY(run, metric, ts_ns)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS events(run INTEGER NOT NULL, ts_ns INTEGER NOT NULL,
  kind TEXT NOT NULL, entity_kind TEXT NOT NULL, entity INTEGER NOT NULL, detail TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS events_by_time ON events(run, ts_ns);
)sql";

sqlite3* openDb(const std::string& path, int flags) {
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(path.c_str(), &db, flags, nullptr) != SQLITE_OK) {
        const std::string msg = db ? sqlite3_errmsg(db) : "out of memory";
        sqlite3_close(db);
        throw InputException({path, 0, 0, {}, "cannot open: " + msg});
    }
    sqlite3_busy_timeout(db, 2000);
    return db;
}

bool scalarQuery(sqlite3* db, const char* sql, int64_t& out) {
    sqlite3_stmt* s = nullptr;
    if (sqlite3_prepare_v2(db, sql, -1, &s, nullptr) != SQLITE_OK) {
        sqlite3_finalize(s);
        return false;
    }
    const bool ok = sqlite3_step(s) == SQLITE_ROW;
    if (ok) out = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    return ok;
}

std::string text(sqlite3_stmt* s, int col) {
    const unsigned char* t = sqlite3_column_text(s, col);
    return t ? reinterpret_cast<const char*>(t) : std::string();
}

// A file is ours if it carries our application id (or is empty, when creating), and of the
// schema this build reads.
void checkIdentity(sqlite3* db, const std::string& path, bool allowEmpty) {
    int64_t appId = 0, version = 0, tables = 0;
    if (!scalarQuery(db, "PRAGMA application_id", appId) ||
        !scalarQuery(db, "PRAGMA user_version", version) ||
        !scalarQuery(db, "SELECT count(*) FROM sqlite_master", tables))
        throw InputException(
            {path, 0, 0, {}, "not a ClusterScope run store (not a readable SQLite database)"});
    if (appId == 0 && tables == 0 && allowEmpty) return;
    if (appId != kApplicationId)
        throw InputException(
            {path, 0, 0, {}, "not a ClusterScope run store (a foreign SQLite database)"});
    const std::string reads = std::to_string(kRunStoreSchemaVersion);
    if (version > kRunStoreSchemaVersion)
        throw InputException({path,
                              0,
                              0,
                              {},
                              "written by a newer ClusterScope (schema " + std::to_string(version) +
                                  ", this build reads " + reads + ")"});
    // A store is data, never code: a trigger would run whenever this build writes to the
    // file, and a view in place of a table would answer (or hang) instead of the data.
    {
        sqlite3_stmt* st = nullptr;
        if (sqlite3_prepare_v2(db,
                               "SELECT type, name FROM sqlite_master WHERE type IN "
                               "('trigger', 'view') OR (type = 'table' AND sql LIKE "
                               "'CREATE VIRTUAL%') LIMIT 1",
                               -1, &st, nullptr) == SQLITE_OK &&
            sqlite3_step(st) == SQLITE_ROW) {
            const std::string type = text(st, 0), name = text(st, 1);
            sqlite3_finalize(st);
            throw InputException(
                {path,
                 0,
                 0,
                 {},
                 "not a ClusterScope run store: it holds " +
                     (type == "table" ? std::string("a virtual table") : "a " + type) + " `" +
                     name +
                     "`, and a run store holds only data (this build writes "
                     "none); open or write a store ClusterScope made"});
        }
        sqlite3_finalize(st);
    }
    if (version < kOldestReadableRunStoreSchema)
        throw InputException(
            {path,
             0,
             0,
             {},
             "written by an older ClusterScope (schema " + std::to_string(version) +
                 ", this build reads " + reads +
                 "): re-create it with `clusterscope simulate ... --out` or `clusterscope "
                 "import ... --out`"});
}

// NULL (what SQLite makes of NaN) reads back as NaN.
double real(sqlite3_stmt* s, int col) {
    return sqlite3_column_type(s, col) == SQLITE_NULL ? NAN : sqlite3_column_double(s, col);
}

} // namespace

RunStore::RunStore(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}

RunStore::RunStore(RunStore&& o) noexcept
    : db_(o.db_), path_(std::move(o.path_)), inTransaction_(o.inTransaction_),
      cache_(std::move(o.cache_)) {
    writer_ = o.writer_;
    o.db_ = nullptr;
    o.cache_.clear();
}

RunStore& RunStore::operator=(RunStore&& o) noexcept {
    std::swap(db_, o.db_);
    std::swap(path_, o.path_);
    std::swap(inTransaction_, o.inTransaction_);
    std::swap(writer_, o.writer_);
    std::swap(cache_, o.cache_);
    return *this;
}

RunStore::~RunStore() {
    finalizeCached();
    if (!db_) return;
    if (inTransaction_) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    // Fold the write-ahead log into the file: no log beside the store once it is closed.
    if (writer_) sqlite3_exec(db_, "PRAGMA wal_checkpoint(TRUNCATE)", nullptr, nullptr, nullptr);
    sqlite3_close(db_);
}

void RunStore::checkFrameOffset(int32_t pattern, int32_t frame, int64_t offsetNs,
                                int64_t previousNs) const {
    // Frames sit in time order from the pattern's start: a negative or backward offset would
    // read as frames that never show, so the store is refused as damaged, not shown empty.
    if (offsetNs >= previousNs) return;
    throw InputException(
        {path_,
         0,
         0,
         {},
         "damaged: frame " + std::to_string(frame) + " of pattern " + std::to_string(pattern) +
             " is at " + std::to_string(offsetNs) + " ns, before " +
             (frame == 0 ? std::string("the pattern's start")
                         : "the frame before it (" + std::to_string(previousNs) + " ns)")});
}

// The disk, not the input: a full disk or a failing device is "cannot write" (exit 1), as
// for every other output, where a damaged or foreign file is bad input (exit 2).
static bool isStorageFailure(int code) {
    switch (code & 0xff) {
    case SQLITE_FULL:
    case SQLITE_IOERR:
    case SQLITE_CANTOPEN:
    case SQLITE_READONLY:
        return true;
    default:
        return false;
    }
}

void RunStore::fail(const std::string& what) const {
    const std::string reason = db_ ? std::string(": ") + sqlite3_errmsg(db_) : std::string();
    if (db_ && isStorageFailure(sqlite3_extended_errcode(db_)))
        throw std::runtime_error("cannot write " + path_ + ": " + what + reason);
    throw InputException({path_, 0, 0, {}, what + reason});
}

void RunStore::exec(const char* sql) const {
    char* err = nullptr;
    if (const int code = sqlite3_exec(db_, sql, nullptr, nullptr, &err); code != SQLITE_OK) {
        const std::string msg = err ? err : "error";
        sqlite3_free(err);
        if (isStorageFailure(sqlite3_extended_errcode(db_)))
            throw std::runtime_error("cannot write " + path_ + ": " + msg);
        throw InputException({path_, 0, 0, {}, msg});
    }
}

void RunStore::step(sqlite3_stmt* s, const char* what) const {
    if (sqlite3_step(s) != SQLITE_DONE) fail(what);
}

sqlite3_stmt* RunStore::cached(const char* sql) const {
    for (auto& [key, stmt] : cache_)
        if (key == sql) {
            sqlite3_reset(stmt);
            sqlite3_clear_bindings(stmt);
            return stmt;
        }
    sqlite3_stmt* s = nullptr;
    if (sqlite3_prepare_v2(db_, sql, -1, &s, nullptr) != SQLITE_OK)
        fail("cannot prepare a statement");
    cache_.emplace_back(sql, s);
    return s;
}

void RunStore::finalizeCached() {
    for (auto& [key, stmt] : cache_)
        sqlite3_finalize(stmt);
    cache_.clear();
}

RunStore RunStore::openForWriting(const QString& qpath) {
    const std::string path = qpath.toStdString();
    RunStore store(openDb(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE), path);
    checkIdentity(store.db_, path, true);
    // 64 KiB pages: a frame of 250k links is a 1 MB blob, read in 16 pages rather than 250.
    store.exec("PRAGMA page_size=65536; PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; "
               "PRAGMA mmap_size=1073741824;");
    store.writer_ = true;
    store.exec(kSchema);
    store.exec(("PRAGMA application_id=" + std::to_string(kApplicationId) +
                "; PRAGMA user_version=" + std::to_string(kRunStoreSchemaVersion) + ";")
                   .c_str());
    store.exec(("INSERT OR REPLACE INTO meta VALUES('format','clusterscope-runs'),('schema','" +
                std::to_string(kRunStoreSchemaVersion) + "');")
                   .c_str());
    // A log left by a writer that was killed: fold it in now rather than carry it along.
    store.exec("PRAGMA wal_checkpoint(TRUNCATE);");
    return store;
}

RunStore RunStore::openForReading(const QString& qpath) {
    const std::string path = qpath.toStdString();
    RunStore store(openDb(path, SQLITE_OPEN_READONLY), path);
    checkIdentity(store.db_, path, false);
    store.exec("PRAGMA mmap_size=1073741824;"); // frames are read straight from the mapped file
    return store;
}

void RunStore::begin() {
    exec("BEGIN IMMEDIATE");
    inTransaction_ = true;
}

void RunStore::commit() {
    exec("COMMIT");
    inTransaction_ = false;
}

void RunStore::rollback() {
    if (!inTransaction_) return;
    exec("ROLLBACK");
    inTransaction_ = false;
}

void RunStore::checkpoint() {
    exec("PRAGMA wal_checkpoint(TRUNCATE)");
}

int64_t RunStore::addRun(const StoredRun& r) {
    sqlite3_stmt* s = cached("INSERT INTO runs(kind, name, topology, fingerprint, wall_start_ns, "
                             "params_json) VALUES(?,?,?,?,?,?)");
    sqlite3_bind_text(s, 1, r.kind.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(s, 2, r.name.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(s, 3, r.topology.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(s, 4, int64_t(r.fingerprint));
    sqlite3_bind_int64(s, 5, r.wallStartNs);
    sqlite3_bind_text(s, 6, r.paramsJson.c_str(), -1, SQLITE_TRANSIENT);
    step(s, "cannot add a run");
    return sqlite3_last_insert_rowid(db_);
}

void RunStore::finishRun(int64_t run, int64_t endNs, const std::string& summaryJson) {
    sqlite3_stmt* s = cached("UPDATE runs SET end_ns=?, summary_json=? WHERE id=?");
    sqlite3_bind_int64(s, 1, endNs);
    sqlite3_bind_text(s, 2, summaryJson.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(s, 3, run);
    step(s, "cannot finish the run");
}

int64_t RunStore::addMetric(int64_t run, const StoredMetric& m) {
    sqlite3_stmt* s = cached("INSERT INTO run_metrics VALUES(?,?,?,?,?,?)");
    sqlite3_bind_int64(s, 1, run);
    sqlite3_bind_int64(s, 2, m.id);
    sqlite3_bind_text(s, 3, m.name.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(s, 4, m.unit.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(s, 5, m.entityKind.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(s, 6, m.entities);
    step(s, "cannot add a metric");
    return m.id;
}

void RunStore::addPattern(int64_t run, const StoredPattern& p) {
    sqlite3_stmt* s = cached("INSERT INTO patterns VALUES(?,?,?,?)");
    sqlite3_bind_int64(s, 1, run);
    sqlite3_bind_int(s, 2, p.pattern);
    sqlite3_bind_text(s, 3, p.name.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(s, 4, p.durationNs);
    step(s, "cannot add a pattern");
}

void RunStore::addSegment(int64_t run, const StoredSegment& g) {
    sqlite3_stmt* s = cached("INSERT INTO timeline VALUES(?,?,?,?,?)");
    sqlite3_bind_int64(s, 1, run);
    sqlite3_bind_int64(s, 2, g.startNs);
    sqlite3_bind_int64(s, 3, g.endNs);
    sqlite3_bind_int(s, 4, g.pattern);
    sqlite3_bind_int64(s, 5, g.periodNs);
    step(s, "cannot add a timeline segment");
}

void RunStore::addFrame(int64_t run, int64_t metric, int32_t pattern, const StoredFrameRef& f,
                        const void* data, size_t bytes) {
    sqlite3_stmt* s = cached("INSERT INTO frames VALUES(?,?,?,?,?,?,?)");
    sqlite3_bind_int64(s, 1, run);
    sqlite3_bind_int64(s, 2, metric);
    sqlite3_bind_int(s, 3, pattern);
    sqlite3_bind_int(s, 4, f.frame);
    sqlite3_bind_int64(s, 5, f.offsetNs);
    sqlite3_bind_int(s, 6, f.key ? 1 : 0);
    sqlite3_bind_blob64(s, 7, bytes ? data : "", bytes, SQLITE_STATIC);
    step(s, "cannot add a frame");
}

void RunStore::addFrameStats(int64_t run, int64_t metric, int32_t pattern, int32_t frame,
                             const FrameStats& st) {
    sqlite3_stmt* s = cached("INSERT INTO frame_stats VALUES(?,?,?,?,?,?,?,?,?,?,?)");
    sqlite3_bind_int64(s, 1, run);
    sqlite3_bind_int64(s, 2, metric);
    sqlite3_bind_int(s, 3, pattern);
    sqlite3_bind_int(s, 4, frame);
    sqlite3_bind_int64(s, 5, st.count);
    const double v[6] = {st.mean, st.min, st.max, st.sum, st.p5, st.p95};
    for (int i = 0; i < 6; ++i)
        sqlite3_bind_double(s, 6 + i, v[i]);
    step(s, "cannot add frame statistics");
}

void RunStore::addHistory(int64_t run, int64_t metric, int32_t pattern, int32_t entity,
                          int32_t chunk, const void* data, size_t bytes) {
    sqlite3_stmt* s = cached("INSERT INTO history VALUES(?,?,?,?,?,?)");
    sqlite3_bind_int64(s, 1, run);
    sqlite3_bind_int64(s, 2, metric);
    sqlite3_bind_int(s, 3, pattern);
    sqlite3_bind_int(s, 4, entity);
    sqlite3_bind_int(s, 5, chunk);
    sqlite3_bind_blob64(s, 6, bytes ? data : "", bytes, SQLITE_STATIC);
    step(s, "cannot write history");
}

void RunStore::addComposedSource(int64_t run, int64_t metric, int32_t pattern, int32_t source,
                                 const void* data, size_t bytes) {
    sqlite3_stmt* s = cached("INSERT INTO composed_sources VALUES(?,?,?,?,?)");
    sqlite3_bind_int64(s, 1, run);
    sqlite3_bind_int64(s, 2, metric);
    sqlite3_bind_int(s, 3, pattern);
    sqlite3_bind_int(s, 4, source);
    sqlite3_bind_blob64(s, 5, bytes ? data : "", bytes, SQLITE_STATIC);
    step(s, "cannot add a traffic source");
}

void RunStore::addComposedFrame(int64_t run, int64_t metric, int32_t pattern, int32_t frame,
                                int64_t offsetNs, const void* weights, size_t bytes) {
    sqlite3_stmt* s = cached("INSERT INTO composed_frames VALUES(?,?,?,?,?,?)");
    sqlite3_bind_int64(s, 1, run);
    sqlite3_bind_int64(s, 2, metric);
    sqlite3_bind_int(s, 3, pattern);
    sqlite3_bind_int(s, 4, frame);
    sqlite3_bind_int64(s, 5, offsetNs);
    sqlite3_bind_blob64(s, 6, bytes ? weights : "", bytes, SQLITE_STATIC);
    step(s, "cannot add a composed frame");
}

void RunStore::readComposedSources(int64_t run, int64_t metric, int32_t pattern,
                                   const BlobFn& fn) const {
    sqlite3_stmt* s = cached("SELECT source, vals FROM composed_sources WHERE run=? AND metric=? "
                             "AND pattern=? ORDER BY source");
    sqlite3_bind_int64(s, 1, run);
    sqlite3_bind_int64(s, 2, metric);
    sqlite3_bind_int(s, 3, pattern);
    while (sqlite3_step(s) == SQLITE_ROW)
        fn(sqlite3_column_int(s, 0), false, sqlite3_column_blob(s, 1),
           size_t(sqlite3_column_bytes(s, 1)));
    sqlite3_reset(s);
}

std::vector<RunStore::ComposedFrame> RunStore::composedFrames(int64_t run, int64_t metric,
                                                              int32_t pattern) const {
    std::vector<ComposedFrame> out;
    sqlite3_stmt* s = cached("SELECT frame, offset_ns, weights FROM composed_frames WHERE run=? "
                             "AND metric=? AND pattern=? ORDER BY frame");
    sqlite3_bind_int64(s, 1, run);
    sqlite3_bind_int64(s, 2, metric);
    sqlite3_bind_int(s, 3, pattern);
    while (sqlite3_step(s) == SQLITE_ROW) {
        if (sqlite3_column_int(s, 0) != int(out.size()))
            fail("damaged: composed frames are not contiguous");
        ComposedFrame f;
        f.offsetNs = sqlite3_column_int64(s, 1);
        checkFrameOffset(pattern, int32_t(out.size()), f.offsetNs,
                         out.empty() ? 0 : out.back().offsetNs);
        const size_t bytes = size_t(sqlite3_column_bytes(s, 2));
        f.weights.resize(bytes / sizeof(float));
        if (!f.weights.empty())
            std::memcpy(f.weights.data(), sqlite3_column_blob(s, 2), f.weights.size() * 4);
        out.push_back(std::move(f));
    }
    sqlite3_reset(s);
    return out;
}

void RunStore::addScalar(int64_t run, int64_t metric, int64_t tsNs, double value) {
    sqlite3_stmt* s = cached("INSERT OR REPLACE INTO scalars VALUES(?,?,?,?)");
    sqlite3_bind_int64(s, 1, run);
    sqlite3_bind_int64(s, 2, metric);
    sqlite3_bind_int64(s, 3, tsNs);
    sqlite3_bind_double(s, 4, value);
    step(s, "cannot add a value");
}

void RunStore::addEvent(int64_t run, const StoredEvent& e) {
    sqlite3_stmt* s = cached("INSERT INTO events VALUES(?,?,?,?,?,?)");
    sqlite3_bind_int64(s, 1, run);
    sqlite3_bind_int64(s, 2, e.tsNs);
    sqlite3_bind_text(s, 3, e.kind.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(s, 4, e.entityKind.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(s, 5, e.entity);
    sqlite3_bind_text(s, 6, e.detail.c_str(), -1, SQLITE_TRANSIENT);
    step(s, "cannot add an event");
}

std::vector<StoredRun> RunStore::runs() const {
    std::vector<StoredRun> out;
    sqlite3_stmt* s = cached("SELECT id, kind, name, topology, fingerprint, wall_start_ns, end_ns, "
                             "params_json, summary_json FROM runs ORDER BY id");
    while (sqlite3_step(s) == SQLITE_ROW)
        out.push_back({sqlite3_column_int64(s, 0), text(s, 1), text(s, 2), text(s, 3),
                       uint64_t(sqlite3_column_int64(s, 4)), sqlite3_column_int64(s, 5),
                       sqlite3_column_int64(s, 6), text(s, 7), text(s, 8)});
    return out;
}

std::vector<StoredMetric> RunStore::metrics(int64_t run) const {
    std::vector<StoredMetric> out;
    sqlite3_stmt* s = cached("SELECT id, name, unit, entity_kind, entities FROM run_metrics "
                             "WHERE run=? ORDER BY id");
    sqlite3_bind_int64(s, 1, run);
    while (sqlite3_step(s) == SQLITE_ROW)
        out.push_back({sqlite3_column_int64(s, 0), text(s, 1), text(s, 2), text(s, 3),
                       sqlite3_column_int64(s, 4)});
    return out;
}

std::vector<StoredPattern> RunStore::patterns(int64_t run) const {
    std::vector<StoredPattern> out;
    sqlite3_stmt* s =
        cached("SELECT pattern, name, duration_ns FROM patterns WHERE run=? ORDER BY pattern");
    sqlite3_bind_int64(s, 1, run);
    while (sqlite3_step(s) == SQLITE_ROW)
        out.push_back({sqlite3_column_int(s, 0), text(s, 1), sqlite3_column_int64(s, 2)});
    return out;
}

std::vector<StoredSegment> RunStore::timeline(int64_t run) const {
    std::vector<StoredSegment> out;
    sqlite3_stmt* s = cached("SELECT start_ns, end_ns, pattern, period_ns FROM timeline WHERE "
                             "run=? ORDER BY start_ns");
    sqlite3_bind_int64(s, 1, run);
    while (sqlite3_step(s) == SQLITE_ROW)
        out.push_back({sqlite3_column_int64(s, 0), sqlite3_column_int64(s, 1),
                       sqlite3_column_int(s, 2), sqlite3_column_int64(s, 3)});
    return out;
}

std::vector<StoredFrameRef> RunStore::frameRefs(int64_t run, int64_t metric,
                                                int32_t pattern) const {
    std::vector<StoredFrameRef> out;
    sqlite3_stmt* s = cached("SELECT frame, offset_ns, is_key FROM frames WHERE run=? AND "
                             "metric=? AND pattern=? ORDER BY frame");
    sqlite3_bind_int64(s, 1, run);
    sqlite3_bind_int64(s, 2, metric);
    sqlite3_bind_int(s, 3, pattern);
    while (sqlite3_step(s) == SQLITE_ROW) {
        out.push_back(
            {sqlite3_column_int(s, 0), sqlite3_column_int64(s, 1), sqlite3_column_int(s, 2) != 0});
        checkFrameOffset(pattern, out.back().frame, out.back().offsetNs,
                         out.size() > 1 ? out[out.size() - 2].offsetNs : 0);
    }
    sqlite3_reset(s);
    return out;
}

void RunStore::readFrames(int64_t run, int64_t metric, int32_t pattern, int32_t fromFrame,
                          int32_t toFrame, const BlobFn& fn) const {
    sqlite3_stmt* s = cached("SELECT frame, is_key, vals FROM frames WHERE run=? AND metric=? AND "
                             "pattern=? AND frame BETWEEN ? AND ? ORDER BY frame");
    sqlite3_bind_int64(s, 1, run);
    sqlite3_bind_int64(s, 2, metric);
    sqlite3_bind_int(s, 3, pattern);
    sqlite3_bind_int(s, 4, fromFrame);
    sqlite3_bind_int(s, 5, toFrame);
    while (sqlite3_step(s) == SQLITE_ROW)
        fn(sqlite3_column_int(s, 0), sqlite3_column_int(s, 1) != 0, sqlite3_column_blob(s, 2),
           size_t(sqlite3_column_bytes(s, 2)));
    sqlite3_reset(s); // release the read snapshot
}

std::vector<FrameStats> RunStore::frameStats(int64_t run, int64_t metric, int32_t pattern) const {
    std::vector<FrameStats> out;
    sqlite3_stmt* s = cached("SELECT count, mean, min, max, sum, p5, p95 FROM frame_stats WHERE "
                             "run=? AND metric=? AND pattern=? ORDER BY frame");
    sqlite3_bind_int64(s, 1, run);
    sqlite3_bind_int64(s, 2, metric);
    sqlite3_bind_int(s, 3, pattern);
    while (sqlite3_step(s) == SQLITE_ROW)
        out.push_back({sqlite3_column_int64(s, 0), real(s, 1), real(s, 2), real(s, 3), real(s, 4),
                       real(s, 5), real(s, 6)});
    return out;
}

void RunStore::readHistory(int64_t run, int64_t metric, int32_t pattern, int32_t entity,
                           int32_t fromChunk, int32_t toChunk, const BlobFn& fn) const {
    sqlite3_stmt* s = cached("SELECT chunk, vals FROM history WHERE run=? AND metric=? AND "
                             "pattern=? AND entity=? AND chunk BETWEEN ? AND ? ORDER BY chunk");
    sqlite3_bind_int64(s, 1, run);
    sqlite3_bind_int64(s, 2, metric);
    sqlite3_bind_int(s, 3, pattern);
    sqlite3_bind_int(s, 4, entity);
    sqlite3_bind_int(s, 5, fromChunk);
    sqlite3_bind_int(s, 6, toChunk);
    while (sqlite3_step(s) == SQLITE_ROW)
        fn(sqlite3_column_int(s, 0), false, sqlite3_column_blob(s, 1),
           size_t(sqlite3_column_bytes(s, 1)));
    sqlite3_reset(s);
}

std::vector<std::pair<int64_t, double>> RunStore::scalars(int64_t run, int64_t metric) const {
    std::vector<std::pair<int64_t, double>> out;
    sqlite3_stmt* s =
        cached("SELECT ts_ns, value FROM scalars WHERE run=? AND metric=? ORDER BY ts_ns");
    sqlite3_bind_int64(s, 1, run);
    sqlite3_bind_int64(s, 2, metric);
    while (sqlite3_step(s) == SQLITE_ROW)
        out.emplace_back(sqlite3_column_int64(s, 0), sqlite3_column_double(s, 1));
    return out;
}

std::vector<StoredEvent> RunStore::events(int64_t run, bool withSteps, size_t limit) const {
    std::vector<StoredEvent> out;
    sqlite3_stmt* s =
        cached(withSteps ? "SELECT ts_ns, kind, entity_kind, entity, detail FROM events WHERE "
                           "run=? ORDER BY ts_ns, rowid LIMIT ?"
                         : "SELECT ts_ns, kind, entity_kind, entity, detail FROM events WHERE "
                           "run=? AND kind<>'step' ORDER BY ts_ns, rowid LIMIT ?");
    sqlite3_bind_int64(s, 1, run);
    sqlite3_bind_int64(s, 2, int64_t(std::min<size_t>(limit, size_t(INT64_MAX))));
    while (sqlite3_step(s) == SQLITE_ROW)
        out.push_back({sqlite3_column_int64(s, 0), text(s, 1), text(s, 2),
                       sqlite3_column_int64(s, 3), text(s, 4)});
    return out;
}

bool RunStore::quickCheckOk(std::string* problem) const {
    sqlite3_stmt* s = cached("PRAGMA quick_check");
    const bool row = sqlite3_step(s) == SQLITE_ROW;
    const std::string result = row ? text(s, 0) : std::string(sqlite3_errmsg(db_));
    sqlite3_reset(s);
    if (result == "ok") return true;
    if (problem) *problem = result;
    return false;
}

} // namespace cs
