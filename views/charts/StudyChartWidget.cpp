#include "StudyChartWidget.h"

#include "ChartExport.h"
#include "ColorMaps.h"
#include "PlaceInside.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace cs::views {
namespace {

constexpr double kHoverRadiusPx = 10;
constexpr int kMaxValueTicks = 12; // an axis of up to this many numbers gets a tick at each

// Markers differ as well as colours: the chart still reads in grey print.
const QCPScatterStyle::ScatterShape kShapes[] = {QCPScatterStyle::ssDisc,
                                                 QCPScatterStyle::ssSquare,
                                                 QCPScatterStyle::ssTriangle,
                                                 QCPScatterStyle::ssDiamond,
                                                 QCPScatterStyle::ssTriangleInverted,
                                                 QCPScatterStyle::ssCrossSquare,
                                                 QCPScatterStyle::ssPlusCircle,
                                                 QCPScatterStyle::ssStar};

QColor colorOf(size_t series) {
    const Rgba c = seriesColor(series);
    return QColor(c[0], c[1], c[2]);
}

// Room around the points so that none sits on the axis rect's edge.
QCPRange padded(double lo, double hi) {
    if (!(hi > lo)) {
        const double pad = std::max(std::fabs(lo) * 0.1, 1e-9);
        return {lo - pad, hi + pad};
    }
    const double pad = (hi - lo) * 0.08;
    return {lo - pad, hi + pad};
}

// "Cost per GPU" inside a sentence: "cost per GPU"; "MFU" stays.
QString inSentence(const QString& label) {
    if (label.size() < 2 || !label[1].isLower()) return label;
    return label.left(1).toLower() + label.mid(1);
}

} // namespace

StudyChartWidget::StudyChartWidget(QWidget* parent)
    : QWidget(parent), x_(combo("studyX")), y_(combo("studyY")), series_(combo("studySeries")),
      plot_(new QCustomPlot) {
    auto* choices = new QHBoxLayout;
    for (auto [text, box] :
         {std::pair{tr("&X:"), x_}, {tr("&Y:"), y_}, {tr("&Series by:"), series_}}) {
        auto* label = new QLabel(text);
        label->setBuddy(box);
        choices->addWidget(label);
        choices->addWidget(box, 1);
    }
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(choices);
    layout->addWidget(plot_, 1);

    plot_->setObjectName("studyPlot");
    plot_->setMinimumSize(420, 300);
    plot_->setMouseTracking(true);
    QCPLayoutGrid* grid = plot_->plotLayout();
    grid->insertRow(0);
    title_ = new QCPTextElement(plot_, QString(), QFont(font().family(), 10, QFont::Bold));
    grid->addElement(0, 0, title_);
    // The legend in a column of its own right of the axis rect: it covers no point, however
    // the points fall. Its title names the axis the series split by.
    auto* side = new QCPLayoutGrid;
    grid->addElement(1, 1, side);
    grid->setColumnStretchFactor(1, 0.001);
    legendTitle_ = new QCPTextElement(plot_, QString(), QFont(font().family(), 9, QFont::Bold));
    legendTitle_->setMargins(QMargins(8, 4, 8, 0));
    legendTitle_->setTextFlags(Qt::AlignLeft);
    side->addElement(0, 0, legendTitle_);
    plot_->axisRect()->insetLayout()->take(plot_->legend);
    side->addElement(1, 0, plot_->legend);
    side->addElement(2, 0, new QCPLayoutElement(plot_)); // the height left: both sit on top
    side->setRowStretchFactor(0, 0.001);
    side->setRowStretchFactor(1, 0.001);
    side->setRowSpacing(0);
    plot_->legend->setVisible(true);
    plot_->legend->setBorderPen(Qt::NoPen);
    plot_->legend->setBrush(Qt::NoBrush);
    plot_->legend->setMargins(QMargins(6, 2, 8, 2));
    plot_->legend->setIconSize(32, 22); // room for the front's ring
    empty_ = new QCPItemText(plot_);
    empty_->position->setType(QCPItemPosition::ptAxisRectRatio);
    empty_->position->setCoords(0.5, 0.5);
    empty_->setColor(Qt::gray);
    empty_->setVisible(false);
    hovered_ = new QCPItemTracer(plot_);
    hovered_->setStyle(QCPItemTracer::tsCircle);
    hovered_->setSize(20);
    hovered_->setPen(QPen(QColor(60, 60, 60), 2));
    hovered_->setVisible(false);
    hoverLabel_ = new QLabel(plot_);
    hoverLabel_->setObjectName("studyHover");
    hoverLabel_->setAttribute(Qt::WA_TransparentForMouseEvents); // the plot keeps the pointer
    hoverLabel_->setAutoFillBackground(true);
    hoverLabel_->setBackgroundRole(QPalette::ToolTipBase);
    hoverLabel_->setForegroundRole(QPalette::ToolTipText);
    hoverLabel_->setFrameShape(QFrame::Box);
    hoverLabel_->setMargin(4);
    hoverLabel_->hide();
    plot_->installEventFilter(this); // the pointer leaving the plot takes the box away

    for (QComboBox* c : {x_, y_, series_})
        connect(c, &QComboBox::currentIndexChanged, this, [this] {
            if (!filling_) rebuild();
        });
    connect(plot_, &QCustomPlot::mouseMove, this, [this](QMouseEvent* e) { hover(e->position()); });
    connect(plot_, &QCustomPlot::mousePress, this, [this](QMouseEvent* e) {
        if (e->button() != Qt::LeftButton) return;
        const int v = variantAt(e->position());
        if (v < 0) return;
        // Ctrl- or Shift-click: a second variant, beside the one opened last.
        if (e->modifiers() & (Qt::ControlModifier | Qt::ShiftModifier))
            emit variantCompared(v);
        else
            emit variantActivated(v);
    });
}

