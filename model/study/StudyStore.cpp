#include "StudyStore.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>

#include <sqlite3.h>

#include <chrono>

namespace cs {
namespace {

constexpr int32_t kApplicationId = 0x43535331; // "CSS1": a ClusterScope study's results
const char* kFormat = "clusterscope-study-results";

const char* kSchema = R"sql(
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS variants(idx INTEGER PRIMARY KEY, params TEXT NOT NULL,
  status TEXT NOT NULL CHECK(status IN ('ok','failed')), message TEXT NOT NULL,
  figures TEXT NOT NULL, run_path TEXT NOT NULL, seconds REAL NOT NULL);
CREATE TABLE IF NOT EXISTS log(ts_ns INTEGER NOT NULL, idx INTEGER NOT NULL,
  event TEXT NOT NULL);
)sql";

// A statement finalized however the scope is left.
class Statement {
public:
    Statement(sqlite3* db, const char* sql) {
        if (sqlite3_prepare_v2(db, sql, -1, &s_, nullptr) != SQLITE_OK) {
            sqlite3_finalize(s_);
            s_ = nullptr;
        }
    }
    ~Statement() { sqlite3_finalize(s_); }
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;
    explicit operator bool() const { return s_ != nullptr; }
    sqlite3_stmt* get() const { return s_; }
    void bind(int i, const std::string& t) {
        sqlite3_bind_text(s_, i, t.c_str(), int(t.size()), SQLITE_TRANSIENT);
    }
    void bind(int i, long long v) { sqlite3_bind_int64(s_, i, v); }
    void bind(int i, double v) { sqlite3_bind_double(s_, i, v); }
    bool row() { return sqlite3_step(s_) == SQLITE_ROW; }
    bool done() { return sqlite3_step(s_) == SQLITE_DONE; }
    std::string text(int col) const {
        const unsigned char* t = sqlite3_column_text(s_, col);
        return t ? std::string(reinterpret_cast<const char*>(t)) : std::string();
    }
    long long integer(int col) const { return sqlite3_column_int64(s_, col); }
    double real(int col) const { return sqlite3_column_double(s_, col); }

private:
    sqlite3_stmt* s_ = nullptr;
};

std::string compact(const QJsonObject& o) {
    return QJsonDocument(o).toJson(QJsonDocument::Compact).toStdString();
}

QJsonObject objectOf(const std::string& text) {
    return QJsonDocument::fromJson(QByteArray::fromStdString(text)).object();
}

long long nowNs() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

sqlite3* openDb(const QString& path, int flags) {
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(path.toStdString().c_str(), &db, flags, nullptr) != SQLITE_OK) {
        const std::string msg = db ? sqlite3_errmsg(db) : "out of memory";
        sqlite3_close(db);
        throw InputException({path.toStdString(), 0, 0, {}, "cannot open: " + msg});
    }
    // Slurm tasks and a collecting process may touch a file at once: wait rather than fail.
    sqlite3_busy_timeout(db, 10000);
    return db;
}

} // namespace

StudyStore::StudyStore(sqlite3* db, QString path) : db_(db), path_(std::move(path)) {}

StudyStore::StudyStore(StudyStore&& o) noexcept : db_(o.db_), path_(std::move(o.path_)) {
    o.db_ = nullptr;
}

StudyStore::~StudyStore() {
    sqlite3_close(db_);
}

void StudyStore::fail(const std::string& what) const {
    throw InputException({path_.toStdString(),
                          0,
                          0,
                          {},
                          what + (db_ ? std::string(": ") + sqlite3_errmsg(db_) : std::string())});
}

void StudyStore::exec(const char* sql) const {
    char* err = nullptr;
    if (sqlite3_exec(db_, sql, nullptr, nullptr, &err) != SQLITE_OK) {
        const std::string msg = err ? err : "unknown error";
        sqlite3_free(err);
        throw InputException({path_.toStdString(), 0, 0, {}, msg});
    }
}

std::string StudyStore::meta(const char* key) const {
    Statement s(db_, "SELECT value FROM meta WHERE key=?");
    if (!s) fail("not a study's result file");
    s.bind(1, std::string(key));
    return s.row() ? s.text(0) : std::string();
}

StudyStore StudyStore::open(const QString& path, bool writable) {
    if (!QFileInfo(path).isFile())
        throw InputException({path.toStdString(), 0, 0, {}, "no such file"});
    StudyStore st(openDb(path, writable ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READONLY), path);
    Statement id(st.db_, "PRAGMA application_id");
    if (!id || !id.row() || id.integer(0) != kApplicationId || st.meta("format") != kFormat)
        throw InputException({path.toStdString(),
                              0,
                              0,
                              {},
                              "not a study's result file (clusterscope study --out writes them)"});
    const int version = std::atoi(st.meta("version").c_str());
    if (version > kStudyStoreVersion)
        throw InputException({path.toStdString(),
                              0,
                              0,
                              {},
                              "written by a newer ClusterScope (result file version " +
                                  std::to_string(version) + ")"});
    return st;
}

