#include "TimelineWidget.h"

#include "Duration.h"
#include "HoverTip.h"
#include "RunCaption.h"
#include "RunEventsModel.h"
#include "SaturatingTime.h"
#include "StepBreakdownChart.h"

#include <QCheckBox>
#include <QDateTime>
#include <QHBoxLayout>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QStyle>
#include <QTimeZone>
#include <QToolButton>

namespace cs::views {

TimelineBar::TimelineBar(PlaybackClock* clock, QWidget* parent) : QWidget(parent), clock_(clock) {
    setMinimumHeight(30);
    setCursor(Qt::PointingHandCursor);
    connect(clock_, &PlaybackClock::nowChanged, this, qOverload<>(&QWidget::update));
    connect(clock_, &PlaybackClock::stateChanged, this, qOverload<>(&QWidget::update));
}

void TimelineBar::setEvents(std::vector<RunEvent> events) {
    events_ = std::move(events);
    update();
}

int TimelineBar::xOf(int64_t ts) const {
    // In doubles: a hostile run's range may not fit an int64 difference.
    const double span = std::max(1.0, double(clock_->endNs()) - double(clock_->startNs()));
    const double f = std::clamp((double(ts) - double(clock_->startNs())) / span, 0.0, 1.0);
    return 6 + int(f * (width() - 12));
}

namespace {
constexpr int kMarkGapPx = 6, kBandStepPx = 40;
} // namespace

void TimelineBar::setSteps(Series stepTimeS, std::vector<StepSegment> segments) {
    stepTimeS_ = std::move(stepTimeS);
    segments_ = std::move(segments);
    update();
}

std::vector<int> TimelineBar::stepMarkXs() const {
    const int widthPx = std::max(1, width() - 12);
    std::vector<int> xs;
    for (int64_t t :
         stepStarts(stepTimeS_, clock_->startNs(), clock_->endNs(), size_t(widthPx / kMarkGapPx)))
        xs.push_back(xOf(t));
    return xs;
}

bool TimelineBar::showsPhaseBands() const {
    const std::vector<int> xs = stepMarkXs();
    if (segments_.empty() || xs.empty()) return false;
    return xs.size() <= size_t(std::max(1, width() - 12) / kBandStepPx);
}

void TimelineBar::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const int mid = height() / 2;
    // Each step's parts (the slowest stage's) as bands under the bar, then the step marks.
    if (showsPhaseBands()) {
        p.setPen(Qt::NoPen);
        for (int64_t start : stepStarts(stepTimeS_, clock_->startNs(), clock_->endNs(),
                                        size_t(std::max(1, width() - 12) / kBandStepPx)))
            for (const StepSegment& s : segments_) {
                const int x0 = xOf(start + int64_t(s.fromS * 1e9)),
                          x1 = xOf(start + int64_t(s.toS * 1e9));
                p.setBrush(stepPartColor(s.part));
                p.drawRect(QRect(x0, mid + 4, std::max(1, x1 - x0), 5));
            }
    }
    p.setPen(QPen(palette().mid().color(), 1));
    for (int x : stepMarkXs())
        p.drawLine(x, mid - 7, x, mid + 9);
    p.setPen(Qt::NoPen);
    p.setBrush(palette().mid());
    p.drawRoundedRect(QRect(6, mid - 3, width() - 12, 6), 3, 3);
    p.setBrush(palette().highlight());
    p.drawRoundedRect(QRect(6, mid - 3, xOf(clock_->nowNs()) - 6, 6), 3, 3);
    // Event markers; Okabe-Ito colours as in the 3D view.
    for (const RunEvent& e : events_) {
        QColor c(0, 114, 178); // checkpoint: blue
        if (e.kind == EventKind::Failure)
            c = QColor(213, 94, 0);
        else if (e.kind == EventKind::Restart)
            c = QColor(0, 158, 115);
        else if (e.kind == EventKind::Maintenance)
            c = QColor(204, 121, 167);
        p.setPen(QPen(c, 1));
        const int x = xOf(e.tsNs);
        p.drawLine(x, e.kind == EventKind::Checkpoint ? mid + 5 : 2, x,
                   e.kind == EventKind::Checkpoint ? height() - 2 : mid - 5);
    }
    p.setPen(QPen(palette().text().color(), 2));
    const int x = xOf(clock_->nowNs());
    p.drawLine(x, 1, x, height() - 1);
}

void TimelineBar::seekTo(int x) {
    const double f = std::clamp(double(x - 6) / std::max(1, width() - 12), 0.0, 1.0);
    const double span = double(clock_->endNs()) - double(clock_->startNs());
    clock_->seek(addSaturating(clock_->startNs(), toNsSaturating(f * span)));
}

QString TimelineBar::markerText(int x) const {
    QStringList lines;
    int more = 0;
    for (const RunEvent& e : events_) {
        if (e.kind == EventKind::Step || std::abs(xOf(e.tsNs) - x) > 3) continue;
        if (lines.size() == 6) {
            ++more;
            continue;
        }
        lines << tr("%1 at %2%3")
                     .arg(eventKindLabel(e.kind), QString::fromStdString(formatElapsed(e.tsNs)),
                          e.detail.empty()
                              ? QString()
                              : QStringLiteral(": ") + QString::fromStdString(e.detail));
    }
    if (more > 0) lines << tr("and %1 more (the Events dock lists them)").arg(more);
    return lines.join('\n');
}

