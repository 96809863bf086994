#include "RunChartsWidget.h"

#include "ChartExport.h"
#include "Downsample.h"

#include <qcustomplot.h>

#include <QFileDialog>
#include <QGridLayout>
#include <QMenu>
#include <QMessageBox>
#include <QScrollArea>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace cs::views {
namespace {

// Okabe-Ito, as in the 3D view.
const QColor kBlue(0, 114, 178), kOrange(230, 159, 0), kGreen(0, 158, 115), kPurple(204, 121, 167),
    kVermillion(213, 94, 0), kSky(86, 180, 233);

constexpr int kChartMinHeightPx = 210; // title, plot, axis labels and a two-row legend
constexpr int kColumnWidthPx = 420;    // charts per row: as many of these as the width holds

// Where run time lands on the x axis: x = x0 + t / unitS, t in seconds since the run's start
// (x0: the wall-clock start in seconds since the epoch for recorded runs, else 0).
struct XAxisMap {
    double x0 = 0, unitS = 1, x1 = 1;
};

// Times in ns, placed by the axis map; y multiplied by yScale.
void setSeries(QCPGraph* g, const Series& s, double yScale, const XAxisMap& m, int pixels) {
    const std::vector<double>& y = s.value;
    std::vector<double> x(s.tsNs.size()), scaled(y.size());
    for (size_t i = 0; i < s.tsNs.size(); ++i)
        x[i] = m.x0 + double(s.tsNs[i]) / 1e9 / m.unitS;
    for (size_t i = 0; i < y.size(); ++i)
        scaled[i] = y[i] * yScale;
    XY d = downsampleMinMax(x, scaled, m.x0, m.x1, pixels);
    // The last value holds to the run's end: a run-wide scalar is one sample at time 0.
    if (!d.x.empty() && d.x.back() < m.x1) {
        d.x.push_back(m.x1);
        d.y.push_back(d.y.back());
    }
    g->setData(QVector<double>(d.x.begin(), d.x.end()), QVector<double>(d.y.begin(), d.y.end()),
               true);
    g->setLineStyle(QCPGraph::lsStepLeft); // a frame holds until the next one
}

} // namespace

struct RunChartsWidget::Chart {
    QCustomPlot* plot = nullptr;
    QCPItemStraightLine* cursor = nullptr; // the clock's time
    QCPItemTracer* crosshair = nullptr;    // the clock's time on the primary series
    QCPItemStraightLine* hoverLine = nullptr;
    QCPItemText* readout = nullptr;
    QCPItemText* empty = nullptr; // "not in this run"
    std::vector<ChartSeries> series;
    std::vector<QCPAxis*> valueAxes; // per series
    int primary = -1;                // the series the crosshair follows
};

RunChartsWidget::RunChartsWidget(PlaybackClock* clock, QWidget* parent)
    : QWidget(parent), clock_(clock), scroll_(new QScrollArea(this)), grid_(new QWidget),
      gridLayout_(new QGridLayout(grid_)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(scroll_);
    scroll_->setWidgetResizable(true);
    scroll_->setFrameShape(QFrame::NoFrame);
    scroll_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    gridLayout_->setContentsMargins(2, 2, 2, 2);
    gridLayout_->setSpacing(4);
    scroll_->setWidget(grid_);
    addChart(tr("GPU busy"), tr("%"));
    addChart(tr("Network throughput per tier"), tr("TB/s"));
    addChart(tr("Storage throughput"), tr("GB/s"));
    addChart(tr("Step time and MFU"), tr("s"));
    addChart(tr("Site power"), tr("MW"));
    reflow();
    connect(clock_, &PlaybackClock::nowChanged, this, &RunChartsWidget::moveCursor);
    setMinimumWidth(320);
}

RunChartsWidget::~RunChartsWidget() = default;

QList<QCustomPlot*> RunChartsWidget::plots() const {
    QList<QCustomPlot*> out;
    for (const auto& c : charts_)
        out << c->plot;
    return out;
}

