#pragma once
// The time slider of a replay: play / pause, speed, loop, the current time, and a bar with
// the run's events as markers (failures red, checkpoints blue, restarts green). Clicking or
// dragging on the bar seeks. It only asks the PlaybackClock to change.
#include "PlaybackClock.h"
#include "RunReader.h"
#include "StepBreakdown.h"

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
    // The run's step times (a series per training stretch) and the slowest stage's step part
    // by part: where steps start is marked once they are 6 px apart, and each step's parts
    // are drawn as bands under the bar once a step is 40 px wide.
    void setSteps(Series stepTimeS, std::vector<StepSegment> segments);
    std::vector<int> stepMarkXs() const; // where marks are drawn now
    bool showsPhaseBands() const;
    QSize sizeHint() const override { return {400, 34}; }
    int xOf(int64_t tsNs) const;
    // What a marker's tooltip says at x: the events within a few pixels ("Failure at
    // 3d 04h 12m: ..."), at most a handful; empty where no marker is.
    QString markerText(int x) const;

protected:
    bool event(QEvent* e) override; // tooltips on markers
    void paintEvent(QPaintEvent*) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;

private:
    void seekTo(int x);
    PlaybackClock* clock_;
    std::vector<RunEvent> events_;
    Series stepTimeS_;
    std::vector<StepSegment> segments_;
};

class TimelineWidget : public QWidget {
    Q_OBJECT
public:
    TimelineWidget(PlaybackClock* clock, QWidget* parent = nullptr);
    TimelineBar* bar() const { return bar_; }
    void setEvents(std::vector<RunEvent> events) { bar_->setEvents(std::move(events)); }
    void setSteps(Series stepTimeS, std::vector<StepSegment> segments) {
        bar_->setSteps(std::move(stepTimeS), std::move(segments));
    }
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
