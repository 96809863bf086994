#pragma once
// The View menu and toolbar of the 3D view: layout, colouring, aggregate, search, camera
// presets and bookmarks. Keeps the test pattern moving while it is shown.
#include "FrameValues.h"
#include "TopologyDocument.h"

#include <QElapsedTimer>
#include <QObject>

class QAction;
class QActionGroup;
class QComboBox;
class QLineEdit;
class QMainWindow;
class QMenu;
class QTimer;
class QToolBar;

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
    // Runs a search as if typed; returns whether it found something.
    bool search(const QString& text);
    // A run is open: its colouring is listed in the colour box as `title` and chosen. The
    // replay puts its frames into the scene itself while showsRun().
    void showRun(const QString& title);
    void clearRun();
    bool showsRun() const;

signals:
    void entityFound(cs::Endpoint e);
    void runColourChosen(); // the user picked the run's colouring: the replay repaints

private:
    void applyLayout();
    void applyColour();
    void tickPattern();
    void rebuildCameraMenu();
    void saveBookmark();

    QMainWindow* window_;
    views::VtkViewWidget* view_;
    const TopologyDocument* doc_ = nullptr;
    QComboBox* layout_;
    QComboBox* colour_;
    QComboBox* aggregate_;
    QLineEdit* search_;
    QMenu* cameraMenu_;
    QTimer* patternTimer_;
    QElapsedTimer patternClock_;
};

} // namespace cs::app
