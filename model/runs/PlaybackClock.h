#pragma once
// The one clock that owns "now" for every view: a time range, the current time, a rate
// (0.25x to 16384x: a two-day run plays in under 11 s of wall time), loop and playing. Views
// subscribe to nowChanged; widgets only ask it to change. Times are int64 nanoseconds from the
// run's start.
#include <QElapsedTimer>
#include <QObject>

#include <cstdint>

class QTimer;

namespace cs {

class PlaybackClock : public QObject {
    Q_OBJECT
public:
    static constexpr double kMinRate = 0.25, kMaxRate = 16384;

    explicit PlaybackClock(QObject* parent = nullptr);

    int64_t nowNs() const { return nowNs_; }
    int64_t startNs() const { return startNs_; }
    int64_t endNs() const { return endNs_; }
    double rate() const { return rate_; }
    bool playing() const { return playing_; }
    bool loop() const { return loop_; }

    void setRange(int64_t startNs, int64_t endNs); // clamps now into the range
    void seek(int64_t tsNs);                       // clamped
    void step(int64_t deltaNs);                    // seek relative, pauses
    void setRate(double rate);                     // clamped to 0.25..16384
    void faster();                                 // x2
    void slower();                                 // /2
    void setLoop(bool on);
    void play();
    void pause();
    void togglePlay();
    // Advances as if `wallNs` of real time passed while playing (the timer calls this; tests
    // call it directly).
    void advance(int64_t wallNs);

signals:
    void nowChanged(qint64 nowNs);
    void stateChanged(); // playing, rate, loop or range

private:
    void tick();

    int64_t startNs_ = 0, endNs_ = 0, nowNs_ = 0;
    double rate_ = 1;
    bool playing_ = false, loop_ = false;
    QTimer* timer_;
    QElapsedTimer wall_;
};

} // namespace cs
