#pragma once
// Charts of a replayed run, linked to the playback clock: GPU busy (mean with the 5th-95th
// percentile band, and the selected GPU), network throughput per tier, storage throughput,
// step time and MFU. Legends sit below each chart, outside the data. A crosshair follows the
// clock on every chart; hovering reads out the values under the pointer; clicking seeks; the
// context menu saves a chart as PNG, SVG or CSV. Charts flow into as many columns as the
// width holds and scroll when the dock is short. It draws plain values the app hands it
// (read off the GUI thread): no store, no SQL.
#include "ChartData.h"
#include "PlaybackClock.h"
#include "RunOverview.h"

#include <QWidget>

#include <memory>

class QCustomPlot;
class QCPItemStraightLine;
class QCPItemText;
class QCPItemTracer;
class QGridLayout;
class QScrollArea;

namespace cs::views {

class RunChartsWidget : public QWidget {
    Q_OBJECT
public:
    RunChartsWidget(PlaybackClock* clock, QWidget* parent = nullptr);
    ~RunChartsWidget() override;
    void setOverview(std::shared_ptr<const RunOverview> overview); // null clears the charts
    // A second run drawn over the first, dashed, named "B: ..." in the legends (GPU busy mean,
    // tiers, storage, step time, MFU); null removes it.
    // `letter` names the other run in the legends ("B: mean"): B, or A when it is the baseline.
    void setComparison(std::shared_ptr<const RunOverview> other, const QString& letter = "B");
    // The same run, grown (a live recording): the selected entity stays selected.
    void extendOverview(std::shared_ptr<const RunOverview> overview);
    // Plots a selected GPU's busy fraction or a selected link's traffic beside the run-wide
    // series (GPUs: fraction, links: B/s); an empty series hides it.
    void setEntitySeries(Endpoint e, const QString& name, const Series& s);
    // A selected job (`name`: "job a"): its GPUs' mean busy fraction beside the run's ("job a:
    // mean") and its traffic over the tiers beside theirs ("job a: all tiers"), each drawn to
    // its end (endNs; < 0: the run's end); an empty series is not drawn.
    void setJobSeries(const QString& name, const Series& busy, const Series& traffic,
                      int64_t endNs = -1);
    // A recorded run's absolute start (ns since the epoch; 0: none): the time axes then show
    // the time of day in UTC or local time, and their label the start's date.
    void setWallClock(int64_t wallStartNs, bool utc);
    QList<QCustomPlot*> plots() const;
    int columns() const { return columns_; }

    // What the user reads: the hover readout's text (empty: hidden), and where the clock's
    // crosshair stands on chart i (time on the x axis, value; none: hidden).
    QString readoutText(int chart) const;
    std::optional<QPointF> crosshairAt(int chart) const;
    // The chart's data, as its CSV export writes it.
    const std::vector<ChartSeries>& seriesOf(int chart) const;
    // Saves chart i to path (.png, .svg, .csv); the error, or an empty string.
    QString exportChart(int chart, const QString& path, QSize sizePx = {}) const;

protected:
    void resizeEvent(QResizeEvent* e) override;
    bool eventFilter(QObject* watched, QEvent* e) override;

private:
    struct Chart;
    void rebuild();
    void reflow();
    void moveCursor();
    void hover(Chart& c, double x);
    void showExportMenu(int chart, QPoint pos);
    Chart& addChart(const QString& title, const QString& yLabel);
    int64_t nsAtX(double x) const;
    QString timeText(int64_t tsNs) const;

    PlaybackClock* clock_;
    QScrollArea* scroll_;
    QWidget* grid_;
    QGridLayout* gridLayout_;
    int columns_ = 0;
    std::shared_ptr<const RunOverview> overview_;
    std::shared_ptr<const RunOverview> other_; // the run compared with it, drawn dashed
    QString otherLetter_ = "B";
    Endpoint selected_{EntityKind::Cluster, -1};
    QString selectedName_;
    Series selectedSeries_;
    QString jobName_;
    Series jobSeries_, jobTraffic_;
    int64_t jobEndNs_ = -1;
    bool hours_ = false;
    int64_t wallStartNs_ = 0;
    bool utc_ = true;
    double unitS() const { return hours_ ? 3600.0 : 1.0; }
    double x0() const;
    std::vector<std::unique_ptr<Chart>> charts_;
};

} // namespace cs::views