RunChartsWidget::Chart& RunChartsWidget::addChart(const QString& title, const QString& yLabel) {
    auto chart = std::make_unique<Chart>();
    Chart& c = *chart;
    auto* p = c.plot = new QCustomPlot(grid_);
    p->setMinimumHeight(kChartMinHeightPx);
    p->setMouseTracking(true);
    p->installEventFilter(this);
    p->plotLayout()->insertRow(0);
    p->plotLayout()->addElement(
        0, 0, new QCPTextElement(p, title, QFont(font().family(), 9, QFont::Bold)));
    p->yAxis->setLabel(yLabel);
    p->xAxis->setLabel(tr("time since start, s"));
    // The legend leaves the data: a row of its own under the axis rect, entries side by side.
    QFont small = font();
    small.setPointSize(8);
    p->legend->setFont(small);
    p->legend->setVisible(true);
    p->legend->setBorderPen(Qt::NoPen);
    p->legend->setBrush(Qt::NoBrush);
    p->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    p->legend->setWrap(3);
    p->legend->setRowSpacing(0);
    p->legend->setColumnSpacing(12);
    p->axisRect()->insetLayout()->take(p->legend);
    p->plotLayout()->addElement(2, 0, p->legend);
    p->plotLayout()->setRowStretchFactor(2, 0.001);
    p->plotLayout()->setRowSpacing(0);
    p->legend->setMargins(QMargins(6, 0, 6, 4));
    c.empty = new QCPItemText(p);
    c.empty->position->setType(QCPItemPosition::ptAxisRectRatio);
    c.empty->position->setCoords(0.5, 0.5);
    c.empty->setText(tr("not in this run"));
    c.empty->setColor(Qt::gray);
    c.empty->setVisible(false);
    c.cursor = new QCPItemStraightLine(p);
    c.cursor->setPen(QPen(Qt::black, 1, Qt::DashLine));
    c.crosshair = new QCPItemTracer(p);
    c.crosshair->setStyle(QCPItemTracer::tsCrosshair);
    c.crosshair->setPen(QPen(QColor(0, 0, 0, 110), 1, Qt::DotLine));
    c.crosshair->setVisible(false);
    c.hoverLine = new QCPItemStraightLine(p);
    c.hoverLine->setPen(QPen(QColor(90, 90, 90), 1));
    c.hoverLine->setVisible(false);
    c.readout = new QCPItemText(p);
    c.readout->position->setType(QCPItemPosition::ptAxisRectRatio);
    c.readout->setFont(small);
    c.readout->setBrush(QColor(255, 255, 255, 230));
    c.readout->setPen(QPen(QColor(160, 160, 160)));
    c.readout->setPadding(QMargins(4, 2, 4, 2));
    c.readout->setTextAlignment(Qt::AlignLeft);
    c.readout->setVisible(false);
    c.readout->setClipToAxisRect(true);
    // A left click seeks the clock; the context menu saves the chart.
    connect(p, &QCustomPlot::mousePress, this, [this, p](QMouseEvent* e) {
        if (e->button() != Qt::LeftButton) return;
        clock_->seek(nsAtX(p->xAxis->pixelToCoord(e->position().x())));
    });
    connect(p, &QCustomPlot::mouseMove, this, [this, &c](QMouseEvent* e) {
        const QPointF pos = e->position();
        hover(c, c.plot->axisRect()->rect().contains(pos.toPoint())
                     ? c.plot->xAxis->pixelToCoord(pos.x())
                     : std::nan(""));
    });
    const int index = int(charts_.size());
    p->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(p, &QWidget::customContextMenuRequested, this,
            [this, index](QPoint pos) { showExportMenu(index, pos); });
    charts_.push_back(std::move(chart));
    return c;
}

bool RunChartsWidget::eventFilter(QObject* watched, QEvent* e) {
    if (e->type() == QEvent::Leave)
        for (auto& c : charts_)
            if (c->plot == watched) hover(*c, std::nan(""));
    return QWidget::eventFilter(watched, e);
}