StudyStore StudyStore::openForStudy(const QString& path, const QJsonObject& studyJson,
                                    int variantCount, const QString& studyDir) {
    if (QFileInfo(path).exists()) {
        StudyStore st = open(path, true);
        if (st.study() != studyJson)
            throw InputException(
                {path.toStdString(),
                 0,
                 0,
                 {},
                 "holds the results of another study (its study file differs); give another "
                 "--out, or delete this file to start again"});
        return st;
    }
    // Made whole under another name, then renamed: a process killed while creating it leaves
    // no half-made file that would be refused as "not a study's result file" ever after.
    // The rollback journal, not WAL: parts on a cluster's shared file system are read by a
    // collecting process on another host.
    const QString making = path + ".making";
    QFile::remove(making);
    {
        StudyStore st(openDb(making, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE), making);
        st.exec("BEGIN");
        st.exec(kSchema);
        st.exec(("PRAGMA application_id=" + std::to_string(kApplicationId)).c_str());
        for (const auto& [k, v] : {std::pair<std::string, std::string>{"format", kFormat},
                                   {"version", std::to_string(kStudyStoreVersion)},
                                   {"study", compact(studyJson)},
                                   {"variants", std::to_string(variantCount)},
                                   {"dir", studyDir.toStdString()}}) {
            Statement s(st.db_, "INSERT INTO meta(key, value) VALUES(?, ?)");
            s.bind(1, k);
            s.bind(2, v);
            if (!s.done()) st.fail("cannot write");
        }
        st.exec("COMMIT");
    }
    if (!QFile::rename(making, path)) {
        QFile::remove(making);
        if (!QFileInfo(path).exists()) // else another process made it first: use that
            throw InputException({path.toStdString(), 0, 0, {}, "cannot create the file"});
    }
    return openForStudy(path, studyJson, variantCount, studyDir);
}

QJsonObject StudyStore::study() const {
    return objectOf(meta("study"));
}

int StudyStore::variantCount() const {
    return std::atoi(meta("variants").c_str());
}

QString StudyStore::studyDir() const {
    return QString::fromStdString(meta("dir"));
}

std::set<int> StudyStore::finished() const {
    std::set<int> out;
    Statement s(db_, "SELECT idx FROM variants");
    while (s.row())
        out.insert(int(s.integer(0)));
    return out;
}

std::vector<VariantResult> StudyStore::results() const {
    std::vector<VariantResult> out;
    Statement s(db_, "SELECT idx, params, status, message, figures, run_path, seconds FROM "
                     "variants ORDER BY idx");
    while (s.row()) {
        VariantResult r;
        r.index = int(s.integer(0));
        r.params = objectOf(s.text(1));
        r.ok = s.text(2) == "ok";
        r.message = s.text(3);
        r.figures = objectOf(s.text(4));
        r.runPath = QString::fromStdString(s.text(5));
        r.seconds = s.real(6);
        out.push_back(std::move(r));
    }
    return out;
}

std::vector<StudyLogEntry> StudyStore::log() const {
    std::vector<StudyLogEntry> out;
    Statement s(db_, "SELECT ts_ns, idx, event FROM log ORDER BY rowid");
    while (s.row())
        out.push_back({s.integer(0), int(s.integer(1)), s.text(2)});
    return out;
}

void StudyStore::logEvent(int index, const std::string& event) {
    try {
        insertLog(nowNs(), index, event);
    } catch (const std::exception& e) {
        throw InputException({path_.toStdString(), 0, 0, {}, e.what()});
    }
}

void StudyStore::insert(const VariantResult& r) {
    Statement s(db_, "INSERT INTO variants(idx, params, status, message, figures, run_path, "
                     "seconds) VALUES(?, ?, ?, ?, ?, ?, ?)");
    s.bind(1, (long long)r.index);
    s.bind(2, compact(r.params));
    s.bind(3, std::string(r.ok ? "ok" : "failed"));
    s.bind(4, r.message);
    s.bind(5, compact(r.figures));
    s.bind(6, r.runPath.toStdString());
    s.bind(7, r.seconds);
    if (!s.done())
        throw std::runtime_error("cannot record variant " + std::to_string(r.index) + ": " +
                                 sqlite3_errmsg(db_));
}

void StudyStore::insertLog(long long tsNs, int index, const std::string& event) {
    Statement l(db_, "INSERT INTO log(ts_ns, idx, event) VALUES(?, ?, ?)");
    l.bind(1, tsNs);
    l.bind(2, (long long)index);
    l.bind(3, event);
    if (!l.done())
        throw std::runtime_error(std::string("cannot write the log: ") + sqlite3_errmsg(db_));
}

template <typename Fn> void StudyStore::inTransaction(Fn&& fn) {
    exec("BEGIN IMMEDIATE"); // a writer at once: two collecting processes wait, not collide
    try {
        fn();
    } catch (const std::exception& e) {
        // SQLite may have rolled back by itself (disk full): only roll back what is open.
        if (!sqlite3_get_autocommit(db_)) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
        throw InputException({path_.toStdString(), 0, 0, {}, e.what()});
    }
    exec("COMMIT");
}

void StudyStore::record(const VariantResult& r) {
    inTransaction([&] {
        insert(r);
        insertLog(nowNs(), r.index, r.ok ? "ok" : "failed");
    });
}

int StudyStore::mergeFrom(const QString& partPath) {
    const StudyStore part = open(partPath);
    if (part.study() != study())
        throw InputException({partPath.toStdString(),
                              0,
                              0,
                              {},
                              "holds the results of another study than " + path_.toStdString()});
    const std::vector<VariantResult> results = part.results();
    const std::vector<StudyLogEntry> log = part.log();
    int added = 0;
    inTransaction([&] {
        const std::set<int> have = finished(); // read inside: no other writer now
        std::set<int> taken;
        for (const VariantResult& r : results) {
            if (have.count(r.index)) continue;
            insert(r);
            taken.insert(r.index);
            ++added;
        }
        // The part's own log of what it took: when each started and finished on its node.
        for (const StudyLogEntry& e : log)
            if (taken.count(e.index)) insertLog(e.tsNs, e.index, e.event);
    });
    return added;
}

} // namespace cs