QComboBox* StudyChartWidget::combo(const QString& name) {
    auto* c = new QComboBox;
    c->setObjectName(name);
    c->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    c->setMinimumContentsLength(12);
    return c;
}

void StudyChartWidget::setStudy(const StudySpec& spec, std::vector<VariantResult> results) {
    results_ = std::move(results);
    std::vector<QString> axes, figures;
    for (const StudyAxis& a : spec.axes)
        axes.push_back(QString::fromStdString(a.name));
    // What the explicit variants vary too (a study of paired values has no axes at all).
    for (const QJsonObject& v : spec.extra)
        for (auto it = v.begin(); it != v.end(); ++it)
            if (std::find(axes.begin(), axes.end(), it.key()) == axes.end())
                axes.push_back(it.key());
    for (const std::string& f : spec.record)
        figures.push_back(QString::fromStdString(f));
    filling_ = true;
    for (QComboBox* c : {x_, y_, series_})
        c->clear();
    series_->addItem(tr("(none)"), QString());
    for (const QString& a : axes) {
        x_->addItem(studyQuantity(a).label, a);
        series_->addItem(studyQuantity(a).label, a);
    }
    for (const QString& f : figures) {
        x_->addItem(studyQuantity(f).title(), f);
        y_->addItem(studyQuantity(f).title(), f);
    }
    for (QComboBox* c : {x_, y_, series_})
        for (int i = 0; i < c->count(); ++i) // the study's own name, for the curious
            c->setItemData(i, c->itemData(i), Qt::ToolTipRole);
    filling_ = false;
    setRequest(defaultStudyChart(axes, figures, results_));
}

void StudyChartWidget::setRequest(const StudyChartRequest& r) {
    filling_ = true;
    auto select = [](QComboBox* c, const QString& name) {
        const int i = c->findData(name);
        if (i >= 0) c->setCurrentIndex(i);
    };
    select(x_, r.x);
    select(y_, r.y);
    select(series_, r.seriesBy);
    filling_ = false;
    rebuild();
}

StudyChartRequest StudyChartWidget::request() const {
    return {x_->currentData().toString(), y_->currentData().toString(),
            series_->currentData().toString()};
}

