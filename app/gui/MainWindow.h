#pragma once
// The main window: topology tree and inspector docks around the central view, File menu
// with Open / Open Preset / Recent, Help -> About.
#include "DefaultRun.h"
#include "DesignSaveDialog.h"
#include "MovieWriter.h"
#include "PrometheusSource.h"
#include "RecentFiles.h"
#include "SessionFile.h"
#include "TopologyDocument.h"
#include "Workload.h"

#include <QMainWindow>
#include <QPointer>

#include <functional>
#include <memory>

class QLabel;
class QSplitter;
class QMenu;
class QPlainTextEdit;
class QTreeView;

namespace cs::views {
class InspectorWidget;
class StepBreakdownChart;
class TopologyTreeModel;
class VtkViewWidget;
} // namespace cs::views

namespace cs::app {

class LiveRecording;
class SimulationDialog;
class TelemetryImportDialog;

class ComparisonController;
class CollectivesDock;
class PresentationMode;
class ViewExports;
class DesignDock;
class SummaryPanel;
class StudyWindow;
class ViewControls;
class ReplayController;
class SelectionSync;
class StudyLinks;

// The source of a topology regenerated from an edited design (Design dock): "design:NAME".
inline const std::string kDesignSource = "design:";

// Open Recent entries that are stored runs and run descriptions, not topologies.
inline const QString kRunPrefix = QStringLiteral("run:");
inline const QString kRunDescriptionPrefix = QStringLiteral("run-description:");

// Where the window keeps the runs it simulates: "runs" in the user's data directory.
QString runsFolder();

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    MainWindow();
    ~MainWindow() override;

    // Opens "preset:NAME" or a file path; on failure shows the error and keeps the current
    // topology. Returns whether it opened.
    bool openSource(const QString& source, bool showErrors = true,
                    const TopologyReadOptions& read = {});
    const TopologyDocument* document() const { return doc_.get(); }
    QTreeView* treeView() const { return tree_; }
    // Selects an entity by id in the tree, the 3D view and the inspector; false if there is
    // no such id.
    bool selectById(const QString& id);
    views::VtkViewWidget* view() const { return view_; }
    ViewControls* viewControls() const { return controls_; }
    ReplayController* replay() const { return replay_; }
    ComparisonController* comparison() const { return compare_; }
    // View > Compare: the store's newest run beside the open one, on `topology` ("preset:NAME"
    // or a file) or else the topology the store keeps, the preset of its name, or the open
    // topology when the run was made on it. False when refused (the error shown unless not).
    // `asBaseline`: the run compared with is A (the baseline, left) and the open one B.
    bool compareWith(const QString& runPath, bool showErrors = true, const QString& topology = {},
                     bool asBaseline = false);
    // The Design dock's edits: the topology regenerated from `params` in place (the camera,
    // layout and colouring stay); a run open on the earlier design is kept for
    // simulateOnDesign. False when the generator refuses the parameters.
    bool applyDesign(const SiteParams& params);
    // Runs the settings of the run made on the earlier design on this one, opens the new run
    // and compares it with the earlier, which is the baseline A (the new run B). False when
    // nothing to re-run, or it failed.
    bool simulateOnDesign(bool showErrors = true);
    // The open design as a parameters file (Save Design As), under `identity`'s name and
    // description (none: the file's base name and the design's description); the design goes by
    // them from now on.
    bool saveDesign(const QString& path, bool showErrors = true,
                    const std::optional<DesignIdentity>& identity = std::nullopt);
    DesignDock* designDock() const { return designDock_; }
    CollectivesDock* collectives() const { return collectives_; }
    // File > Import nccl-tests Log: the log's points over the open design's simulated curve,
    // in the Collectives dock (brought to the front). False when the log cannot be read.
    bool importNcclTestsLog(const QString& path);
    // A design kept inline (a session's "design"): its topology, editable in the Design dock.
    bool openDesign(const QJsonObject& design, const QString& origin, bool showErrors = true);
    // Opens a run store for replay on the current topology; shows errors unless told not to.
    bool openRun(const QString& path, bool showErrors = true);
    // A run with the topology it was made on: the open one when it is that, else the design
    // the store keeps or the preset it names (File → Open Recent).
    bool openRunWithItsTopology(const QString& path, bool showErrors = true);
    // Copies the open run to `path` and goes on replaying it from there.
    bool saveRunAs(const QString& path, bool showErrors = true);
    QStringList recentEntries() const { return recent_.list(); }
    const QString& runPath() const { return runPath_; } // empty: no run open
    // The 3D view as it stands (layout, camera, colours, selection) drawn off screen at
    // `size` and saved as PNG (File → Save Screenshot). False on failure (shown unless not).
    bool saveScreenshot(const QString& path, QSize size, bool showErrors = true);
    // The 3D view's scene as glTF 2.0 (File → Export Scene), for slides and web viewers.
    bool exportScene(const QString& path, bool showErrors = true);
    // The open run as a movie from the view's layout and camera, with a progress dialog that
    // can cancel (then nothing is written). False when refused, failed or cancelled.
    bool exportMovie(views::MovieRequest request, bool showErrors = true);
    // Sessions (SessionFile.h): what the window shows, saved atomically and reopened as it
    // was. False on failure (the error shown unless told not to).
    Session currentSession() const;
    bool saveSession(const QString& path, bool showErrors = true);
    bool openSession(const QString& path, bool showErrors = true);
    // Presentation mode (F11; Esc leaves): full screen, docks, bars and menus hidden, and the
    // 3D view's title line captioned with the time, step, MFU and selection.
    void setPresenting(bool on);
    bool presenting() const;
    QString presentationCaption() const; // what the caption says now
    // A camera tour through the topology's bookmarks, `dwellMs` at each; false without
    // bookmarks. Any key stops it, as does stopTour().
    bool startTour(int dwellMs);
    void stopTour();
    bool touring() const;
    // On the default preset: plays the default run (Llama 3 405B, DefaultRun.h), from the
    // cache or simulated in the background first, with progress in the status bar.
    void startDefaultRun();
    bool defaultRunPending() const { return background_ != nullptr; }
    // A live recording from a Prometheus-compatible server: the first import (progress and
    // cancel), then the run opens and grows every step with the timeline following it. `nowS`
    // and `pollMs` are for tests (default: the system clock, every step). False when the
    // start failed or was cancelled (the error shown unless told not to).
    bool startLive(const PrometheusQuery& query, const QString& storePath,
                   std::function<int64_t()> nowS = {}, int pollMs = 0);
    void stopLive();
    LiveRecording* liveRecording() const { return live_.get(); }
    // File → Open Study: a study's result file in a window of its own, the chart of its
    // variants; clicking one opens it here (StudyLinks.h). Null when refused (the error shown
    // unless not).
    StudyWindow* openStudy(const QString& path, bool showErrors = true);
    // A design opened from elsewhere (a study's variant): `next` in every view and the Design
    // dock, with no earlier run to re-run on it, and `note` in the Summary.
    void showDesignOf(std::unique_ptr<TopologyDocument> next, const QString& note);
    // Where a simulation from the window writes its run: the runs folder (runsFolder()).
    QString newRunStorePath(const RunSpec& spec) const;
    // A failed action: a message box, or a warning on stderr when errors are not shown.
    void reportFailure(const QString& title, const char* what, bool showErrors);

