#include "CollectiveChart.h"

#include "ColorMaps.h"

#include <qcustomplot.h>

#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace cs::views {

QString byteSizeLabel(double bytes) {
    const char* units[] = {"", "K", "M", "G", "T"};
    int k = 0;
    while (k < 4 && bytes >= 1024) {
        bytes /= 1024;
        ++k;
    }
    return QString::number(bytes, 'g', 3) + units[k];
}

namespace {

// Powers of two on a log axis, labelled as sizes.
class SizeTicker : public QCPAxisTickerLog {
public:
    SizeTicker() { setLogBase(2); }

protected:
    QString getTickLabel(double tick, const QLocale&, QChar, int) override {
        return byteSizeLabel(tick);
    }
};

} // namespace

CollectiveChart::CollectiveChart(QWidget* parent) : QWidget(parent), plot_(new QCustomPlot) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(plot_);
    plot_->setObjectName("collectivePlot");
    plot_->setMinimumSize(320, 220);
    QCPLayoutGrid* grid = plot_->plotLayout();
    grid->insertRow(0);
    title_ = new QCPTextElement(plot_, QString(), QFont(font().family(), 10, QFont::Bold));
    grid->addElement(0, 0, title_);
    grid->insertRow(1);
    plot_->axisRect()->insetLayout()->take(plot_->legend);
    grid->addElement(1, 0, plot_->legend);
    grid->setRowStretchFactor(0, 0.001);
    grid->setRowStretchFactor(1, 0.001);
    plot_->legend->setFillOrder(QCPLegend::foRowsFirst);
    plot_->legend->setBorderPen(Qt::NoPen);
    plot_->legend->setBrush(Qt::NoBrush);
    QFont small = font();
    small.setPointSize(9);
    plot_->legend->setFont(small);
    plot_->xAxis->setScaleType(QCPAxis::stLogarithmic);
    plot_->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new SizeTicker));
    plot_->xAxis->setLabel(tr("message size (bytes, as nccl-tests' size)"));
    plot_->yAxis->setLabel(tr("bus bandwidth (GB/s)"));
    rebuild();
}

QString CollectiveChart::title() const {
    return title_->text();
}

void CollectiveChart::setCurves(std::vector<CollectiveCurve> curves, const QString& title) {
    curves_ = std::move(curves);
    title_->setText(title);
    rebuild();
}

void CollectiveChart::rebuild() {
    plot_->clearPlottables();
    plot_->legend->setVisible(!curves_.empty());
    if (curves_.empty() && title_->text().isEmpty())
        title_->setText(tr("No collective simulated yet: choose one and Run"));
    double lo = 0, hi = 0, top = 0;
    size_t simulated = 0;
    for (const CollectiveCurve& c : curves_) {
        auto* g = plot_->addGraph();
        g->setName(c.label);
        QVector<double> x, y;
        for (size_t i = 0; i < c.bytes.size() && i < c.busbwGBs.size(); ++i) {
            if (!(c.bytes[i] > 0)) continue;
            x << c.bytes[i];
            y << c.busbwGBs[i];
            lo = lo > 0 ? std::min(lo, c.bytes[i]) : c.bytes[i];
            hi = std::max(hi, c.bytes[i]);
            top = std::max(top, c.busbwGBs[i]);
        }
        g->setData(x, y, true);
        if (c.measured) {
            g->setLineStyle(QCPGraph::lsNone);
            g->setScatterStyle(
                QCPScatterStyle(QCPScatterStyle::ssCircle, QColor(40, 40, 40), Qt::white, 7));
        } else {
            const Rgba rgba = seriesColor(simulated++);
            QPen pen(QColor(rgba[0], rgba[1], rgba[2]));
            pen.setWidthF(2.0);
            g->setPen(pen);
            g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 4));
        }
    }
    if (hi > 0) plot_->xAxis->setRange(lo / 1.5, hi * 1.5);
    plot_->yAxis->setRange(0, top > 0 ? top * 1.1 : 1);
    plot_->replot();
}

} // namespace cs::views
