#pragma once
// Replays a stored run (simulated or recorded) in the main window: the playback clock, the
// timeline and chart docks, and the 3D view coloured by the frame at "now". The path of a
// frame: clock -> reader thread (RunReader) -> frameReady -> scene colours.
#include "GpuRoles.h"
#include "PlaybackClock.h"
#include "RunJobs.h"
#include "RunReaderThread.h"
#include "StageGantt.h"
#include "TopologyDocument.h"

#include <QJsonObject>
#include <QObject>

#include <memory>

class QDockWidget;
class QMainWindow;

namespace cs::views {
class RunChartsWidget;
class RunEventsModel;
class HotLinksModel;
class JobsModel;
class JobsGanttWidget;
class TimelineWidget;
class VtkViewWidget;
} // namespace cs::views

namespace cs::app {

class ViewControls;

class ReplayController : public QObject {
    Q_OBJECT
public:
    ReplayController(QMainWindow* window, views::VtkViewWidget* view, ViewControls* controls);
    ~ReplayController() override;

    // Opens a run store for the current topology on the reader thread, keeping the window
    // responsive meanwhile; throws InputException when the store is refused.
    void open(const QString& path, const TopologyDocument& doc);
    void close();
    bool isOpen() const { return overview_ != nullptr; }
    PlaybackClock* clock() const { return clock_; }
    views::TimelineWidget* timeline() const { return timeline_; }
    views::RunChartsWidget* charts() const { return charts_; }
    views::RunEventsModel* events() const { return events_; }
    views::HotLinksModel* hotLinks() const { return hotLinks_; }
    // Selects the link in the Hottest Links row and flies to it.
    void goToHotLink(int row);
    // Seeks to the event in the Events dock's row (and asks for its entity to be selected).
    void goToEvent(int row);
    bool nextEvent(bool forward); // seeks to the next (or previous) event; false: none
    const RunOverview* overview() const { return overview_.get(); }
    // The open run's time, step and MFU at now (RunCaption.h); empty when none is open.
    QString caption() const;
    const QJsonObject& summary() const { return summary_; } // the open run's, parsed at open
    void selectEntity(Endpoint e); // charts plot a selected GPU's or link's own series
    bool hasJobs() const;          // the open run lists jobs (the Jobs dock, colour by job)
    // Selects the job in the Jobs dock's row (-1: none): its GPUs and links outlined in the
    // view, its GPUs' mean busy in the GPU chart.
    void selectJob(int row);
    int selectedJob() const;
    // Goes to the job of that name as a click on its row does; false when none has it.
    bool goToJobNamed(const QString& name);
    // The selected entity's values in the frame shown (empty without a replay).
    std::vector<std::pair<std::string, std::string>> selectedValues() const;
    // The time of the frame the view shows, once one arrived.
    std::optional<int64_t> shownNs() const;
    const FrameResult* shownFrame() const { return frame_.get(); }
    // The selected GPU's pipeline stage over one step (a simulated run's), null otherwise; how
    // many stages the run has; how far into its step the frame shown is.
    std::shared_ptr<const StageGantt> selectedGantt() const { return gantt_; }
    int pipelineStages() const { return roles_ ? roles_->config().pp : 0; }
    std::optional<double> shownStepPhase() const;
    // A live recording: the open run grows. refreshRun() reads it again; while the timeline's
    // Live button is checked the clock follows the newest frame, and seeking elsewhere
    // unchecks it.
    void setLive(bool live);
    void refreshRun();

signals:
    void nowShown();    // the view shows a new "now": the inspector refreshes its values
    void runExtended(); // a refresh found the run grown
    void entityChosen(cs::Endpoint e); // an event's entity, to select
    // A job chosen in the Jobs dock: its first host, to select, and the one rack it runs in
    // (kNone: several), to fly to (else the whole cluster, to see all its racks outlined).
    void jobChosen(cs::Endpoint firstHost, qint32 rack);

private:
    void showFrame(std::shared_ptr<const FrameResult> f);
    void extend(std::shared_ptr<const RunOverview> overview);
    void followEnd();
    void applyFrame();

    QMainWindow* window_;
    views::VtkViewWidget* view_;
    ViewControls* controls_;
    PlaybackClock* clock_;
    RunReaderThread* reader_;
    std::shared_ptr<const RunOverview> overview_;
    std::shared_ptr<const FrameResult> frame_;
    const TopologyDocument* doc_ = nullptr;
    Endpoint selected_{EntityKind::Cluster, -1};
    // The selected link's traffic over the stretch shown, as inspector rows.
    std::vector<std::pair<std::string, std::string>> linkLines_;
    std::optional<GpuRoles> roles_;           // a simulated run's ranks per GPU
    std::shared_ptr<const StageGantt> gantt_; // the selected GPU's stage
    void findGantt();
    QJsonObject summary_;       // the open run's summary, parsed once at open
    bool followingEnd_ = false; // the clock moves to the newest frame: not the user seeking
    views::TimelineWidget* timeline_;
    views::RunChartsWidget* charts_;
    QDockWidget* timelineDock_;
    QDockWidget* chartsDock_;
    views::RunEventsModel* events_;
    QDockWidget* eventsDock_;
    views::HotLinksModel* hotLinks_;
    QDockWidget* hotLinksDock_;
    HotBy hotBy_ = HotBy::Peak;
    void buildHotLinksDock();
    // A run of many jobs: their list; a click selects the job's first host and the job, and,
    // when the job does not run at the time shown, seeks to its start.
    views::JobsModel* jobs_;
    views::JobsGanttWidget* jobsGantt_;
    QDockWidget* jobsDock_;
    void buildJobsDock();
    void goToJob(int row);
    int selectedJob_ = -1; // its GPUs and links outlined, its GPUs' mean in the busy chart
    void showJobs(std::vector<RunJob> jobs); // in the list and the Gantt
};

} // namespace cs::app
