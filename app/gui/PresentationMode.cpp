#include "PresentationMode.h"

#include "CameraBookmarks.h"
#include "ViewControls.h"

#include <QDockWidget>
#include <QKeyEvent>
#include <QMainWindow>
#include <QMenuBar>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>

#include <algorithm>

namespace cs::app {

PresentationMode::PresentationMode(QMainWindow* window, ViewControls* controls,
                                   std::function<QString()> topologyName)
    : QObject(window), window_(window), controls_(controls),
      topologyName_(std::move(topologyName)) {}

void PresentationMode::setPresenting(bool on) {
    if (on == presenting_) return;
    presenting_ = on;
    if (on) {
        statePresented_ = window_->saveState();
        windowStatePresented_ = window_->windowState();
        for (QDockWidget* d : window_->findChildren<QDockWidget*>())
            d->hide();
        for (QToolBar* b : window_->findChildren<QToolBar*>())
            b->hide();
        window_->menuBar()->hide();
        window_->statusBar()->hide();
        window_->showFullScreen();
    } else {
        stopTour();
        window_->menuBar()->show();
        window_->statusBar()->show();
        window_->restoreState(statePresented_);
        window_->setWindowState(windowStatePresented_);
    }
    emit presentingChanged(on);
}

bool PresentationMode::startTour(int dwellMs) {
    const QString name = topologyName_();
    if (name.isEmpty() || CameraBookmarks(name).list().isEmpty()) return false;
    if (!tour_) {
        tour_ = new QTimer(this);
        connect(tour_, &QTimer::timeout, this, &PresentationMode::nextStop);
    }
    tourStop_ = 0;
    tour_->setInterval(std::max(50, dwellMs));
    nextStop();
    tour_->start();
    return true;
}

void PresentationMode::stopTour() {
    if (tour_) tour_->stop();
}

bool PresentationMode::touring() const {
    return tour_ && tour_->isActive();
}

void PresentationMode::nextStop() {
    const QString name = topologyName_();
    const QList<views::CameraBookmark> marks =
        name.isEmpty() ? QList<views::CameraBookmark>() : CameraBookmarks(name).list();
    if (marks.isEmpty()) {
        stopTour();
        return;
    }
    // Fly there in at most half the dwell: the audience sees the view settle before it moves.
    controls_->goToBookmark(marks[tourStop_++ % marks.size()],
                            std::min(1500, tour_->interval() / 2));
}

bool PresentationMode::handleKey(QKeyEvent* e) {
    if (touring()) {
        stopTour(); // any key ends a tour
        e->accept();
        return true;
    }
    if (presenting_ && e->key() == Qt::Key_Escape) {
        setPresenting(false);
        e->accept();
        return true;
    }
    return false;
}

} // namespace cs::app
