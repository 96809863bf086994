#pragma once
// A run store a command creates: if the command fails (an import that finds nothing, a
// simulation refused), the file it created goes again, so no empty store is left behind; and
// so it does when the process is ended by SIGINT, SIGTERM or SIGHUP while the store is being
// written (Ctrl+C during an import), before the signal ends it as it would have. A store that
// existed before keeps its earlier runs: the unfinished run's transaction rolls back (SQLite
// ignores a log's uncommitted frames when the store is next opened). Declare it before the
// RunStore so that the store closes first.
#include <QString>

namespace cs::app {

class NewStoreFile {
public:
    explicit NewStoreFile(QString path);
    NewStoreFile(const NewStoreFile&) = delete;
    NewStoreFile& operator=(const NewStoreFile&) = delete;
    ~NewStoreFile();
    void keep(); // the command succeeded: the store stays

private:
    QString path_;
    bool existed_ = false, kept_ = false;
    int slot_ = -1; // in the signal handler's list; -1: none
};

} // namespace cs::app
