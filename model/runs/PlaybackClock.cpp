#include "PlaybackClock.h"

#include "SaturatingTime.h"

#include <QTimer>

#include <algorithm>
#include <cmath>

namespace cs {

namespace {
constexpr int kTickMs = 33; // ~30 frames per second while playing
}

PlaybackClock::PlaybackClock(QObject* parent) : QObject(parent), timer_(new QTimer(this)) {
    timer_->setInterval(kTickMs);
    connect(timer_, &QTimer::timeout, this, &PlaybackClock::tick);
}

void PlaybackClock::setRange(int64_t startNs, int64_t endNs) {
    startNs_ = startNs;
    endNs_ = std::max(startNs, endNs);
    emit stateChanged();
    seek(nowNs_);
}

void PlaybackClock::seek(int64_t tsNs) {
    const int64_t clamped = std::clamp(tsNs, startNs_, endNs_);
    if (clamped == nowNs_) return;
    nowNs_ = clamped;
    emit nowChanged(nowNs_);
}

void PlaybackClock::step(int64_t deltaNs) {
    pause();
    seek(addSaturating(nowNs_, deltaNs));
}

void PlaybackClock::setRate(double rate) {
    const double r = std::clamp(rate, kMinRate, kMaxRate);
    if (r == rate_) return;
    rate_ = r;
    emit stateChanged();
}

void PlaybackClock::faster() {
    setRate(rate_ * 2);
}
void PlaybackClock::slower() {
    setRate(rate_ / 2);
}

void PlaybackClock::setLoop(bool on) {
    loop_ = on;
    emit stateChanged();
}

void PlaybackClock::play() {
    if (playing_ || endNs_ <= startNs_) return;
    if (nowNs_ >= endNs_) seek(startNs_); // playing from the end starts over
    playing_ = true;
    wall_.start();
    timer_->start();
    emit stateChanged();
}

void PlaybackClock::pause() {
    if (!playing_) return;
    playing_ = false;
    timer_->stop();
    emit stateChanged();
}

void PlaybackClock::togglePlay() {
    playing_ ? pause() : play();
}

void PlaybackClock::tick() {
    advance(wall_.nsecsElapsed()), wall_.restart();
}

void PlaybackClock::advance(int64_t wallNs) {
    if (!playing_) return;
    int64_t next = addSaturating(nowNs_, toNsSaturating(std::round(double(wallNs) * rate_)));
    if (next >= endNs_) {
        if (loop_ && endNs_ > startNs_) {
            // In unsigned arithmetic: a range wider than int64 (a negative start) wraps too.
            const uint64_t span = uint64_t(endNs_) - uint64_t(startNs_);
            const uint64_t over = uint64_t(next) - uint64_t(endNs_);
            next = int64_t(uint64_t(startNs_) + over % span);
        } else {
            seek(endNs_);
            pause();
            return;
        }
    }
    seek(next);
}

} // namespace cs
