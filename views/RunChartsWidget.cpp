#include "RunChartsWidget.h"

#include "Downsample.h"

#include <qcustomplot.h>

#include <QVBoxLayout>

namespace cs::views {
namespace {

// Okabe-Ito, as in the 3D view.
const QColor kBlue(0, 114, 178), kOrange(230, 159, 0), kGreen(0, 158, 115), kPurple(204, 121, 167),
    kVermillion(213, 94, 0), kSky(86, 180, 233);

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
    const XY d = downsampleMinMax(x, scaled, m.x0, m.x1, pixels);
    g->setData(QVector<double>(d.x.begin(), d.x.end()), QVector<double>(d.y.begin(), d.y.end()),
               true);
    g->setLineStyle(QCPGraph::lsStepLeft); // a frame holds until the next one
}

} // namespace

RunChartsWidget::RunChartsWidget(PlaybackClock* clock, QWidget* parent)
    : QWidget(parent), clock_(clock) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->setSpacing(2);
    addPlot(tr("GPU busy"), tr("%"));
    addPlot(tr("Network throughput per tier"), tr("TB/s"));
    addPlot(tr("Storage throughput"), tr("GB/s"));
    addPlot(tr("Step time and MFU"), tr("s"));
    for (QCustomPlot* p : plots_)
        layout->addWidget(p, 1);
    connect(clock_, &PlaybackClock::nowChanged, this, &RunChartsWidget::moveCursor);
    setMinimumWidth(320);
}

QCustomPlot* RunChartsWidget::addPlot(const QString& title, const QString& yLabel) {
    auto* p = new QCustomPlot(this);
    p->setMinimumHeight(120);
    p->plotLayout()->insertRow(0);
    p->plotLayout()->addElement(
        0, 0, new QCPTextElement(p, title, QFont(font().family(), 9, QFont::Bold)));
    p->yAxis->setLabel(yLabel);
    p->xAxis->setLabel(tr("time since start, s"));
    QFont small = font();
    small.setPointSize(8);
    p->legend->setFont(small);
    p->legend->setVisible(true);
    p->legend->setBrush(QColor(255, 255, 255, 190));
    p->legend->setBorderPen(Qt::NoPen);
    p->legend->setRowSpacing(-3);
    p->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    // Said on a chart whose series the run does not hold (a recording without storage).
    auto* empty = new QCPItemText(p);
    empty->position->setType(QCPItemPosition::ptAxisRectRatio);
    empty->position->setCoords(0.5, 0.5);
    empty->setText(tr("not in this run"));
    empty->setColor(Qt::gray);
    empty->setVisible(false);
    emptyLabels_ << empty;
    auto* cursor = new QCPItemStraightLine(p);
    cursor->setPen(QPen(Qt::black, 1, Qt::DashLine));
    cursors_ << cursor;
    // Clicking a chart seeks the clock.
    connect(p, &QCustomPlot::mousePress, this, [this, p](QMouseEvent* e) {
        const double x = p->xAxis->pixelToCoord(e->position().x());
        clock_->seek(clock_->startNs() + int64_t((x - x0()) * unitS() * 1e9));
    });
    plots_ << p;
    return p;
}

void RunChartsWidget::setOverview(std::shared_ptr<const RunOverview> overview) {
    overview_ = std::move(overview);
    selected_ = {EntityKind::Cluster, -1};
    selectedSeries_ = {};
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

void RunChartsWidget::setEntitySeries(Endpoint e, const QString& name, const Series& s) {
    selected_ = e;
    selectedName_ = name;
    selectedSeries_ = s;
    rebuild();
}

void RunChartsWidget::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    rebuild(); // downsampling follows the width
}