void RunChartsWidget::reflow() {
    const int cols =
        std::clamp(scroll_->viewport()->width() / kColumnWidthPx, 1, int(charts_.size()));
    if (cols == columns_) return;
    columns_ = cols;
    for (const auto& c : charts_)
        gridLayout_->removeWidget(c->plot);
    for (int i = 0; i < int(charts_.size()); ++i)
        gridLayout_->addWidget(charts_[size_t(i)]->plot, i / cols, i % cols);
}

void RunChartsWidget::setOverview(std::shared_ptr<const RunOverview> overview) {
    overview_ = std::move(overview);
    selected_ = {EntityKind::Cluster, -1};
    selectedSeries_ = {};
    jobSeries_ = jobTraffic_ = {};
    rebuild();
}

void RunChartsWidget::setComparison(std::shared_ptr<const RunOverview> other,
                                    const QString& letter) {
    other_ = std::move(other);
    otherLetter_ = letter;
    rebuild();
}

void RunChartsWidget::extendOverview(std::shared_ptr<const RunOverview> overview) {
    overview_ = std::move(overview);
    rebuild();
}

void RunChartsWidget::setWallClock(int64_t wallStartNs, bool utc) {
    wallStartNs_ = std::max<int64_t>(0, wallStartNs);
    utc_ = utc;
    rebuild();
}

double RunChartsWidget::x0() const {
    return double(wallStartNs_) / 1e9;
}

int64_t RunChartsWidget::nsAtX(double x) const {
    return clock_->startNs() + int64_t((x - x0()) * unitS() * 1e9);
}

QString RunChartsWidget::timeText(int64_t tsNs) const {
    if (wallStartNs_ > 0) {
        const QDateTime t =
            QDateTime::fromMSecsSinceEpoch((wallStartNs_ + tsNs) / 1'000'000,
                                           utc_ ? QTimeZone::utc() : QTimeZone::systemTimeZone());
        return t.toString(utc_ ? "yyyy-MM-dd HH:mm:ss.zzz 'UTC'" : "yyyy-MM-dd HH:mm:ss.zzz");
    }
    if (hours_) return QString::number(double(tsNs) / 3.6e12, 'f', 3) + " h";
    return QString::number(double(tsNs) / 1e9, 'f', 3) + " s";
}

void RunChartsWidget::setEntitySeries(Endpoint e, const QString& name, const Series& s) {
    selected_ = e;
    selectedName_ = name;
    selectedSeries_ = s;
    rebuild();
}

void RunChartsWidget::setJobSeries(const QString& name, const Series& busy, const Series& traffic,
                                   int64_t endNs) {
    jobName_ = name;
    jobSeries_ = busy;
    jobTraffic_ = traffic;
    jobEndNs_ = endNs;
    rebuild();
}

void RunChartsWidget::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    reflow();
    rebuild(); // downsampling follows the width
}

