#pragma once
// A study's result file: one SQLite file holding the study it ran, each finished variant
// (its parameters, status, message, figures and kept run), and a log of when each variant
// started and finished. Only finished variants are rows, so a study that was stopped
// resumes with the variants that have none; a row is written in one transaction.
//
//   meta(key, value)          format, version, study (the study's JSON), variants (count),
//                             dir (the study file's folder: its topology files are there)
//   variants(idx, params, status, message, figures, run_path, seconds)
//                             idx: the variant's place in studyVariants order; status 'ok'
//                             or 'failed'; params and figures as JSON objects
//   log(ts_ns, idx, event)    'started' / 'ok' / 'failed' / 'error' (its worker died: the
//                             variant stays to run again), wall-clock ns since the epoch
#include "InputError.h"

#include <QJsonObject>
#include <QString>

#include <set>
#include <string>
#include <vector>

struct sqlite3;

namespace cs {

constexpr int kStudyStoreVersion = 1;

struct VariantResult {
    int index = 0;
    QJsonObject params;
    bool ok = false;
    std::string message; // why it failed
    QJsonObject figures;
    QString runPath;
    double seconds = 0; // the worker's wall time
};

struct StudyLogEntry {
    long long tsNs = 0;
    int index = 0;
    std::string event;
};

class StudyStore {
public:
    // Creates the file, or opens one made by the same study (`studyJson` equal) to resume it.
    // A file of another study, or not a study's result file, is refused naming the file.
    static StudyStore openForStudy(const QString& path, const QJsonObject& studyJson,
                                   int variantCount, const QString& studyDir = QString());
    // An existing result file, read-only unless `writable` (merging parts into it).
    static StudyStore open(const QString& path, bool writable = false);
    StudyStore(StudyStore&& o) noexcept;
    StudyStore& operator=(StudyStore&&) = delete;
    ~StudyStore();

    QJsonObject study() const;
    int variantCount() const;
    QString studyDir() const; // empty when not recorded
    std::set<int> finished() const;
    std::vector<VariantResult> results() const; // by index
    std::vector<StudyLogEntry> log() const;

    void logEvent(int index, const std::string& event);
    void record(const VariantResult& r); // a second result for an index is refused
    // Copies the finished variants of another result file of the same study that this one
    // lacks; returns how many. Repeating it adds nothing.
    int mergeFrom(const QString& partPath);

    const QString& path() const { return path_; }

private:
    StudyStore(sqlite3* db, QString path);
    [[noreturn]] void fail(const std::string& what) const;
    void insert(const VariantResult& r); // both throw std::runtime_error with SQLite's words
    void insertLog(long long tsNs, int index, const std::string& event);
    template <typename Fn> void inTransaction(Fn&& fn);
    void exec(const char* sql) const;
    std::string meta(const char* key) const;

    sqlite3* db_ = nullptr;
    QString path_;
};

} // namespace cs
