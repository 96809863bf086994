#pragma once
// A run store a command creates: if the command fails (an import that finds nothing, a
// simulation refused), the file it created goes again, so no empty store is left behind.
// A store that existed before keeps its earlier runs: the failed run's transaction rolls
// back. Declare it before the RunStore so that the store closes first.
#include <QFile>
#include <QFileInfo>
#include <QString>

namespace cs::app {

class NewStoreFile {
public:
    explicit NewStoreFile(QString path)
        : path_(std::move(path)), existed_(QFileInfo::exists(path_)) {}
    NewStoreFile(const NewStoreFile&) = delete;
    NewStoreFile& operator=(const NewStoreFile&) = delete;
    ~NewStoreFile() {
        if (kept_ || existed_ || path_.isEmpty()) return;
        for (const char* suffix : {"", "-wal", "-shm", "-journal"})
            QFile::remove(path_ + suffix);
    }
    void keep() { kept_ = true; }

private:
    QString path_;
    bool existed_ = false, kept_ = false;
};

} // namespace cs::app