void RunChartsWidget::rebuild() {
    for (const auto& c : charts_) {
        c->plot->clearGraphs();
        c->plot->yAxis2->setVisible(false);
        c->series.clear();
        c->valueAxes.clear();
        c->primary = -1;
    }
    if (!overview_) {
        for (const auto& c : charts_) {
            c->empty->setVisible(false);
            c->crosshair->setVisible(false);
            c->readout->setVisible(false);
            c->hoverLine->setVisible(false);
            c->plot->replot();
        }
        return;
    }
    // Recorded runs read in date and time; long simulated runs in hours.
    const RunOverview& o = *overview_;
    const double spanS = double(o.info.endNs) / 1e9;
    hours_ = wallStartNs_ == 0 && spanS > 3 * 3600;
    XAxisMap m;
    m.x0 = x0();
    m.unitS = unitS();
    m.x1 = m.x0 + spanS / unitS();
    for (const auto& c : charts_) {
        QCustomPlot* p = c->plot;
        // An entry is up to 150 px wide; the plots' width is the viewport's share per column.
        p->legend->setWrap(std::max(1, scroll_->viewport()->width() / std::max(1, columns_) / 150));
        if (wallStartNs_ > 0) {
            auto ticker = QSharedPointer<QCPAxisTickerDateTime>::create();
            ticker->setTimeZone(utc_ ? QTimeZone::utc() : QTimeZone::systemTimeZone());
            ticker->setDateTimeFormat(spanS > 86400 ? "MM-dd HH:mm" : "HH:mm:ss");
            // A label is about 60 px wide: as many ticks as fit with room between them.
            ticker->setTickCount(std::clamp(p->width() / 140, 2, 8));
            p->xAxis->setTicker(ticker);
            const QDateTime start = QDateTime::fromMSecsSinceEpoch(
                wallStartNs_ / 1'000'000, utc_ ? QTimeZone::utc() : QTimeZone::systemTimeZone());
            p->xAxis->setLabel((utc_ ? tr("time (UTC) from %1") : tr("local time from %1"))
                                   .arg(start.toString("yyyy-MM-dd HH:mm:ss")));
        } else {
            p->xAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
            p->xAxis->setLabel(hours_ ? tr("time since start, h") : tr("time since start, s"));
        }
    }
    // A job's line stops at its end: after it, its GPUs and links are others'.
    auto endAtJobEnd = [&](QCPGraph* g) {
        if (jobEndNs_ < 0) return;
        const double endX = m.x0 + double(jobEndNs_) / 1e9 / m.unitS;
        g->data()->removeAfter(endX);
        g->addData(endX, std::numeric_limits<double>::quiet_NaN());
    };
    auto graph = [&](Chart& c, const QString& name, const QString& unit, const Series& s,
                     double scale, QPen pen, QCPAxis* valueAxis = nullptr) {
        QCustomPlot* p = c.plot;
        QCPGraph* g = valueAxis ? p->addGraph(p->xAxis, valueAxis) : p->addGraph();
        setSeries(g, s, scale, m, std::max(50, p->axisRect()->width()));
        g->setPen(pen);
        g->setName(name);
        c.series.push_back({name, unit, &s, scale});
        c.valueAxes.push_back(g->valueAxis());
        return g;
    };
    // GPU busy: band, mean, selected GPU.
    Chart& busy = *charts_[0];
    QCPGraph* low = graph(busy, tr("p5"), "%", o.busyLow, 100, Qt::NoPen);
    QCPGraph* high = graph(busy, tr("p95"), "%", o.busyHigh, 100, Qt::NoPen);
    high->setBrush(QColor(kOrange.red(), kOrange.green(), kOrange.blue(), 70));
    high->setChannelFillGraph(low);
    high->setName(tr("p5 to p95"));
    busy.plot->legend->removeItem(0); // the band's lower edge needs no entry
    graph(busy, tr("mean"), "%", o.busyMean, 100, QPen(kVermillion, 2));
    busy.primary = 2;
    // The run compared with this one: the same figures, dashed, after the first's.
    const RunOverview* b = other_.get();
    auto dashed = [](QColor c) { return QPen(c, 1.5, Qt::DashLine); };
    if (b) graph(busy, otherLetter_ + tr(": mean"), "%", b->busyMean, 100, dashed(kVermillion));
    if (!jobSeries_.tsNs.empty()) {
        endAtJobEnd(graph(busy, jobName_ + tr(": mean"), "%", jobSeries_, 100, QPen(kSky, 2)));
        busy.primary = int(busy.series.size()) - 1;
    }
    if (selected_.kind == EntityKind::Gpu && !selectedSeries_.tsNs.empty()) {
        graph(busy, selectedName_, "%", selectedSeries_, 100, QPen(kBlue, 1.5));
        busy.primary = int(busy.series.size()) - 1; // the crosshair follows what the user picked
    }
    busy.plot->yAxis->setRange(0, 105);
    // Throughput per tier, TB/s.
    Chart& net = *charts_[1];
    const QColor tierColours[3] = {kGreen, kBlue, kPurple};
    for (int k = 0; k < kTierCount; ++k)
        graph(net, tr(tierName(k)), "TB/s", o.tiers[size_t(k)], 1e-12, QPen(tierColours[k], 1.5));
    if (b)
        for (int k = 0; k < kTierCount; ++k)
            graph(net, otherLetter_ + ": " + tr(tierName(k)), "TB/s", b->tiers[size_t(k)], 1e-12,
                  dashed(tierColours[k]));
    net.primary = 0;
    if (!jobTraffic_.tsNs.empty()) {
        endAtJobEnd(
            graph(net, jobName_ + tr(": all tiers"), "TB/s", jobTraffic_, 1e-12, QPen(kSky, 2)));
        net.primary = int(net.series.size()) - 1;
    }
    if (selected_.kind == EntityKind::Link && !selectedSeries_.tsNs.empty()) {
        graph(net, tr("selected link"), "TB/s", selectedSeries_, 1e-12, QPen(kVermillion, 1.5));
        net.primary = int(net.series.size()) - 1;
    }
    net.plot->rescaleAxes();
    Chart& storage = *charts_[2];
    graph(storage, tr("Tectonic + Hammerspace"), "GB/s", o.storage, 1e-9, QPen(kSky, 1.5));
    if (b) graph(storage, otherLetter_ + tr(": storage"), "GB/s", b->storage, 1e-9, dashed(kSky));
    storage.primary = 0;
    storage.plot->rescaleAxes();
    Chart& steps = *charts_[3];
    QCustomPlot* sm = steps.plot;
    graph(steps, tr("step time"), "s", o.stepTime, 1, QPen(kBlue, 1.5));
    sm->yAxis2->setVisible(true);
    sm->yAxis2->setLabel("MFU %");
    graph(steps, tr("MFU"), "%", o.mfu, 100, QPen(kOrange, 1.5), sm->yAxis2);
    if (b) {
        graph(steps, otherLetter_ + tr(": step time"), "s", b->stepTime, 1, dashed(kBlue));
        graph(steps, otherLetter_ + tr(": MFU"), "%", b->mfu, 100, dashed(kOrange), sm->yAxis2);
    }
    steps.primary = 0;
    sm->rescaleAxes();
    // The site's power: its swings follow the GPUs working and waiting in step.
    Chart& power = *charts_[4];
    graph(power, tr("site power"), "MW", o.sitePowerW, 1e-6, QPen(kVermillion, 1.5));
    if (b)
        graph(power, otherLetter_ + tr(": site power"), "MW", b->sitePowerW, 1e-6,
              dashed(kVermillion));
    power.primary = 0;
    power.plot->rescaleAxes();
    for (const auto& c : charts_) {
        QCustomPlot* p = c->plot;
        bool hasData = false;
        for (int i = 0; i < p->graphCount(); ++i)
            hasData = hasData || !p->graph(i)->data()->isEmpty();
        c->empty->setVisible(!hasData);
        p->legend->setVisible(hasData);
        p->xAxis->setRange(m.x0, std::max(m.x0 + 1e-9, m.x1));
        if (!hasData) {
            p->yAxis->setRange(0, 1);
            p->yAxis->setTicks(false);
            p->yAxis2->setTicks(false);
            continue;
        }
        p->yAxis->setTicks(true);
        p->yAxis2->setTicks(true);
        if (c.get() == &busy) continue;
        // Rates and times start at zero, with a little room above the highest value.
        p->yAxis->setRange(0, std::max(p->yAxis->range().upper, 1e-9) * 1.08);
        if (p->yAxis2->visible())
            p->yAxis2->setRange(0, std::max(p->yAxis2->range().upper, 1e-9) * 1.08);
    }
    moveCursor();
}

