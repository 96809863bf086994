#pragma once
// Charts of a replayed run, linked to the playback clock: GPU busy (mean with the 5th-95th
// percentile band, and the selected GPU), network throughput per tier, storage throughput,
// step time and MFU. A cursor follows the clock; clicking a chart seeks. It draws plain
// values the app hands it (read off the GUI thread): no store, no SQL.
#include "PlaybackClock.h"
#include "RunOverview.h"

#include <QWidget>

#include <memory>

class QCustomPlot;
class QCPItemStraightLine;
class QCPItemText;

namespace cs::views {

class RunChartsWidget : public QWidget {
    Q_OBJECT
public:
    RunChartsWidget(PlaybackClock* clock, QWidget* parent = nullptr);
    void setOverview(std::shared_ptr<const RunOverview> overview); // null clears the charts
    // The same run, grown (a live recording): the selected entity stays selected.
    void extendOverview(std::shared_ptr<const RunOverview> overview);
    // Plots a selected GPU's busy fraction or a selected link's traffic beside the run-wide
    // series (GPUs: fraction, links: B/s); an empty series hides it.
    void setEntitySeries(Endpoint e, const QString& name, const Series& s);
    // A recorded run's absolute start (ns since the epoch; 0: none): the time axes then show
    // the time of day in UTC or local time, and their label the start's date.
    void setWallClock(int64_t wallStartNs, bool utc);
    QList<QCustomPlot*> plots() const { return plots_; }

protected:
    void resizeEvent(QResizeEvent* e) override;

private:
    void rebuild();
    void moveCursor();
    QCustomPlot* addPlot(const QString& title, const QString& yLabel);

    PlaybackClock* clock_;
    std::shared_ptr<const RunOverview> overview_;
    Endpoint selected_{EntityKind::Cluster, -1};
    QString selectedName_;
    Series selectedSeries_;
    bool hours_ = false;
    int64_t wallStartNs_ = 0;
    bool utc_ = true;
    double unitS() const { return hours_ ? 3600.0 : 1.0; }
    double x0() const;
    QList<QCustomPlot*> plots_;
    QList<QCPItemStraightLine*> cursors_;
    QList<QCPItemText*> emptyLabels_; // per plot: "not in this run"
};

} // namespace cs::views
