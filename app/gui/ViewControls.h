#pragma once
// The View menu and toolbar of the 3D view: layout, colouring, aggregate, labels, search,
// camera presets and bookmarks. They edit the view's ViewState (VtkViewWidget::applyState) and
// mirror it when it changes elsewhere (a session, a bookmark, a run opening); they keep the
// test pattern moving while it is shown.
#include "TopologyDocument.h"
#include "ViewState.h"

#include <QElapsedTimer>
#include <QObject>

#include <functional>

class QAction;
class QComboBox;
class QLineEdit;
class QMainWindow;
class QMenu;
class QTimer;

namespace cs::views {
class VtkViewWidget;
}

namespace cs::app {

class ViewControls : public QObject {
    Q_OBJECT
public:
    ViewControls(QMainWindow* window, views::VtkViewWidget* view);
    void setDocument(const TopologyDocument* doc);

    QLineEdit* searchBox() const { return search_; }
    QComboBox* layoutBox() const { return layout_; }
    QComboBox* colourBox() const { return colour_; }
    QComboBox* aggregateBox() const { return aggregate_; }
    // The Colour box's item for "kind", "value" (the run's busy, else link speed), "job" (the
    // job on each GPU) or "difference" (A - B); -1 when the window has none now.
    int colourItemNamed(const QString& name) const;
    QAction* labelsAction() const { return labels_; }
    // Runs a search as if typed; returns whether it found something.
    bool search(const QString& text);
    // A run is open: the colour box lists it as `title` and the view colours by it.
    // A run opened: its item ("Run: NAME", GPUs by busy) and one per other GPU metric it holds.
    // With roles (a simulated run): items for the GPUs' stage, DP replica and TP rank.
    void showRun(const QString& title, const std::vector<Metric>& metrics = {}, bool roles = false,
                 bool jobs = false);
    void clearRun();
    // A second run is compared with the open one: the colour box offers their difference.
    void showComparison();
    void clearComparison();
    // Switches to the bookmark's layout and flies to its camera over `flyMs`.
    void goToBookmark(const views::CameraBookmark& b, int flyMs = 450);

signals:
    void entityFound(cs::Endpoint e);

private:
    int colourItem(views::ValueMetric m) const; // the Colour box item of a metric; -1: none
    void removeRunItems();
    // Applies `change` to the view's state (the camera left where the scene puts it).
    void edit(const std::function<void(views::ViewState&)>& change);
    void mirrorState(); // the boxes and the pattern timer follow the view's state
    void tickPattern();
    void rebuildCameraMenu();
    void saveBookmark();

    QMainWindow* window_;
    views::VtkViewWidget* view_;
    const TopologyDocument* doc_ = nullptr;
    QComboBox* layout_;
    QComboBox* colour_; // item i: kValueMetricNames[i] (the run's only while one is open)
    QComboBox* aggregate_;
    QAction* labels_;
    QLineEdit* search_;
    QMenu* cameraMenu_;
    QTimer* patternTimer_;
    QElapsedTimer patternClock_;
};

} // namespace cs::app
