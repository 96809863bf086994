#pragma once
// The run store: one SQLite file holding runs, simulated or recorded. Schema version 3.
// Low-level rows only: RunWriter writes them, RunReader is the one code that reads them.
//
//   meta(key, value)                             format name, schema version
//   runs(id, kind, name, topology, fingerprint, wall_start_ns, end_ns, params_json,
//        summary_json)                           a run's time runs from 0 to end_ns
//   run_metrics(run, id, name, unit, entity_kind, entities)    catalogue names, per run
//   patterns(run, pattern, name, duration_ns)    a stretch of frames on its own time axis:
//                                                a steady step, a checkpoint, a whole recording
//   timeline(run, start_ns, end_ns, pattern, period_ns)   which pattern plays when (repeating
//                                                every period_ns, or once when 0)
//   frames(run, metric, pattern, frame, offset_ns, is_key, vals)   is_key: float32 per entity;
//                                                else (uint32 entity, float32 value) changes
//   frame_stats(run, metric, pattern, frame, count, mean, min, max, sum, p5, p95)
//   composed_sources(run, metric, pattern, source, vals)   a traffic source's load per link
//                                                direction: (uint32 slot, float32 B/s) pairs
//                                                (a per-entity metric: slot = the entity)
//   composed_frames(run, metric, pattern, frame, offset_ns, weights)   float32 per source: how
//                                                much of each source is on in that frame. A
//                                                composed metric's frame is the weighted sum,
//                                                each direction at most its capacity, the
//                                                busier direction per link
//   history(run, metric, pattern, entity, chunk, vals)   one entity's (int32 frame, float32)
//                                                changes in a chunk of frames, starting with
//                                                its value at the chunk's first frame
//   scalars(run, metric, ts_ns, value)           run-wide series (step time, MFU)
//   events(run, ts_ns, kind, entity_kind, entity, detail)
// WAL journal; a writer's session is one transaction, so an interrupted writer leaves the
// file as it was. A foreign, damaged, older or newer file is refused with a clear message.
#include "InputError.h"

#include <QString>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace cs {

// 3: a per-entity metric (a GPU's busy) may be composed from sources, as link traffic is. A
// schema 2 file reads as it is, and a writer adding a run to it marks it 3.
constexpr int kRunStoreSchemaVersion = 3;
constexpr int kOldestReadableRunStoreSchema = 2;
// The longest time a run may hold, 2^62 ns (about 146 years): readers refuse stores beyond
// it and writers refuse to write them, so that any two times add up inside int64.
constexpr int64_t kMaxRunNs = int64_t(1) << 62;
constexpr int kHistoryChunkFrames = 256; // frames per history row: a step pattern is a few rows

struct StoredRun {
    int64_t id = 0;
    std::string kind, name, topology;
    uint64_t fingerprint = 0;
    int64_t wallStartNs = 0, endNs = 0;
    std::string paramsJson, summaryJson;
};

struct StoredMetric {
    int64_t id = 0;
    std::string name, unit, entityKind;
    int64_t entities = 0;
};

struct StoredPattern {
    int32_t pattern = 0;
    std::string name;
    int64_t durationNs = 0;
};

struct StoredSegment {
    int64_t startNs = 0, endNs = 0;
    int32_t pattern = 0;
    int64_t periodNs = 0;
};

struct StoredFrameRef {
    int32_t frame = 0;
    int64_t offsetNs = 0;
    bool key = false;
};

struct FrameStats {
    int64_t count = 0; // entities with a value
    double mean = 0, min = 0, max = 0, sum = 0, p5 = 0, p95 = 0;
};

struct StoredEvent {
    int64_t tsNs = 0;
    std::string kind, entityKind;
    int64_t entity = 0;
    std::string detail;
};

class RunStore {
public:
    // Creates the file (or opens it to add runs). Throws InputException naming the file.
    static RunStore openForWriting(const QString& path);
    static RunStore openForReading(const QString& path);
    RunStore(RunStore&&) noexcept;
    RunStore& operator=(RunStore&&) noexcept;
    ~RunStore();
    const std::string& path() const { return path_; }

