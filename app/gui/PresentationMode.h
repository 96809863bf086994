#pragma once
// Showing a cluster design to an audience: presentation mode (full screen, docks, bars and
// menus hidden; Esc leaves) and a camera tour through the topology's bookmarks (any key stops
// it).
#include <QByteArray>
#include <QObject>
#include <QString>

#include <functional>

class QKeyEvent;
class QMainWindow;
class QTimer;

namespace cs::app {

class ViewControls;

class PresentationMode : public QObject {
    Q_OBJECT
public:
    // `topologyName`: the open topology's name, whose camera bookmarks a tour visits (empty:
    // none open).
    PresentationMode(QMainWindow* window, ViewControls* controls,
                     std::function<QString()> topologyName);

    void setPresenting(bool on);
    bool presenting() const { return presenting_; }
    // A tour `dwellMs` at each bookmark; false without bookmarks.
    bool startTour(int dwellMs);
    void stopTour();
    bool touring() const;
    // A key pressed in the window: true when it was the mode's (it ends a tour, or Esc ends
    // presenting).
    bool handleKey(QKeyEvent* e);

signals:
    void presentingChanged(bool on);

private:
    void nextStop();

    QMainWindow* window_;
    ViewControls* controls_;
    std::function<QString()> topologyName_;
    bool presenting_ = false;
    QByteArray statePresented_; // docks and bars as they were before presenting
    Qt::WindowStates windowStatePresented_;
    QTimer* tour_ = nullptr;
    int tourStop_ = 0;
};

} // namespace cs::app