bool TimelineBar::event(QEvent* e) {
    if (showHoverTip(this, e, [this](QPoint at) { return markerText(at.x()); })) return true;
    return QWidget::event(e);
}

void TimelineBar::mousePressEvent(QMouseEvent* e) {
    seekTo(int(e->position().x()));
}
void TimelineBar::mouseMoveEvent(QMouseEvent* e) {
    if (e->buttons() & Qt::LeftButton) seekTo(int(e->position().x()));
}

QString TimelineWidget::formatTime(int64_t ns) {
    return QString::fromStdString(formatElapsed(ns));
}

TimelineWidget::TimelineWidget(PlaybackClock* clock, QWidget* parent)
    : QWidget(parent), clock_(clock), play_(new QToolButton), time_(new QLabel), rate_(new QLabel),
      loop_(new QCheckBox(tr("Loop"))), bar_(new TimelineBar(clock)) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 2, 6, 2);
    play_->setToolTip(tr("Play / pause (Space)"));
    auto* slower = new QToolButton;
    slower->setText("-");
    slower->setToolTip(tr("Slower (-)"));
    auto* faster = new QToolButton;
    faster->setText("+");
    faster->setToolTip(tr("Faster (+)"));
    zone_ = new QToolButton;
    zone_->setCheckable(true);
    zone_->setChecked(true);
    zone_->setText("UTC");
    zone_->setToolTip(tr("Show recorded times in UTC or in local time"));
    zone_->setVisible(false);
    connect(zone_, &QToolButton::toggled, this, [this](bool utc) {
        zone_->setText(utc ? "UTC" : tr("local"));
        refresh();
        emit zoneChanged(utc);
    });
    live_ = new QToolButton;
    live_->setCheckable(true);
    live_->setText(tr("Live"));
    live_->setToolTip(tr("Recording live: follow the newest frame"));
    live_->setStyleSheet("QToolButton:checked { color: white; background: #c0392b; }");
    live_->setVisible(false);
    connect(live_, &QToolButton::toggled, this, &TimelineWidget::followToggled);
    time_->setMinimumWidth(110);
    time_->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    rate_->setMinimumWidth(44);
    layout->addWidget(play_);
    layout->addWidget(slower);
    layout->addWidget(rate_);
    layout->addWidget(faster);
    layout->addWidget(loop_);
    layout->addWidget(bar_, 1);
    layout->addWidget(time_);
    layout->addWidget(zone_);
    layout->addWidget(live_);
    connect(play_, &QToolButton::clicked, clock_, &PlaybackClock::togglePlay);
    connect(slower, &QToolButton::clicked, clock_, &PlaybackClock::slower);
    connect(faster, &QToolButton::clicked, clock_, &PlaybackClock::faster);
    connect(loop_, &QCheckBox::toggled, clock_, &PlaybackClock::setLoop);
    connect(clock_, &PlaybackClock::nowChanged, this, &TimelineWidget::refresh);
    connect(clock_, &PlaybackClock::stateChanged, this, &TimelineWidget::refresh);
    refresh();
}

void TimelineWidget::refresh() {
    play_->setIcon(
        style()->standardIcon(clock_->playing() ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
    rate_->setText(QStringLiteral("%1x").arg(clock_->rate()));
    time_->setText(timeText());
    loop_->setChecked(clock_->loop());
}

void TimelineWidget::setWallStartNs(int64_t ns) {
    wallStartNs_ = std::max<int64_t>(0, ns);
    zone_->setVisible(wallStartNs_ > 0);
    refresh();
}

void TimelineWidget::setLive(bool live) {
    live_->setVisible(live);
    live_->setChecked(live);
}

bool TimelineWidget::followsNow() const {
    return !live_->isHidden() && live_->isChecked();
}

bool TimelineWidget::utc() const {
    return zone_->isChecked();
}

QString TimelineWidget::wallText(int64_t offsetNs) const {
    if (wallStartNs_ <= 0) return formatTime(offsetNs);
    // Milliseconds since the epoch fit easily: the store refuses times after 2261.
    const QDateTime when =
        QDateTime::fromMSecsSinceEpoch((wallStartNs_ + std::max<int64_t>(0, offsetNs)) / 1'000'000,
                                       utc() ? QTimeZone::utc() : QTimeZone::systemTimeZone());
    return when.toString("yyyy-MM-dd HH:mm:ss") + (utc() ? " UTC" : "") + "   +" +
           formatTime(offsetNs);
}

QString TimelineWidget::timeText() const {
    const int64_t offsetNs = clock_->nowNs() - clock_->startNs();
    return wallText(offsetNs) + " / " + formatTime(clock_->endNs() - clock_->startNs());
}

} // namespace cs::views