    // Writing: begin() ... commit(); rollback() or destroying the store undoes it.
    void begin();
    void commit();
    void rollback();
    void checkpoint(); // folds the write-ahead log into the file
    int64_t addRun(const StoredRun& r);
    void finishRun(int64_t run, int64_t endNs, const std::string& summaryJson);
    int64_t addMetric(int64_t run, const StoredMetric& m);
    void addPattern(int64_t run, const StoredPattern& p);
    void addSegment(int64_t run, const StoredSegment& s);
    void addFrame(int64_t run, int64_t metric, int32_t pattern, const StoredFrameRef& f,
                  const void* data, size_t bytes);
    void addFrameStats(int64_t run, int64_t metric, int32_t pattern, int32_t frame,
                       const FrameStats& s);
    void addHistory(int64_t run, int64_t metric, int32_t pattern, int32_t entity, int32_t chunk,
                    const void* data, size_t bytes);
    void addComposedSource(int64_t run, int64_t metric, int32_t pattern, int32_t source,
                           const void* data, size_t bytes);
    void addComposedFrame(int64_t run, int64_t metric, int32_t pattern, int32_t frame,
                          int64_t offsetNs, const void* weights, size_t bytes);
    void addScalar(int64_t run, int64_t metric, int64_t tsNs, double value);
    void addEvent(int64_t run, const StoredEvent& e);

    // Reading (RunReader's rows).
    std::vector<StoredRun> runs() const;
    std::vector<StoredMetric> metrics(int64_t run) const;
    std::vector<StoredPattern> patterns(int64_t run) const;
    std::vector<StoredSegment> timeline(int64_t run) const;
    std::vector<StoredFrameRef> frameRefs(int64_t run, int64_t metric, int32_t pattern) const;
    // Frames fromFrame..toFrame in order: fn(frame, isKey, data, bytes).
    using BlobFn = std::function<void(int32_t, bool, const void*, size_t)>;
    void readFrames(int64_t run, int64_t metric, int32_t pattern, int32_t fromFrame,
                    int32_t toFrame, const BlobFn& fn) const;
    std::vector<FrameStats> frameStats(int64_t run, int64_t metric, int32_t pattern) const;
    // History chunks fromChunk..toChunk of one entity: fn(chunk, false, data, bytes).
    void readHistory(int64_t run, int64_t metric, int32_t pattern, int32_t entity,
                     int32_t fromChunk, int32_t toChunk, const BlobFn& fn) const;
    // Composed frames of a pattern: sources (fn(source, false, data, bytes)) and frames.
    void readComposedSources(int64_t run, int64_t metric, int32_t pattern, const BlobFn& fn) const;
    struct ComposedFrame {
        int64_t offsetNs = 0;
        std::vector<float> weights;
    };
    std::vector<ComposedFrame> composedFrames(int64_t run, int64_t metric, int32_t pattern) const;
    std::vector<std::pair<int64_t, double>> scalars(int64_t run, int64_t metric) const;
    // Events in time order, at most `limit`; steps are numerous: skipped unless asked.
    std::vector<StoredEvent> events(int64_t run, bool withSteps, size_t limit) const;
    bool quickCheckOk(std::string* problem = nullptr) const; // PRAGMA quick_check

private:
    RunStore(sqlite3* db, std::string path);
    sqlite3_stmt* cached(const char* sql) const; // prepared once, reset when handed out
    void finalizeCached();
    void exec(const char* sql) const;
    [[noreturn]] void fail(const std::string& what) const;
    // Throws when a frame's offset is negative or before the previous frame's.
    void checkFrameOffset(int32_t pattern, int32_t frame, int64_t offsetNs,
                          int64_t previousNs) const;
    void step(sqlite3_stmt* s, const char* what) const;

    sqlite3* db_ = nullptr;
    std::string path_;
    bool writer_ = false; // checkpoints its write-ahead log when it closes
    bool inTransaction_ = false;
    mutable std::vector<std::pair<const char*, sqlite3_stmt*>> cache_;
};

} // namespace cs
