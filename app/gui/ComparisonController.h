#pragma once
// View > Compare: a second run, on the topology it was made on, replayed beside the window's
// own in a second 3D view on the window's clock. The second view follows the first's layout,
// aggregate and labels, and with linked cameras its camera (either view leads). The charts
// draw the second run dashed over the first; a dock holds the comparison table (RunComparison);
// the first view can colour by the difference A - B (FrameDifference).
#include "FrameDifference.h"
#include "RunComparison.h"
#include "RunReaderThread.h"
#include "TopologyDocument.h"
#include "VtkViewWidget.h"

#include <QObject>
#include <QPointer>

#include <memory>

class QDockWidget;
class QLabel;
class QMainWindow;
class QSplitter;
class QTableView;

namespace cs {
class PlaybackClock;
}

namespace cs::views {
class ComparisonTableModel;
} // namespace cs::views

namespace cs::app {

class ReplayController;
class ViewControls;

class ComparisonController : public QObject {
    Q_OBJECT
public:
    // `split` holds the window's view; the second view goes beside it.
    ComparisonController(QMainWindow* window, QSplitter* split, views::VtkViewWidget* viewA,
                         ReplayController* replay, ViewControls* controls);
    ~ComparisonController() override;

    // Compares the open run (on `docA`) with the store's newest run on `docB` (owned from now on),
    // shown in a second view. The open run is A and the second B, unless `secondIsBaseline`: then
    // the second run is A (the baseline, on the left) and the open one B, so that B - A reads
    // as what the newer design changed. Throws InputException when B's store is refused on docB.
    void open(const TopologyDocument& docA, const QString& runPathA, const QString& runPathB,
              std::unique_ptr<TopologyDocument> docB, bool secondIsBaseline = false);
    void close();
    bool isOpen() const { return docB_ != nullptr; }
    void setCamerasLinked(bool linked);
    bool camerasLinked() const { return linked_; }

    views::VtkViewWidget* viewB() const { return viewB_; }
    const TopologyDocument* documentB() const { return docB_.get(); }
    const QString& runPathB() const { return runPathB_; }
    bool secondIsBaseline() const { return secondIsBaseline_; }
    const RunComparison& comparison() const;
    views::ComparisonTableModel* table() const { return table_; }
    std::optional<int64_t> shownNsB() const; // the time of the frame view B shows

signals:
    void frameShownB();
    void closed(); // the second run and its document are gone

private:
    void showFrameB(std::shared_ptr<const FrameResult> f);
    void followState();    // view B takes view A's layout, aggregate and labels
    void showDifference(); // view A, when it colours by the difference
    void followCamera(views::VtkViewWidget* from, views::VtkViewWidget* to);

    QMainWindow* window_;
    QSplitter* split_;
    views::VtkViewWidget* viewA_;
    QPointer<views::VtkViewWidget> viewB_; // in the splitter, which may go first
    ReplayController* replay_;
    ViewControls* controls_;
    RunReaderThread* reader_;
    const TopologyDocument* docA_ = nullptr;
    std::unique_ptr<TopologyDocument> docB_;
    QString runPathB_;
    std::shared_ptr<const RunOverview> overviewB_;
    std::shared_ptr<const FrameResult> frameB_;
    EntityMatch match_;
    views::ComparisonTableModel* table_;
    QDockWidget* tableDock_;
    QLabel* names_;                 // which run is A and which B, above the table
    bool secondIsBaseline_ = false; // the second view holds A, the window's own view B
    bool linked_ = true;
    bool followingCamera_ = false; // a linked camera moving: not the user
};

} // namespace cs::app
