#pragma once
// The telemetry store: one SQLite file per run collection. Schema version 1:
//   meta(key, value)                         format name, schema version, topology
//   runs(id, kind, name, topology, start_ns, end_ns, params_json, summary_json)
//   metrics(id, name, unit, kind, entity_kind) catalogue: gauge | counter; gpu | link | storage |
//   tier | run frames(run, metric, ts_ns, vals)         one float32 per entity of the metric's
//   kind, little-endian:
//                                            the 3D view's "frame at time t" is one row
//   scalars(run, metric, ts_ns, value)       run-wide series (step time, MFU, tier throughput)
//   events(run, ts_ns, kind, entity_kind, entity, detail)   checkpoints, failures, restarts, steps
//   history_ts(run, metric, chunk, ts)       the frame times of a chunk of up to 256 frames (int64
//   blob) history(run, metric, entity, chunk, vals) one entity's values over that chunk (float32
//   blob):
//                                            the charts' "one entity over a range" reads a few rows
// WAL journal; a write session is one transaction, so an interrupted writer leaves the file
// as it was. Opening a foreign, corrupt or newer file fails with a clear message.
#include "InputError.h"

#include <QString>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace cs {

constexpr int kRunStoreSchemaVersion = 1;

struct MetricInfo {
    std::string name, unit, kind, entityKind;
};

class RunStore {
public:
    // Creates the file (or opens it to add runs). Throws InputException naming the file.
    static RunStore openForWriting(const QString& path);
    static RunStore openForReading(const QString& path);
    RunStore(RunStore&&) noexcept;
    RunStore& operator=(RunStore&&) noexcept;
    ~RunStore();

    // Writing: begin() ... commit(); destroying the store without commit() rolls back.
    void begin();
    void commit();
    void checkpoint(); // folds the write-ahead log into the file
    int64_t addRun(const std::string& kind, const std::string& name, const std::string& topology,
                   const std::string& paramsJson);
    void finishRun(int64_t run, int64_t endNs, const std::string& summaryJson);
    int64_t metric(const MetricInfo& m); // id, created on first use
    void addFrame(int64_t run, int64_t metric, int64_t tsNs, const std::vector<float>& values);
    void addScalar(int64_t run, int64_t metric, int64_t tsNs, double value);
    void addEvent(int64_t run, int64_t tsNs, const std::string& kind, const std::string& entityKind,
                  int64_t entity, const std::string& detail);
    // Transposes a run's frames into per-entity history chunks; writers call it before commit.
    void buildHistory(int64_t run);

    // Reading.
    std::vector<int64_t> runs() const;
    std::optional<int64_t> metricId(const std::string& name) const;
    // The latest frame at or before tsNs (empty if none).
    std::vector<float> frameAt(int64_t run, int64_t metric, int64_t tsNs,
                               int64_t* frameTsNs = nullptr) const;
    std::vector<std::pair<int64_t, double>> scalars(int64_t run, int64_t metric) const;
    int64_t countEvents(int64_t run, const std::string& kind) const;
    struct Event {
        int64_t tsNs;
        std::string kind, entityKind;
        int64_t entity;
        std::string detail;
    };
    // Events of a run in time order, at most `limit` (steps are numerous: skip them unless asked).
    std::vector<Event> events(int64_t run, bool withSteps, size_t limit = 100000) const;
    std::vector<int64_t> frameTimes(int64_t run, int64_t metric) const;
    std::pair<int64_t, int64_t> timeRange(int64_t run) const; // start, end in ns
    // One entity's values in [fromNs, toNs] (from the history chunks).
    std::vector<std::pair<int64_t, float>>
    entityHistory(int64_t run, int64_t metric, int64_t entity, int64_t fromNs, int64_t toNs) const;
    std::string summaryJson(int64_t run) const;
    bool integrityOk() const; // PRAGMA integrity_check

private:
    RunStore(sqlite3* db, std::string path);
    sqlite3_stmt* prepare(const char* sql) const;
    // A statement kept for reuse (hot paths: frames, values), reset before it is handed out.
    sqlite3_stmt* cached(const char* sql) const;
    void finalizeCached();
    void exec(const char* sql) const;
    [[noreturn]] void fail(const std::string& what) const;

    sqlite3* db_ = nullptr;
    std::string path_;
    bool inTransaction_ = false;
    mutable std::vector<std::pair<const char*, sqlite3_stmt*>> cache_;
};

} // namespace cs