void RunChartsWidget::moveCursor() {
    const int64_t nowNs = clock_->nowNs() - clock_->startNs();
    const double s = x0() + double(nowNs) / 1e9 / unitS();
    for (const auto& c : charts_) {
        c->cursor->point1->setCoords(s, 0);
        c->cursor->point2->setCoords(s, 1);
        std::optional<double> v;
        if (overview_ && c->primary >= 0) {
            const ChartSeries& p = c->series[size_t(c->primary)];
            v = valueAtNs(*p.source, nowNs);
            if (v) {
                c->crosshair->position->setAxes(c->plot->xAxis, c->valueAxes[size_t(c->primary)]);
                c->crosshair->position->setCoords(s, *v * p.scale);
            }
        }
        c->crosshair->setVisible(v.has_value());
        c->plot->replot(QCustomPlot::rpQueuedReplot);
    }
}

void RunChartsWidget::hover(Chart& c, double x) {
    const bool show = overview_ && std::isfinite(x) && !c.series.empty();
    c.hoverLine->setVisible(show);
    c.readout->setVisible(show);
    if (show) {
        c.hoverLine->point1->setCoords(x, 0);
        c.hoverLine->point2->setCoords(x, 1);
        const int64_t tsNs = nsAtX(x) - clock_->startNs();
        QStringList lines{timeText(tsNs)};
        for (const ChartSeries& s : c.series) {
            const std::optional<double> v = valueAtNs(*s.source, tsNs);
            lines << QStringLiteral("%1: %2").arg(s.name,
                                                  v ? formatValue(*v * s.scale, s.unit) : tr("—"));
        }
        c.readout->setText(lines.join('\n'));
        // On the side away from the pointer, so it never hides what is pointed at.
        const QCPRange r = c.plot->xAxis->range();
        const bool pointerLeft = (x - r.lower) < r.size() / 2;
        c.readout->setPositionAlignment(Qt::AlignTop |
                                        (pointerLeft ? Qt::AlignRight : Qt::AlignLeft));
        c.readout->position->setCoords(pointerLeft ? 0.99 : 0.01, 0.02);
    }
    c.plot->replot(QCustomPlot::rpQueuedReplot);
}

