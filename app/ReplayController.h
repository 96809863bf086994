#pragma once
// Replays a stored run (simulated or recorded) in the main window: the playback clock, the
// time slider and chart docks, and the 3D view coloured by the frame at "now".
#include "PlaybackClock.h"
#include "RunReplay.h"
#include "TopologyDocument.h"

#include <QObject>

#include <memory>

class QDockWidget;
class QMainWindow;

namespace cs::views {
class RunChartsWidget;
class TimelineWidget;
class VtkViewWidget;
} // namespace cs::views

namespace cs::app {

class ViewControls;

// Entities of failure events at or before `nowNs` with no restart after them yet.
std::vector<Endpoint> failedAt(const std::vector<RunStore::Event>& events, int64_t nowNs);

class ReplayController : public QObject {
    Q_OBJECT
public:
    ReplayController(QMainWindow* window, views::VtkViewWidget* view, ViewControls* controls);
    ~ReplayController() override;

    // Opens a run store for the current topology; throws InputException.
    void open(const QString& path, const TopologyDocument& doc);
    void close();
    bool isOpen() const { return replay_ != nullptr; }
    PlaybackClock* clock() const { return clock_; }
    views::RunChartsWidget* charts() const { return charts_; }
    void selectEntity(Endpoint e); // charts plot a selected GPU's or link's own series
    // The selected entity's values at "now" (empty without a replay).
    std::vector<std::pair<std::string, std::string>> selectedValues() const;

signals:
    void nowShown(); // the view shows a new "now": the inspector refreshes its values

private:
    void showNow();

    QMainWindow* window_;
    views::VtkViewWidget* view_;
    ViewControls* controls_;
    PlaybackClock* clock_;
    std::unique_ptr<RunReplay> replay_;
    const TopologyDocument* doc_ = nullptr;
    Endpoint selected_{EntityKind::Cluster, -1};
    views::TimelineWidget* timeline_;
    views::RunChartsWidget* charts_;
    QDockWidget* timelineDock_;
    QDockWidget* chartsDock_;
};

} // namespace cs::app
