#include "ReplayController.h"

#include "FrameValues.h"
#include "RunChartsWidget.h"
#include "TimelineWidget.h"
#include "ViewControls.h"
#include "VtkViewWidget.h"

#include <QApplication>
#include <QDockWidget>
#include <QEventLoop>
#include <QFileInfo>
#include <QMainWindow>
#include <QShortcut>
#include <QStatusBar>
#include <QTimer>
#include <QToolButton>

namespace cs::app {

ReplayController::ReplayController(QMainWindow* window, views::VtkViewWidget* view,
                                   ViewControls* controls)
    : QObject(window), window_(window), view_(view), controls_(controls),
      clock_(new PlaybackClock(this)), reader_(new RunReaderThread(this)),
      timeline_(new views::TimelineWidget(clock_)), charts_(new views::RunChartsWidget(clock_)) {
    timelineDock_ = new QDockWidget(tr("Timeline"), window);
    timelineDock_->setObjectName("timelineDock");
    timelineDock_->setWidget(timeline_);
    window->addDockWidget(Qt::BottomDockWidgetArea, timelineDock_);
    chartsDock_ = new QDockWidget(tr("Charts"), window);
    chartsDock_->setObjectName("chartsDock");
    chartsDock_->setWidget(charts_);
    window->addDockWidget(Qt::RightDockWidgetArea, chartsDock_);
    timelineDock_->hide();
    chartsDock_->hide();
    connect(clock_, &PlaybackClock::nowChanged, this, [this] {
        if (overview_) reader_->requestFrame(clock_->nowNs());
        // The user went back in a live recording: stop following the newest frame.
        if (!followingEnd_ && timeline_->followsNow() && clock_->nowNs() < clock_->endNs())
            timeline_->liveButton()->setChecked(false);
    });
    connect(reader_, &RunReaderThread::refreshed, this, &ReplayController::extend);
    connect(timeline_, &views::TimelineWidget::followToggled, this, [this](bool follow) {
        if (follow) followEnd();
    });
    connect(reader_, &RunReaderThread::frameReady, this, &ReplayController::showFrame);
    connect(reader_, &RunReaderThread::historyReady, this, [this](Endpoint e, const Series& s) {
        if (!doc_ || !(e == selected_)) return;
        charts_->setEntitySeries(e, QString::fromStdString(doc_->topology().nameOf(e)), s);
    });
    // A frame the store refuses mid-replay: say so, keep the last good frame.
    connect(reader_, &RunReaderThread::failed, this, [this](const QString& message) {
        if (overview_) window_->statusBar()->showMessage(message, 10000);
    });
    // The user chose the run's colouring again: the frame shown is painted.
    connect(view_, &views::VtkViewWidget::stateChanged, this, &ReplayController::applyFrame);
    // The zone toggle sets how every recorded time reads: timeline, charts, inspector.
    connect(timeline_, &views::TimelineWidget::zoneChanged, this, [this](bool utc) {
        charts_->setWallClock(timeline_->wallStartNs(), utc);
        emit nowShown();
    });
    // Keyboard: space plays / pauses, arrows step, + / - change the speed.
    auto key = [&](QKeySequence k, auto fn) {
        auto* s = new QShortcut(k, window);
        s->setContext(Qt::WindowShortcut);
        connect(s, &QShortcut::activated, this, [this, fn] {
            if (overview_) fn();
        });
    };
    auto stepNs = [this] {
        return std::max<int64_t>(1, (clock_->endNs() - clock_->startNs()) / 200);
    };
    key(QKeySequence(Qt::Key_Space), [this] { clock_->togglePlay(); });
    key(QKeySequence(Qt::Key_Right), [this, stepNs] { clock_->step(stepNs()); });
    key(QKeySequence(Qt::Key_Left), [this, stepNs] { clock_->step(-stepNs()); });
    key(QKeySequence(Qt::Key_Plus), [this] { clock_->faster(); });
    key(QKeySequence(Qt::Key_Equal), [this] { clock_->faster(); });
    key(QKeySequence(Qt::Key_Minus), [this] { clock_->slower(); });
}

ReplayController::~ReplayController() {
    charts_->setOverview(nullptr);
}

void ReplayController::open(const QString& path, const TopologyDocument& doc) {
    // The store is opened and summarised on the reader thread; the window keeps painting.
    clock_->pause();
    QString error;
    std::shared_ptr<const RunOverview> opened = reader_->openAndWait(path, doc.topology(), &error);
    if (!opened) {
        // What was open before stays open: the reader keeps it until a new run reads well.
        if (overview_) reader_->requestFrame(clock_->nowNs());
        throw InputException({{}, 0, 0, {}, error.toStdString()});
    }
    charts_->setOverview(nullptr);
    overview_ = std::move(opened);
    frame_.reset();
    doc_ = &doc;
    clock_->setRange(0, overview_->info.endNs);
    clock_->seek(0);
    timeline_->setEvents(overview_->events);
    timeline_->setWallStartNs(overview_->info.wallStartNs);
    charts_->setWallClock(timeline_->wallStartNs(), timeline_->utc());
    charts_->setOverview(overview_);
    timelineDock_->setWindowTitle(
        tr("Timeline: %1 (%2)")
            .arg(QString::fromStdString(overview_->info.name), QFileInfo(path).fileName()));
    timelineDock_->show();
    if (chartsDock_->isHidden()) {
        chartsDock_->show();
        // The charts take most of their column: five time series need the height. Once the
        // window is laid out (the docks' sizes settle when it shows).
        QTimer::singleShot(0, chartsDock_, [dock = chartsDock_] {
            if (auto* window = qobject_cast<QMainWindow*>(dock->parentWidget()))
                window->resizeDocks({dock}, {window->height() * 3 / 5}, Qt::Vertical);
        });
    }
    controls_->showRun(tr("Run: %1").arg(QString::fromStdString(overview_->info.name)));
    reader_->requestFrame(clock_->nowNs());
}

void ReplayController::setLive(bool live) {
    timeline_->setLive(live && overview_);
    if (live && overview_) followEnd();
}

void ReplayController::refreshRun() {
    if (overview_) reader_->refresh();
}

void ReplayController::followEnd() {
    followingEnd_ = true;
    clock_->pause();
    clock_->seek(clock_->endNs());
    followingEnd_ = false;
}

void ReplayController::extend(std::shared_ptr<const RunOverview> overview) {
    if (!overview_ || !doc_) return;
    overview_ = std::move(overview);
    followingEnd_ = true; // a longer range is not the user seeking
    clock_->setRange(0, overview_->info.endNs);
    followingEnd_ = false;
    timeline_->setEvents(overview_->events);
    charts_->extendOverview(overview_);
    if (selected_.index >= 0) reader_->requestHistory(selected_);
    if (timeline_->followsNow()) followEnd();
    emit runExtended();
}

void ReplayController::close() {
    timeline_->setLive(false);
    clock_->pause();
    reader_->close();
    charts_->setOverview(nullptr);
    overview_.reset();
    frame_.reset();
    doc_ = nullptr;
    controls_->clearRun();
    view_->scene().setMarked({});
    timeline_->setWallStartNs(0);
    charts_->setWallClock(0, true);
    timelineDock_->hide();
    chartsDock_->hide();
}

void ReplayController::selectEntity(Endpoint e) {
    selected_ = e;
    if (!overview_) return;
    charts_->setEntitySeries(e, {}, {});
    reader_->requestHistory(e);
}

std::vector<std::pair<std::string, std::string>> ReplayController::selectedValues() const {
    if (!frame_ || !doc_ || selected_.index < 0) return {};
    auto values = liveValues(frame_->frame, doc_->topology(), selected_);
    values.insert(values.begin(),
                  {"time (shown)", timeline_->wallText(frame_->frame.tsNs).toStdString()});
    return values;
}

std::optional<int64_t> ReplayController::shownNs() const {
    if (!frame_) return std::nullopt;
    return frame_->frame.tsNs;
}

void ReplayController::showFrame(std::shared_ptr<const FrameResult> f) {
    if (!overview_ || !doc_) return;
    frame_ = std::move(f);
    applyFrame();
    emit nowShown();
}

void ReplayController::applyFrame() {
    if (!frame_ || !doc_ || view_->scene().metric() != views::ValueMetric::Run) return;
    view_->scene().setValues(fractionsOfCapacity(frame_->frame, doc_->topology()));
    view_->scene().setMarked(frame_->failed);
    view_->update();
}

} // namespace cs::app
