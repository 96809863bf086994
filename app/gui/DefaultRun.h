#pragma once
// What a new user sees first: Llama 3 405B training on 16,384 GPUs of meta-roce-24k (the
// Llama 3 paper's Table 4 configuration), three steps, simulated in the background at start
// and cached, so that the next start opens it at once.
#include "SimulationRun.h"

#include <QObject>
#include <QString>

class QThread;

namespace cs::app {

RunSpec defaultRunSpec405b();
// The cache file of a spec on a topology: it changes with the spec, the topology and the
// build, so a stale result is never shown.
QString defaultRunCachePath(const RunSpec& spec, const TopologyDocument& doc);
// At most this many cached default runs stay: each build, engine and design writes its own.
constexpr int kDefaultRunCacheEntries = 3;
// Deletes the oldest cached default runs in `dir` (by modification time) beyond `keep`; the
// ones deleted, for the log and the tests.
QStringList pruneDefaultRunCache(const QString& dir, int keep = kDefaultRunCacheEntries);

// Simulates a spec into a store file off the GUI thread: written beside the target and
// renamed when complete, so a killed run never leaves a half-written cache.
class BackgroundSimulation : public QObject {
    Q_OBJECT
public:
    BackgroundSimulation(const TopologyDocument& doc, RunSpec spec, QString path,
                         QObject* parent = nullptr);
    ~BackgroundSimulation() override; // cancels and waits
    void start();

signals:
    void progress(double fraction);
    void finished(QString path);
    void failed(QString message);

private:
    const TopologyDocument& doc_;
    RunSpec spec_;
    QString path_;
    QThread* thread_ = nullptr;
    std::atomic<bool> cancel_{false};
};

} // namespace cs::app
