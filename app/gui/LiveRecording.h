#pragma once
// The GUI's live recording: polls a Prometheus-compatible server every step off the GUI
// thread (one poll at a time) and says when the run grew or a poll failed; the window then
// refreshes the replay. Failed polls are retried at the next step.
#include "PrometheusLive.h"

#include <QObject>

#include <functional>
#include <memory>

class QThread;
class QTimer;

namespace cs::app {

class LiveRecording : public QObject {
    Q_OBJECT
public:
    // `nowS` gives "now" in Unix seconds (the system clock unless a test sets its own);
    // `pollMs` 0: every step of the recording.
    LiveRecording(std::shared_ptr<PrometheusLive> live, std::function<int64_t()> nowS = {},
                  int pollMs = 0, QObject* parent = nullptr);
    ~LiveRecording() override; // waits for a poll in flight
    const PrometheusLive& recording() const { return *live_; }
    QString storePath() const;
    long long polls() const { return polls_; }

signals:
    void appended(long long frames); // the run grew; the store holds the new frames
    void failed(QString message);    // this poll failed; the next step tries again

private:
    void poll();
    std::shared_ptr<PrometheusLive> live_;
    std::function<int64_t()> nowS_;
    QTimer* timer_;
    QThread* inFlight_ = nullptr;
    long long polls_ = 0;
};

} // namespace cs::app
