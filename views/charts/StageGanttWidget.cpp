#include "StageGanttWidget.h"

#include "HoverTip.h"
#include "StepBreakdownChart.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

namespace cs::views {

namespace {
constexpr int kRowPx = 14, kRowGapPx = 3, kTitlePx = 18, kAxisPx = 18, kMarginPx = 4;

QString text(std::string_view s) {
    return QString::fromLatin1(s.data(), qsizetype(s.size()));
}

QString seconds(double s) {
    return QStringLiteral("%1 s").arg(s, 0, 'f', 3);
}

// The bar holding time s, or the nearest within `slackS` (a bar thinner than a pixel).
template <class Bar> const Bar* barNear(const std::vector<Bar>& bars, double s, double slackS) {
    const Bar* best = nullptr;
    double bestD = slackS;
    for (const Bar& b : bars) {
        const double d = s < b.fromS ? b.fromS - s : s > b.toS ? s - b.toS : 0;
        if (d <= bestD) best = &b, bestD = d;
        if (d == 0) break;
    }
    return best;
}
} // namespace

QColor ganttRowColor(GanttRow row) {
    switch (row) {
    case GanttRow::Forward:
        return stepPartColor(StepPart::Compute).lighter(125);
    case GanttRow::Backward:
        return stepPartColor(StepPart::Compute).darker(125);
    case GanttRow::Tp:
        return stepPartColor(StepPart::ExposedTp);
    case GanttRow::PpSend:
        return stepPartColor(StepPart::ExposedPp);
    case GanttRow::DpGather:
    case GanttRow::DpReduce:
        return stepPartColor(StepPart::ExposedDp);
    }
    return Qt::gray;
}

StageGanttWidget::StageGanttWidget(QWidget* parent) : QWidget(parent) {
    setObjectName("stageGantt");
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    setMinimumWidth(220);
}

void StageGanttWidget::setGantt(std::shared_ptr<const StageGantt> gantt, int stages) {
    if (gantt == gantt_ && stages == stages_) return;
    gantt_ = std::move(gantt);
    stages_ = stages;
    shownRows_.clear();
    if (gantt_)
        for (int r = 0; r < kGanttRows; ++r)
            if (!gantt_->rows[size_t(r)].empty()) shownRows_.push_back(GanttRow(r));
    updateGeometry();
    update();
}

void StageGanttWidget::setNowPhase(std::optional<double> phase) {
    if (phase == nowPhase_) return;
    nowPhase_ = phase;
    update();
}

QString StageGanttWidget::title() const {
    if (!gantt_) return {};
    return tr("Stage %1 of %2: one step, %3")
        .arg(gantt_->stage)
        .arg(stages_)
        .arg(seconds(gantt_->stepS));
}

QSize StageGanttWidget::sizeHint() const {
    return {320, kTitlePx + rowCount() * (kRowPx + kRowGapPx) + kAxisPx + 2 * kMarginPx};
}

int StageGanttWidget::labelWidth() const {
    int w = fontMetrics().horizontalAdvance(tr("parts"));
    for (GanttRow r : shownRows_)
        w = std::max(w, fontMetrics().horizontalAdvance(text(ganttRowLabel(r))));
    return w + 8;
}

QRect StageGanttWidget::rowRect(int row) const {
    const int left = kMarginPx + labelWidth();
    return {left, kMarginPx + kTitlePx + row * (kRowPx + kRowGapPx),
            std::max(1, width() - left - kMarginPx - 4), kRowPx};
}

double StageGanttWidget::xOf(double s) const {
    const QRect r = rowRect(0);
    const double step = gantt_ && gantt_->stepS > 0 ? gantt_->stepS : 1;
    return r.left() + std::clamp(s / step, 0.0, 1.0) * r.width();
}

double StageGanttWidget::sOf(int x) const {
    const QRect r = rowRect(0);
    const double step = gantt_ && gantt_->stepS > 0 ? gantt_->stepS : 1;
    return double(x - r.left()) / std::max(1, r.width()) * step;
}

void StageGanttWidget::paintEvent(QPaintEvent*) {
    if (!gantt_) return;
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing, false);
    const QPalette pal = palette();
    p.setPen(pal.color(QPalette::WindowText));
    p.drawText(QRect(kMarginPx, kMarginPx, width() - 2 * kMarginPx, kTitlePx),
               Qt::AlignLeft | Qt::AlignVCenter, title());
    auto drawBar = [&](int row, double fromS, double toS, const QColor& c) {
        const QRect r = rowRect(row);
        const double x0 = xOf(fromS), x1 = std::max(xOf(toS), x0 + 1); // at least a pixel
        p.fillRect(QRectF(x0, r.top(), x1 - x0, r.height()), c);
    };
    auto label = [&](int row, const QString& s) {
        const QRect r = rowRect(row);
        p.setPen(pal.color(QPalette::WindowText));
        p.drawText(QRect(kMarginPx, r.top(), labelWidth() - 4, r.height()),
                   Qt::AlignRight | Qt::AlignVCenter, s);
        p.fillRect(r, pal.color(QPalette::Base));
    };
    label(0, tr("parts"));
    for (const StepSegment& x : gantt_->parts)
        drawBar(0, x.fromS, x.toS, stepPartColor(x.part));
    for (size_t i = 0; i < shownRows_.size(); ++i) {
        const GanttRow row = shownRows_[i];
        label(int(i) + 1, text(ganttRowLabel(row)));
        const QColor c = ganttRowColor(row);
        for (const GanttBar& b : gantt_->row(row))
            // Passes run back to back: every other one a shade darker shows where each begins.
            drawBar(int(i) + 1, b.fromS, b.toS,
                    b.micro >= 0 && (b.micro + b.chunk) % 2 ? c.darker(125) : c);
    }
    // The time axis: 0, half and the whole step.
    const QRect last = rowRect(rowCount() - 1);
    const int axisY = last.bottom() + 4;
    p.setPen(pal.color(QPalette::Mid));
    p.drawLine(rowRect(0).left(), axisY, rowRect(0).right(), axisY);
    p.setPen(pal.color(QPalette::WindowText));
    for (double f : {0.0, 0.5, 1.0}) {
        const int x = int(xOf(f * gantt_->stepS));
        p.drawLine(x, axisY, x, axisY + 3);
        const QString t = seconds(f * gantt_->stepS);
        const int w = fontMetrics().horizontalAdvance(t);
        const int left = std::clamp(x - w / 2, rowRect(0).left() - labelWidth() / 2, width() - w);
        p.drawText(QRect(left, axisY + 3, w, kAxisPx - 3), Qt::AlignCenter, t);
    }
    if (nowPhase_) { // where the replay is within its step
        const int x = int(xOf(*nowPhase_ * gantt_->stepS));
        p.setPen(QPen(pal.color(QPalette::Highlight), 2));
        p.drawLine(x, rowRect(0).top() - 2, x, last.bottom() + 2);
    }
}

