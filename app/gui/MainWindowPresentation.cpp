// MainWindow's presentation mode and camera tour, for showing a cluster design to an audience.
#include "CameraBookmarks.h"
#include "MainWindow.h"
#include "ReplayController.h"
#include "ViewControls.h"
#include "VtkViewWidget.h"

#include "PlaybackClock.h"
#include "RunCaption.h"

#include <QDockWidget>
#include <QKeyEvent>
#include <QMenuBar>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>

#include <algorithm>

namespace cs::app {

QString MainWindow::presentationCaption() const {
    QStringList parts;
    if (!runPath_.isEmpty() && replay_->overview()) {
        const int64_t now = replay_->clock()->nowNs();
        parts << QString::fromStdString(
            runCaption(replay_->overview()->stepTime, replay_->overview()->mfu, now));
    }
    if (doc_)
        if (const auto& sel = view_->scene().selection())
            parts << QString("selected: %1")
                         .arg(QString::fromStdString(doc_->topology().nameOf(sel->entity)));
    return parts.join("  |  ");
}

void MainWindow::updateCaption() {
    // A playing run's time, step and MFU always (the first screen says how the job runs);
    // the selection only while presenting, when the inspector is hidden.
    QString caption;
    if (presenting_)
        caption = presentationCaption();
    else if (!runPath_.isEmpty() && replay_->overview())
        caption = QString::fromStdString(runCaption(
            replay_->overview()->stepTime, replay_->overview()->mfu, replay_->clock()->nowNs()));
    view_->scene().setCaption(caption.toStdString());
    view_->update();
}

void MainWindow::setPresenting(bool on) {
    if (on == presenting_) return;
    presenting_ = on;
    if (on) {
        statePresented_ = saveState();
        windowStatePresented_ = windowState();
        for (QDockWidget* d : findChildren<QDockWidget*>())
            d->hide();
        for (QToolBar* b : findChildren<QToolBar*>())
            b->hide();
        menuBar()->hide();
        statusBar()->hide();
        showFullScreen();
    } else {
        stopTour();
        menuBar()->show();
        statusBar()->show();
        restoreState(statePresented_);
        setWindowState(windowStatePresented_);
    }
    updateCaption();
}

bool MainWindow::startTour(int dwellMs) {
    if (!doc_ || CameraBookmarks(QString::fromStdString(doc_->topology().name)).list().isEmpty())
        return false;
    if (!tour_) {
        tour_ = new QTimer(this);
        connect(tour_, &QTimer::timeout, this, &MainWindow::nextTourStop);
    }
    tourStop_ = 0;
    tour_->setInterval(std::max(50, dwellMs));
    nextTourStop();
    tour_->start();
    return true;
}

void MainWindow::stopTour() {
    if (tour_) tour_->stop();
}

bool MainWindow::touring() const {
    return tour_ && tour_->isActive();
}

void MainWindow::nextTourStop() {
    const QList<views::CameraBookmark> marks =
        doc_ ? CameraBookmarks(QString::fromStdString(doc_->topology().name)).list()
             : QList<views::CameraBookmark>();
    if (marks.isEmpty()) {
        stopTour();
        return;
    }
    // Fly there in at most half the dwell: the audience sees the view settle before it moves.
    controls_->goToBookmark(marks[tourStop_++ % marks.size()],
                            std::min(1500, tour_->interval() / 2));
}

void MainWindow::keyPressEvent(QKeyEvent* e) {
    if (touring()) {
        stopTour(); // any key ends a tour
        e->accept();
        return;
    }
    if (presenting_ && e->key() == Qt::Key_Escape) {
        setPresenting(false);
        e->accept();
        return;
    }
    QMainWindow::keyPressEvent(e);
}

} // namespace cs::app