double StudyChartWidget::drawnX(size_t series, double x) const {
    if (!data_.categoricalX || data_.series.size() < 2) return x;
    // Side by side within the category, half its width in all.
    const double n = double(data_.series.size());
    return x + (double(series) - (n - 1) / 2) * 0.5 / n;
}

void StudyChartWidget::rebuild() {
    plot_->clearGraphs();
    hovered_->setVisible(false);
    hoverLabel_->hide(); // the points move: the next hover says what is under the pointer
    hoverText_.clear();
    data_ = studyChartData(results_, request());
    const StudyChartData& d = data_;
    title_->setText(tr("%1 against %2").arg(d.y.label, inSentence(d.x.label)));
    plot_->xAxis->setLabel(d.x.title());
    plot_->yAxis->setLabel(d.y.title());
    legendTitle_->setText(d.seriesBy.name.isEmpty() ? QString() : d.seriesBy.title());
    QFont legendFont = font();
    legendFont.setPointSize(9);
    plot_->legend->setFont(legendFont);
    double xLo = INFINITY, xHi = -INFINITY, yLo = INFINITY, yHi = -INFINITY;
    QCPGraph* frontGraph = nullptr;
    if (!d.front.empty()) {
        // The staircase the front bounds: each variant's level holds until the next's. Drawn
        // first, under the series' lines; its rings show around their markers.
        QCPGraph* g = frontGraph = plot_->addGraph();
        g->setName(tr("Pareto front"));
        g->setPen(QPen(QColor(40, 40, 40, 170), 2, Qt::DashLine));
        g->setLineStyle(QCPGraph::lsStepLeft);
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(QColor(30, 30, 30), 1.6),
                                           Qt::NoBrush, 17));
        QVector<double> xs, ys;
        for (const StudyPoint& p : d.front)
            xs << p.x, ys << p.y;
        g->setData(xs, ys, true);
    }
    for (size_t s = 0; s < d.series.size(); ++s) {
        const StudySeries& series = d.series[s];
        QCPGraph* g = plot_->addGraph();
        g->setName(series.value); // under the legend's title, which names the axis
        const QColor c = colorOf(s);
        QColor line = c;
        line.setAlpha(150);
        g->setPen(QPen(line, 1.5));
        // A line only where the series is a function of x: a trend, not a zig-zag through
        // variants that share an x.
        bool distinctX = true;
        for (size_t i = 1; i < series.points.size(); ++i)
            distinctX = distinctX && series.points[i].x != series.points[i - 1].x;
        g->setLineStyle(distinctX ? QCPGraph::lsLine : QCPGraph::lsNone);
        g->setScatterStyle(QCPScatterStyle(kShapes[s % std::size(kShapes)], c.darker(130), c, 9));
        QVector<double> xs, ys;
        for (const StudyPoint& p : series.points) {
            xs << drawnX(s, p.x);
            ys << p.y;
            xLo = std::min(xLo, xs.back()), xHi = std::max(xHi, xs.back());
            yLo = std::min(yLo, p.y), yHi = std::max(yHi, p.y);
        }
        g->setData(xs, ys, true);
    }
    if (frontGraph) { // its legend entry after the series'
        frontGraph->removeFromLegend();
        frontGraph->addToLegend();
    }
    // Axes: categories by name, a handful of numbers each at its value, figures as they come.
    if (d.categoricalX) {
        auto ticker = QSharedPointer<QCPAxisTickerText>::create();
        for (size_t i = 0; i < d.categories.size(); ++i)
            ticker->addTick(double(i), d.categories[i]);
        plot_->xAxis->setTicker(ticker);
        plot_->xAxis->setRange(-0.5, std::max(0.5, double(d.categories.size()) - 0.5));
        plot_->xAxis->grid()->setZeroLinePen(Qt::NoPen); // the first category is no zero
    } else {
        std::vector<double> values;
        for (const StudySeries& s : d.series)
            for (const StudyPoint& p : s.points)
                values.push_back(p.x);
        std::sort(values.begin(), values.end());
        values.erase(std::unique(values.begin(), values.end()), values.end());
        if (d.x.axis && !values.empty() && values.size() <= size_t(kMaxValueTicks)) {
            auto ticker = QSharedPointer<QCPAxisTickerText>::create();
            for (double v : values)
                ticker->addTick(v, QString::number(v, 'g', 6));
            plot_->xAxis->setTicker(ticker);
        } else {
            plot_->xAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
        }
        plot_->xAxis->grid()->setZeroLinePen(plot_->yAxis->grid()->zeroLinePen());
        if (std::isfinite(xLo)) plot_->xAxis->setRange(padded(xLo, xHi));
    }
    if (std::isfinite(yLo)) plot_->yAxis->setRange(padded(yLo, yHi));
    const bool any = d.pointCount() > 0;
    empty_->setText(d.ok == 0 ? tr("No variant ran: every one failed")
                              : tr("No variant that ran has these figures"));
    empty_->setVisible(!any);
    plot_->legend->setVisible(any);
    plot_->replot();
}

