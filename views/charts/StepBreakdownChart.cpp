#include "StepBreakdownChart.h"

#include <QJsonArray>
#include <QTimer>
#include <QVBoxLayout>

#include <cmath>

#include <qcustomplot.h>

namespace cs::views {

QColor stepPartColor(StepPart p) {
    switch (p) {
    case StepPart::Compute:
        return QColor(76, 159, 112);
    case StepPart::Bubble:
        return QColor(190, 190, 190);
    case StepPart::ExposedTp:
        return QColor(228, 87, 46);
    case StepPart::ExposedCp:
        return QColor(243, 167, 18);
    case StepPart::ExposedPp:
        return QColor(142, 108, 191);
    case StepPart::ExposedDp:
        return QColor(46, 134, 171);
    case StepPart::ExposedEp:
        return QColor(162, 59, 114);
    case StepPart::Optimizer:
        return QColor(120, 90, 60);
    case StepPart::DataLoad:
        return QColor(41, 51, 92);
    case StepPart::Other:
        return QColor(120, 120, 120);
    case StepPart::HostBound:
        return QColor(214, 181, 62);
    }
    return Qt::gray;
}

namespace {
QString text(std::string_view s) {
    return QString::fromLatin1(s.data(), qsizetype(s.size()));
}
} // namespace

StepBreakdownData StepBreakdownData::fromSummary(const QJsonObject& summary) {
    StepBreakdownData d;
    for (const QJsonValue& v : summary.value("stages").toArray()) {
        StepParts parts;
        for (const StepPartName& n : stepPartNames())
            parts[n.part] = std::max(0.0, v.toObject().value(text(n.key)).toDouble());
        d.stages.push_back(parts);
    }
    d.slowestStage =
        std::clamp(summary.value("slowestStage").toInt(), 0, std::max(0, int(d.stages.size()) - 1));
    d.stepS = summary.value("stepTimeS").toDouble();
    const QJsonObject spread = summary.value("stepTimeDistribution").toObject();
    d.steps = std::max(0LL, (long long)spread.value("steps").toDouble());
    d.p50S = spread.value("p50").toDouble();
    d.p99S = spread.value("p99").toDouble();
    d.maxS = spread.value("max").toDouble();
    d.slowestGpuShare = spread.value("slowestGpuShare").toDouble();
    return d;
}

StepBreakdownChart::StepBreakdownChart(QWidget* parent) : QWidget(parent), plot_(new QCustomPlot) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(plot_);
    plot_->setObjectName("stepBreakdownPlot");
    plot_->setMinimumSize(320, 220);
    QCPLayoutGrid* grid = plot_->plotLayout();
    grid->insertRow(0);
    title_ = new QCPTextElement(plot_, QString(), QFont(font().family(), 10, QFont::Bold));
    grid->addElement(0, 0, title_);
    // The spread of the run's steps under the title, in two short lines a narrow dock holds.
    grid->insertRow(1);
    spread_ = new QCPTextElement(plot_, QString(), QFont(font().family(), 9));
    grid->addElement(1, 0, spread_);
    // The legend in a row of its own between the titles and the bars: it covers no bar.
    grid->insertRow(2);
    plot_->axisRect()->insetLayout()->take(plot_->legend);
    grid->addElement(2, 0, plot_->legend);
    for (int row : {0, 1, 2})
        grid->setRowStretchFactor(row, 0.001);
    plot_->legend->setFillOrder(QCPLegend::foColumnsFirst);
    plot_->legend->setWrap(3);
    plot_->legend->setBorderPen(Qt::NoPen);
    plot_->legend->setBrush(Qt::NoBrush);
    QFont small = font();
    small.setPointSize(9);
    plot_->legend->setFont(small);
    plot_->xAxis->setLabel(tr("seconds of the step"));
    plot_->yAxis->setRangeReversed(true); // stage 0 on top, as the pipeline reads
    rebuild();
}

void StepBreakdownChart::setSummary(const QJsonObject& summary) {
    data_ = StepBreakdownData::fromSummary(summary);
    rebuild();
}

QString StepBreakdownChart::spreadText() const {
    return spread_->text();
}

QString StepBreakdownChart::title() const {
    return title_->text();
}

void StepBreakdownChart::rebuild() {
    plot_->clearPlottables();
    plot_->legend->setVisible(!data_.empty());
    if (data_.empty()) {
        title_->setText(tr("No step breakdown: only simulated runs have one"));
        spread_->setText(QString());
        spread_->setVisible(false);
        plot_->replot();
        return;
    }
    const StepParts& slow = data_.stages[size_t(data_.slowestStage)];
    title_->setText(
        tr("Step %1 s: compute %2 %, slowest stage %3")
            .arg(data_.stepS, 0, 'f', 3)
            .arg(data_.stepS > 0 ? slow[StepPart::Compute] / data_.stepS * 100 : 0, 0, 'f', 1)
            .arg(data_.slowestStage));
    spread_->setVisible(data_.steps > 0);
    spread_->setText(data_.steps > 0 ? tr("%1 steps: p50 %2 s, p99 %3 s, max %4 s\n"
                                          "waiting for the slowest GPU: %5 % of a step")
                                           .arg(data_.steps)
                                           .arg(data_.p50S, 0, 'f', 3)
                                           .arg(data_.p99S, 0, 'f', 3)
                                           .arg(data_.maxS, 0, 'f', 3)
                                           .arg(data_.slowestGpuShare * 100, 0, 'f', 1)
                                     : QString());
    const int n = int(data_.stages.size());
    QVector<double> keys;
    for (int s = 0; s < n; ++s)
        keys.push_back(s);
    QCPBars* below = nullptr;
    for (const StepPartName& part : stepPartNames()) {
        QVector<double> values;
        double total = 0;
        for (const StepParts& st : data_.stages) {
            values.push_back(st[part.part]);
            total += st[part.part];
        }
        if (total <= 0) continue; // parts that never take time stay out of the legend
        auto* bars = new QCPBars(plot_->yAxis, plot_->xAxis);
        bars->setName(text(part.label));
        bars->setData(keys, values, true);
        bars->setWidth(0.75);
        bars->setPen(Qt::NoPen);
        bars->setBrush(stepPartColor(part.part));
        bars->setStackingGap(0);
        if (below) bars->moveAbove(below);
        below = bars;
    }
    plot_->yAxis->setRange(-0.6, n - 0.4);
    plot_->xAxis->setRange(0, data_.stepS * 1.02);
    plot_->replot(); // lays the axis out: its height says how many labels fit
    labelStages();
}

// Stage labels: as many as fit one per 14 px of the axis (every k-th stage), the slowest
// stage's always, marked ▸.
void StepBreakdownChart::labelStages() {
    const int n = int(data_.stages.size());
    if (n == 0) return;
    const int heightPx = std::max(14, plot_->axisRect()->height());
    const int every = std::max(1, int(std::ceil(n * 14.0 / heightPx)));
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (int s = 0; s < n; s += every)
        if (s != data_.slowestStage && std::abs(s - data_.slowestStage) >= every)
            ticker->addTick(s, tr("stage %1").arg(s));
    ticker->addTick(data_.slowestStage, tr("stage %1 \u25b8").arg(data_.slowestStage));
    plot_->yAxis->setTicker(ticker);
    plot_->replot();
}

void StepBreakdownChart::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    QTimer::singleShot(0, this, [this] { labelStages(); });
}

} // namespace cs::views