QString RunChartsWidget::readoutText(int chart) const {
    const Chart& c = *charts_.at(size_t(chart));
    return c.readout->visible() ? c.readout->text() : QString();
}

std::optional<QPointF> RunChartsWidget::crosshairAt(int chart) const {
    const Chart& c = *charts_.at(size_t(chart));
    if (!c.crosshair->visible()) return std::nullopt;
    return QPointF(c.crosshair->position->key(), c.crosshair->position->value());
}

const std::vector<ChartSeries>& RunChartsWidget::seriesOf(int chart) const {
    return charts_.at(size_t(chart))->series;
}

QString RunChartsWidget::exportChart(int chart, const QString& path, QSize sizePx) const {
    const Chart& c = *charts_.at(size_t(chart));
    return views::exportChart(c.plot, c.series, wallStartNs_, path, sizePx);
}

void RunChartsWidget::showExportMenu(int chart, QPoint pos) {
    QCustomPlot* p = charts_[size_t(chart)]->plot;
    QMenu menu(this);
    QAction* png = menu.addAction(tr("Save Chart as PNG…"));
    QAction* svg = menu.addAction(tr("Save Chart as SVG…"));
    QAction* csv = menu.addAction(tr("Save Chart Data as CSV…"));
    for (QAction* a : {png, svg, csv})
        a->setEnabled(overview_ != nullptr);
    QAction* chosen = menu.exec(p->mapToGlobal(pos));
    if (!chosen) return;
    const QString filter = chosen == png   ? tr("PNG image (*.png)")
                           : chosen == svg ? tr("SVG drawing (*.svg)")
                                           : tr("CSV table (*.csv)");
    const QString suffix = chosen == png ? ".png" : chosen == svg ? ".svg" : ".csv";
    QString path =
        QFileDialog::getSaveFileName(this, chosen->text().remove("…"), QString(), filter);
    if (path.isEmpty()) return;
    if (!chartFileKindOf(path)) path += suffix;
    const QString error = exportChart(chart, path);
    if (!error.isEmpty()) QMessageBox::warning(this, tr("Save Chart"), error);
}

} // namespace cs::views
