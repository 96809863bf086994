#include "JobsGanttWidget.h"

#include "ColorMaps.h"
#include "HoverTip.h"
#include "JobsModel.h"

#include <QMouseEvent>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace cs::views {
namespace {
constexpr int kAxisPx = 16, kMarginPx = 4;
constexpr double kMaxRowPx = 12, kMinRowPx = 2;
} // namespace

JobsGanttWidget::JobsGanttWidget(QWidget* parent) : QWidget(parent) {
    setObjectName("jobsGantt");
    setMinimumSize(220, 80);
    setMouseTracking(false);
}

void JobsGanttWidget::setJobs(std::vector<RunJob> jobs, double endS) {
    jobs_ = std::move(jobs);
    endS_ = std::isfinite(endS) && endS > 0 ? endS : 1;
    updateGeometry();
    update();
}

void JobsGanttWidget::setNow(std::optional<double> nowS) {
    if (nowS == nowS_) return;
    nowS_ = nowS;
    update();
}

QSize JobsGanttWidget::sizeHint() const {
    const int rows = int(std::min<size_t>(jobs_.size(), 40));
    return {320, kAxisPx + 2 * kMarginPx + int(rows * 6)};
}

QRect JobsGanttWidget::plotRect() const {
    return rect().adjusted(kMarginPx, kMarginPx, -kMarginPx, -kMarginPx - kAxisPx);
}

double JobsGanttWidget::rowHeight() const {
    if (jobs_.empty()) return kMaxRowPx;
    return std::clamp(double(plotRect().height()) / double(jobs_.size()), kMinRowPx, kMaxRowPx);
}

double JobsGanttWidget::xOf(double s) const {
    const QRect r = plotRect();
    return r.left() + std::clamp(s / endS_, 0.0, 1.0) * r.width();
}

QRect JobsGanttWidget::barRect(int row) const {
    if (row < 0 || row >= int(jobs_.size())) return {};
    const RunJob& j = jobs_[size_t(row)];
    if (std::isnan(j.startS)) return {};
    const double h = rowHeight();
    const double y = plotRect().top() + row * h;
    const double x0 = xOf(j.startS), x1 = xOf(std::isnan(j.endS) ? endS_ : j.endS);
    return QRectF(x0, y, std::max(1.0, x1 - x0), std::max(1.0, h - (h > 4 ? 1 : 0))).toRect();
}

int JobsGanttWidget::rowAt(QPoint p) const {
    const QRect r = plotRect();
    if (!r.contains(p) || jobs_.empty()) return -1;
    const int row = int((p.y() - r.top()) / rowHeight());
    return row < int(jobs_.size()) ? row : -1;
}

QString JobsGanttWidget::describe(int row) const {
    if (row < 0 || row >= int(jobs_.size())) return {};
    const RunJob& j = jobs_[size_t(row)];
    QString s = QStringLiteral("%1: %2 GPUs").arg(QString::fromStdString(j.name)).arg(j.gpus);
    if (!std::isnan(j.startS))
        s += tr(", %1 to %2")
                 .arg(jobTimeText(j.startS),
                      std::isnan(j.endS) ? tr("the end") : jobTimeText(j.endS));
    if (!std::isnan(j.waitS) && j.waitS > 0) s += tr(", waited %1").arg(jobTimeText(j.waitS));
    if (!std::isnan(j.slowdown)) s += tr(", ×%1 its step alone").arg(j.slowdown, 0, 'f', 3);
    return s;
}

void JobsGanttWidget::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    const QRect r = plotRect();
    const double h = rowHeight();
    const int shown = std::min(int(jobs_.size()), int(std::ceil(r.height() / h)));
    for (int row = 0; row < shown; ++row) {
        const RunJob& j = jobs_[size_t(row)];
        const double y = r.top() + row * h;
        // The wait: from submission to start (or to the end, for a job that never started).
        if (!std::isnan(j.submitS)) {
            const double until = !std::isnan(j.startS) ? j.startS : endS_;
            if (until > j.submitS) {
                p.setPen(QPen(palette().mid().color(), 1));
                p.drawLine(QPointF(xOf(j.submitS), y + h / 2), QPointF(xOf(until), y + h / 2));
            }
        }
        if (const QRect bar = barRect(row); !bar.isEmpty()) p.fillRect(bar, jobColour(size_t(row)));
    }
    // The time axis: its start and end.
    p.setPen(palette().text().color());
    const QRect axis(r.left(), r.bottom() + 2, r.width(), kAxisPx);
    p.drawText(axis, Qt::AlignLeft | Qt::AlignVCenter, QStringLiteral("0"));
    p.drawText(axis, Qt::AlignRight | Qt::AlignVCenter, jobTimeText(endS_));
    if (shown < int(jobs_.size()))
        p.drawText(axis, Qt::AlignHCenter | Qt::AlignVCenter,
                   tr("first %1 of %2 jobs").arg(shown).arg(jobs_.size()));
    if (nowS_) {
        p.setPen(QPen(palette().text().color(), 1, Qt::DashLine));
        p.drawLine(QPointF(xOf(*nowS_), r.top()), QPointF(xOf(*nowS_), r.bottom()));
    }
}

void JobsGanttWidget::mousePressEvent(QMouseEvent* e) {
    const int row = rowAt(e->position().toPoint());
    if (row >= 0) emit jobClicked(row);
    QWidget::mousePressEvent(e);
}

bool JobsGanttWidget::event(QEvent* e) {
    if (showHoverTip(this, e, [this](QPoint at) { return describe(rowAt(at)); })) return true;
    return QWidget::event(e);
}

} // namespace cs::views