void RunChartsWidget::rebuild() {
    for (QCustomPlot* p : plots_) {
        p->clearGraphs();
        p->yAxis2->setVisible(false);
    }
    if (!overview_) {
        for (QCPItemText* t : emptyLabels_)
            t->setVisible(false);
        for (QCustomPlot* p : plots_)
            p->replot();
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
    const int px = std::max(50, width());
    for (QCustomPlot* p : plots_) {
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
    // GPU busy: band, mean, selected GPU.
    QCustomPlot* g = plots_[0];
    QCPGraph* low = g->addGraph();
    QCPGraph* high = g->addGraph();
    setSeries(low, o.busyLow, 100, m, px);
    setSeries(high, o.busyHigh, 100, m, px);
    low->setPen(Qt::NoPen);
    high->setPen(Qt::NoPen);
    high->setBrush(QColor(kOrange.red(), kOrange.green(), kOrange.blue(), 70));
    high->setChannelFillGraph(low);
    high->setName(tr("p5 to p95"));
    g->legend->removeItem(g->legend->itemCount() - 2); // the band's lower edge needs no entry
    QCPGraph* mean = g->addGraph();
    setSeries(mean, o.busyMean, 100, m, px);
    mean->setPen(QPen(kVermillion, 2));
    mean->setName(tr("mean"));
    if (selected_.kind == EntityKind::Gpu && !selectedSeries_.tsNs.empty()) {
        QCPGraph* sel = g->addGraph();
        setSeries(sel, selectedSeries_, 100, m, px);
        sel->setPen(QPen(kBlue, 1.5));
        sel->setName(selectedName_);
    }
    g->yAxis->setRange(0, 140); // headroom for the legend
    // Throughput per tier, TB/s.
    const QColor tierColours[3] = {kGreen, kBlue, kPurple};
    for (int k = 0; k < kTierCount; ++k) {
        QCPGraph* t = plots_[1]->addGraph();
        setSeries(t, o.tiers[size_t(k)], 1e-12, m, px);
        t->setPen(QPen(tierColours[k], 1.5));
        t->setName(tr(tierName(k)));
    }
    if (selected_.kind == EntityKind::Link && !selectedSeries_.tsNs.empty()) {
        QCPGraph* sel = plots_[1]->addGraph();
        setSeries(sel, selectedSeries_, 1e-12, m, px);
        sel->setPen(QPen(kVermillion, 1.5));
        sel->setName(tr("selected link"));
    }
    plots_[1]->rescaleAxes();
    QCPGraph* st = plots_[2]->addGraph();
    setSeries(st, o.storage, 1e-9, m, px);
    st->setPen(QPen(kSky, 1.5));
    st->setName(tr("Tectonic + Hammerspace"));
    plots_[2]->rescaleAxes();
    QCustomPlot* sm = plots_[3];
    QCPGraph* step = sm->addGraph();
    setSeries(step, o.stepTime, 1, m, px);
    step->setPen(QPen(kBlue, 1.5));
    step->setName(tr("step time (s)"));
    sm->yAxis2->setVisible(true);
    sm->yAxis2->setLabel("MFU %");
    QCPGraph* mfu = sm->addGraph(sm->xAxis, sm->yAxis2);
    setSeries(mfu, o.mfu, 100, m, px);
    mfu->setPen(QPen(kOrange, 1.5));
    mfu->setName(tr("MFU (%)"));
    sm->rescaleAxes();
    for (int k = 0; k < plots_.size(); ++k) {
        QCustomPlot* p = plots_[k];
        bool hasData = false;
        for (int i = 0; i < p->graphCount(); ++i)
            hasData = hasData || !p->graph(i)->data()->isEmpty();
        emptyLabels_[k]->setVisible(!hasData);
        p->legend->setVisible(hasData);
        if (!hasData) {
            p->xAxis->setRange(m.x0, std::max(m.x0 + 1e-9, m.x1));
            p->yAxis->setRange(0, 1);
            p->yAxis->setTicks(false);
            p->yAxis2->setTicks(false);
            continue;
        }
        p->yAxis->setTicks(true);
        p->yAxis2->setTicks(true);
        p->xAxis->setRange(m.x0, std::max(m.x0 + 1e-9, m.x1));
        if (p == g) continue;
        // Rates and times start at zero; leave headroom above the data for the legend.
        const double top = std::max(p->yAxis->range().upper, 1e-9);
        p->yAxis->setRange(0, top * 1.35);
        if (p->yAxis2->visible())
            p->yAxis2->setRange(0, std::max(p->yAxis2->range().upper, 1e-9) * 1.35);
    }
    moveCursor();
}

void RunChartsWidget::moveCursor() {
    const double s = x0() + double(clock_->nowNs() - clock_->startNs()) / 1e9 / unitS();
    for (QCPItemStraightLine* c : cursors_) {
        c->point1->setCoords(s, 0);
        c->point2->setCoords(s, 1);
    }
    for (QCustomPlot* p : plots_)
        p->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace cs::views
