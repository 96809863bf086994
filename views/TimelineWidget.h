#pragma once
// The time slider of a replay: play / pause, speed, loop, the current time, and a bar with
// the run's events as markers (failures red, checkpoints blue, restarts green). Clicking or
// dragging on the bar seeks. It only asks the PlaybackClock to change.
#include "PlaybackClock.h"
#include "RunReader.h"

#include <QWidget>

class QCheckBox;
class QLabel;
class QToolButton;

namespace cs::views {

class TimelineBar : public QWidget {
    Q_OBJECT
public:
    TimelineBar(PlaybackClock* clock, QWidget* parent = nullptr);
    void setEvents(std::vector<RunEvent> events);
    QSize sizeHint() const override { return {400, 34}; }
    int xOf(int64_t tsNs) const;

protected:
    void paintEvent(QPaintEvent*) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;

private:
    void seekTo(int x);
    PlaybackClock* clock_;
    std::vector<RunEvent> events_;
};

class TimelineWidget : public QWidget {
    Q_OBJECT
public:
    TimelineWidget(PlaybackClock* clock, QWidget* parent = nullptr);
    TimelineBar* bar() const { return bar_; }
    void setEvents(std::vector<RunEvent> events) { bar_->setEvents(std::move(events)); }
    // A recorded run's absolute start (ns since the epoch; 0: none, as for simulated runs):
    // the label then shows date and time, in UTC or local time (the toggle), with the offset.
    void setWallStartNs(int64_t ns);
    QString timeText() const;
    // An offset into the run as the user reads it: date and time in the chosen zone with the
    // offset for recorded runs, the offset alone otherwise.
    QString wallText(int64_t offsetNs) const;
    int64_t wallStartNs() const { return wallStartNs_; }
    bool utc() const;
    QToolButton* zoneButton() const { return zone_; }
    // A live recording: the Live button shows; checked, the clock follows the newest frame.
    void setLive(bool live);
    QToolButton* liveButton() const { return live_; }
    bool followsNow() const;
    static QString formatTime(int64_t ns);

signals:
    void zoneChanged(bool utc);
    void followToggled(bool follow);

private:
    void refresh();
    PlaybackClock* clock_;
    QToolButton* play_;
    QLabel* time_;
    QToolButton* zone_ = nullptr; // checked: UTC, else local time
    QToolButton* live_ = nullptr; // checked: follow the newest frame
    int64_t wallStartNs_ = 0;
    QLabel* rate_;
    QCheckBox* loop_;
    TimelineBar* bar_;
};

} // namespace cs::views