    // The window's size and its docks' places, kept when it closes (not while presenting) and
    // brought back at the next start; false when none were kept or they do not fit this build.
    void saveLayout() const;
    bool restoreLayout();

protected:
    void closeEvent(QCloseEvent* e) override;

private:
    void buildMenus();
    void rebuildRecentMenu();
    void openFileDialog();
    void openPresetDialog();
    void exportDialog();

public:
    // Run → Simulate Training: the dialog, from the open simulated run's settings.
    void simulateDialog();
    // File → Open Run Description: fills the simulate dialog from a run file (errors located as
    // for topologies); false when the file is refused.
    bool openRunDescription(const QString& path, bool showErrors = true);
    // Simulates `spec` on the open topology with progress and cancel into a new store in the
    // runs folder, opens it paused at its start, shows its step breakdown and notes it in the
    // Summary; empty when cancelled or failed (the error shown).
    QString simulateAndOpen(const RunSpec& spec);
    // Run → Simulate Cluster Workload: many jobs on the open topology (WorkloadDialog.h).
    void simulateClusterDialog();
    // Simulates the workload on the open topology with progress and cancel into a new store in
    // the runs folder (cluster-TOPOLOGY-DATE-TIME.sqlite), opens it with its Jobs dock and
    // notes it in the Summary; empty when cancelled or failed (the error shown).
    QString simulateClusterAndOpen(const Workload& w, double spanS, const QString& name);
    // File → Import Telemetry: the previewed run kept in the runs folder as
    // recorded-TOPOLOGY-DATE-TIME.sqlite and opened; its path, or empty (the error shown).
    QString keepImport(TelemetryImportDialog& dialog);

private:
    void runSimulationDialog(SimulationDialog& dialog);
    void fitSummaryWidth(); // the Summary dock as wide as its longest line, up to half the window
    void showSummary();

    std::unique_ptr<TopologyDocument> doc_;
    RecentFiles recent_;
    QTreeView* tree_;
    views::TopologyTreeModel* treeModel_;
    views::InspectorWidget* inspector_;
    QPlainTextEdit* summary_;
    views::StepBreakdownChart* stepChart_; // the open run's step, part by part, per stage
    views::VtkViewWidget* view_;
    QSplitter* split_; // the view, and the compared run's view beside it
    DesignDock* designDock_;
    CollectivesDock* collectives_; // nccl-tests on the open design (and a comparison's B)
    ViewControls* controls_;
    ReplayController* replay_;
    ComparisonController* compare_;
    QString designRun_; // a run made on an earlier design of this topology, to re-run on it
    // Shows `next` in every view and dock; what was open on the earlier document closes.
    void adoptDocument(std::unique_ptr<TopologyDocument> next, const TopologyReadOptions& read);
    QString newRunStorePath(const QString& what) const; // "recorded", a model's name
    // The Summary tab: the topology's figures, its bill of materials, notes of runs made.
    SummaryPanel* summaryPanel_;
    void addSummaryNote(const QString& note);
    SelectionSync* selection_ = nullptr; // the tree, the view and the inspector on one entity
    StudyLinks* studies_ = nullptr;      // study windows and their variants opened here
    QMenu* recentMenu_ = nullptr;
    QPointer<BackgroundSimulation> background_;
    std::unique_ptr<LiveRecording> live_;
    QAction* stopLive_ = nullptr;
    QString runPath_;
    PresentationMode* presentation_ = nullptr; // presenting and the camera tour
    std::unique_ptr<ViewExports> exports_;     // screenshots, scenes, movies
    void updateCaption();
    void keyPressEvent(QKeyEvent* e) override;
    TopologyReadOptions read_; // how the open topology file was read
};

} // namespace cs::app