QString StageGanttWidget::describeAt(QPoint pos) const {
    if (!gantt_) return {};
    const double s = sOf(pos.x()), slackS = std::max(0.0, sOf(pos.x() + 2) - s);
    for (int row = 0; row < rowCount(); ++row) {
        const QRect r = rowRect(row);
        if (pos.y() < r.top() || pos.y() > r.bottom() || pos.x() < r.left() - 2 ||
            pos.x() > r.right() + 2)
            continue;
        auto span = [&](double from, double to) {
            return tr("%1 – %2 (%3)").arg(seconds(from), seconds(to), seconds(to - from));
        };
        if (row == 0) {
            const StepSegment* x = barNear(gantt_->parts, s, slackS);
            if (!x) return {};
            for (const StepPartName& n : stepPartNames())
                if (n.part == x->part)
                    return tr("%1: %2").arg(text(n.label), span(x->fromS, x->toS));
            return {};
        }
        const GanttRow kind = shownRows_[size_t(row - 1)];
        const GanttBar* b = barNear(gantt_->row(kind), s, slackS);
        if (!b) return {};
        if (b->micro >= 0)
            return tr("%1 pass, micro-batch %2, chunk %3: %4")
                .arg(kind == GanttRow::Forward ? tr("Forward") : tr("Backward"))
                .arg(b->micro)
                .arg(b->chunk)
                .arg(span(b->fromS, b->toS));
        return tr("%1: %2").arg(text(ganttRowLabel(kind)), span(b->fromS, b->toS));
    }
    return {};
}

bool StageGanttWidget::event(QEvent* e) {
    if (showHoverTip(this, e, [this](QPoint at) { return describeAt(at); })) return true;
    return QWidget::event(e);
}

} // namespace cs::views
