#pragma once
// The GUI's run reader, on a thread of its own: the GUI thread asks (open, the frame at a
// time, one entity's history) and gets plain values back through queued signals, so a slow
// query never freezes the window. Frame requests coalesce: while one is read, only the
// latest time asked for is read next.
#include "RunOverview.h"

#include <QObject>

#include <atomic>
#include <memory>

class QThread;

namespace cs::app {

struct FrameResult {
    RunFrame frame;
    std::vector<Endpoint> failed; // entities between failure and restart at that time
};

class RunReaderThread : public QObject {
    Q_OBJECT
public:
    explicit RunReaderThread(QObject* parent = nullptr);
    ~RunReaderThread() override;

    // Opens a store for a topology (which must outlive the reader, until close()); answers
    // with opened() or failed(). A new open or close() drops what was open and any answer
    // still on its way; close() returns once the reader is gone.
    void open(const QString& path, const Topology& t);
    // open(), waiting for the answer while the window keeps painting (user input waits):
    // the run's overview, or null with the reason in `error`.
    std::shared_ptr<const RunOverview> openAndWait(const QString& path, const Topology& t,
                                                   QString* error);
    void close();
    // Reads the open run again (a live recording grew); answers with refreshed() when it
    // changed.
    void refresh();
    void requestFrame(int64_t tsNs);
    void requestHistory(Endpoint e);
    // The mean GPU busy fraction of a job's GPUs and its traffic sources' traffic over the
    // network tiers, over [fromNs, toNs] (toNs < 0: the run's end), the time it ran (answer:
    // jobHistoryReady).
    void requestJobHistory(int job, std::vector<int32_t> gpus, std::vector<int32_t> sources,
                           int64_t fromNs, int64_t toNs);
    // What crosses a link over the stretch playing at tsNs (RunReader::linkUse).
    void requestLinkUse(int32_t link, int64_t tsNs);
    // The hottest links over the stretch playing at tsNs (RunReader::hottestLinks).
    void requestHottestLinks(int64_t tsNs, int count, HotBy by);

signals:
    void opened(std::shared_ptr<const cs::RunOverview> overview);
    void failed(QString message);
    void refreshed(std::shared_ptr<const cs::RunOverview> overview);
    void frameReady(std::shared_ptr<const cs::app::FrameResult> frame);
    void historyReady(cs::Endpoint e, cs::Series series);
    void jobHistoryReady(int job, cs::Series busy, cs::Series traffic);
    void linkUseReady(qint32 link, cs::LinkUse use); // none stored: no signal
    void hottestLinksReady(std::vector<cs::LinkHeat> links);

private:
    // Runs fn(generation) on the reader thread; answers of an older generation (an open or
    // close came since) are dropped when they arrive.
    template <class Fn> void post(Fn fn);

    QThread* thread_;
    QObject* context_;                  // lives on the reader thread
    std::unique_ptr<RunReader> reader_; // touched only on the reader thread
    std::atomic<int> generation_{0};
    std::atomic<int64_t> wantedFrameNs_{0};
    std::atomic<bool> framePending_{false};
};

} // namespace cs::app