std::optional<QPointF> StudyChartWidget::pixelOf(int variant) const {
    for (size_t s = 0; s < data_.series.size(); ++s)
        for (const StudyPoint& p : data_.series[s].points)
            if (p.variant == variant)
                return QPointF(plot_->xAxis->coordToPixel(drawnX(s, p.x)),
                               plot_->yAxis->coordToPixel(p.y));
    return std::nullopt;
}

int StudyChartWidget::variantAt(QPointF pos) const {
    int best = -1;
    double bestD = kHoverRadiusPx;
    for (size_t s = 0; s < data_.series.size(); ++s)
        for (const StudyPoint& p : data_.series[s].points) {
            const QPointF at(plot_->xAxis->coordToPixel(drawnX(s, p.x)),
                             plot_->yAxis->coordToPixel(p.y));
            const double dist = std::hypot(at.x() - pos.x(), at.y() - pos.y());
            if (dist <= bestD) best = p.variant, bestD = dist;
        }
    return best;
}

bool StudyChartWidget::eventFilter(QObject* watched, QEvent* event) {
    if (watched == plot_ && event->type() == QEvent::Leave && !hoverText_.isEmpty()) {
        hoverText_.clear();
        hoverLabel_->hide();
        hovered_->setVisible(false);
        plot_->setCursor(Qt::ArrowCursor);
        plot_->replot(QCustomPlot::rpQueuedReplot);
    }
    return QWidget::eventFilter(watched, event);
}

void StudyChartWidget::hover(QPointF pos) {
    const int v = variantAt(pos);
    // Variants drawn on the same spot (equal figures) are all named: one hides the other.
    QStringList parts;
    if (v >= 0)
        for (const VariantResult& r : results_) {
            const std::optional<QPointF> at = pixelOf(r.index);
            if (!at || QLineF(*at, *pixelOf(v)).length() > 2) continue;
            parts << studyVariantText(r) +
                         (data_.onFront(r.index) ? tr("\non the Pareto front") : QString());
        }
    const QString text = parts.join("\n\n");
    if (text == hoverText_) return;
    hoverText_ = text;
    plot_->setCursor(text.isEmpty() ? Qt::ArrowCursor : Qt::PointingHandCursor);
    hovered_->setVisible(!text.isEmpty());
    if (!text.isEmpty()) {
        hovered_->position->setPixelPosition(*pixelOf(v));
        hoverLabel_->setText(text + (parts.size() > 1 ? tr("\n\n(click to open variant %1)").arg(v)
                                                      : tr("\n(click to open)")));
        hoverLabel_->adjustSize();
        hoverLabel_->move(placeInside(pos.toPoint(), hoverLabel_->size(), plot_->rect()));
        hoverLabel_->raise();
        hoverLabel_->show();
    } else {
        hoverLabel_->hide();
    }
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

QString StudyChartWidget::exportChart(const QString& path, QSize sizePx) const {
    // The hover ring is not part of the chart.
    const bool ring = hovered_->visible();
    hovered_->setVisible(false);
    const QString error = views::exportChart(
        plot_, [this] { return studyChartCsv(data_, results_); }, path, sizePx);
    hovered_->setVisible(ring);
    return error;
}

} // namespace cs::views
