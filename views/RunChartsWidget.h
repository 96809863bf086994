#pragma once
// Charts of a replayed run, linked to the playback clock: GPU busy (mean with the 5th-95th
// percentile band, and the selected GPU), network throughput per tier, storage throughput,
// step time and MFU. A cursor follows the clock; clicking a chart seeks.
#include "PlaybackClock.h"
#include "RunReplay.h"

#include <QWidget>

class QCustomPlot;
class QCPItemStraightLine;

namespace cs::views {

class RunChartsWidget : public QWidget {
    Q_OBJECT
public:
    RunChartsWidget(PlaybackClock* clock, QWidget* parent = nullptr);
    void setReplay(const RunReplay* replay); // may be null; not owned
    // Plots a selected GPU's busy fraction or a selected link's traffic beside the run-wide
    // series; anything else hides them.
    void showEntity(Endpoint e);
    QList<QCustomPlot*> plots() const { return plots_; }

protected:
    void resizeEvent(QResizeEvent* e) override;

private:
    void rebuild();
    void moveCursor();
    QCustomPlot* addPlot(const QString& title, const QString& yLabel);

    PlaybackClock* clock_;
    const RunReplay* replay_ = nullptr;
    Endpoint selected_{EntityKind::Cluster, -1};
    bool hours_ = false;
    double unitS() const { return hours_ ? 3600.0 : 1.0; }
    QList<QCustomPlot*> plots_;
    QList<QCPItemStraightLine*> cursors_;
};

} // namespace cs::views
