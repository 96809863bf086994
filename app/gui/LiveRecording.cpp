#include "LiveRecording.h"

#include <QDateTime>
#include <QThread>
#include <QTimer>

#include <algorithm>

namespace cs::app {

LiveRecording::LiveRecording(std::shared_ptr<PrometheusLive> live, std::function<int64_t()> nowS,
                             int pollMs, QObject* parent)
    : QObject(parent), live_(std::move(live)), nowS_(std::move(nowS)), timer_(new QTimer(this)) {
    if (!nowS_) nowS_ = [] { return QDateTime::currentSecsSinceEpoch(); };
    // Every step, but not more often than once a second.
    const int stepMs = int(std::min<int64_t>(live_->tickNs() / 1'000'000, 3'600'000));
    timer_->setInterval(pollMs > 0 ? pollMs : std::max(1000, stepMs));
    connect(timer_, &QTimer::timeout, this, &LiveRecording::poll);
    timer_->start();
}

LiveRecording::~LiveRecording() {
    timer_->stop();
    if (inFlight_) {
        inFlight_->wait(); // it refers to the recording, which goes with this object
        delete inFlight_;
    }
}

QString LiveRecording::storePath() const {
    return QString::fromStdString(live_->storePath());
}

void LiveRecording::poll() {
    if (inFlight_) return; // a slow server: the poll in flight takes the newest data anyway
    struct Outcome {
        long long frames = 0;
        QString error;
    };
    auto outcome = std::make_shared<Outcome>();
    const int64_t now = nowS_();
    std::shared_ptr<PrometheusLive> live = live_;
    inFlight_ = QThread::create([live, now, outcome] {
        try {
            outcome->frames = live->poll(now).frames;
        } catch (const std::exception& e) {
            outcome->error = QString::fromStdString(e.what());
        }
    });
    connect(inFlight_, &QThread::finished, this, [this, outcome] {
        inFlight_->deleteLater();
        inFlight_ = nullptr;
        ++polls_;
        if (!outcome->error.isEmpty())
            emit failed(outcome->error);
        else if (outcome->frames > 0)
            emit appended(outcome->frames);
    });
    inFlight_->start();
}

} // namespace cs::app
