#include "ReplayController.h"

#include "FrameValues.h"
#include "HotLinksModel.h"
#include "JobsGanttWidget.h"
#include "JobsModel.h"
#include "RunCaption.h"
#include "RunChartsWidget.h"
#include "RunEventsModel.h"
#include "RunFrameShading.h"
#include "SimulationRun.h"
#include "TimelineWidget.h"
#include "ViewControls.h"
#include "VtkViewWidget.h"

#include <QAbstractItemModel>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QEventLoop>
#include <QFileInfo>
#include <QHeaderView>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMainWindow>
#include <QShortcut>
#include <QSplitter>
#include <QStatusBar>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <functional>

namespace cs::app {
namespace {
// A list of whole rows, one selected at a time; a click or Enter on a row calls `go` with it.
QTableView* rowList(QAbstractItemModel* model, const char* name, QObject* owner,
                    const std::function<void(int)>& go) {
    auto* view = new QTableView;
    view->setObjectName(name);
    view->setModel(model);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->verticalHeader()->hide();
    view->horizontalHeader()->setStretchLastSection(true);
    view->setWordWrap(false);
    view->setTextElideMode(Qt::ElideMiddle); // long ids keep both ends: "roce.pod0...ctsw2"
    QObject::connect(view, &QTableView::clicked, owner,
                     [go](const QModelIndex& index) { go(index.row()); });
    QObject::connect(view, &QTableView::activated, owner,
                     [go](const QModelIndex& index) { go(index.row()); });
    return view;
}
} // namespace

ReplayController::ReplayController(QMainWindow* window, views::VtkViewWidget* view,
                                   ViewControls* controls)
    : QObject(window), window_(window), view_(view), controls_(controls),
      clock_(new PlaybackClock(this)), reader_(new RunReaderThread(this)),
      timeline_(new views::TimelineWidget(clock_)), charts_(new views::RunChartsWidget(clock_)),
      events_(new views::RunEventsModel(this)), hotLinks_(new views::HotLinksModel(this)),
      jobs_(new views::JobsModel(this)) {
    timelineDock_ = new QDockWidget(tr("Timeline"), window);
    timelineDock_->setObjectName("timelineDock");
    timelineDock_->setWidget(timeline_);
    window->addDockWidget(Qt::BottomDockWidgetArea, timelineDock_);
    chartsDock_ = new QDockWidget(tr("Charts"), window);
    chartsDock_->setObjectName("chartsDock");
    chartsDock_->setWidget(charts_);
    window->addDockWidget(Qt::RightDockWidgetArea, chartsDock_);
    // Failures, restarts, checkpoints: a list to read and click (it seeks there).
    QTableView* eventsView =
        rowList(events_, "eventsTable", this, [this](int row) { goToEvent(row); });
    eventsView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    eventsView->horizontalHeader()->setStretchLastSection(true);
    auto* checkpoints = new QCheckBox(tr("Show checkpoints"));
    checkpoints->setObjectName("eventsCheckpoints");
    connect(checkpoints, &QCheckBox::toggled, events_, &views::RunEventsModel::setShowCheckpoints);
    auto* eventsPanel = new QWidget;
    auto* eventsLayout = new QVBoxLayout(eventsPanel);
    eventsLayout->setContentsMargins(2, 2, 2, 2);
    eventsLayout->addWidget(checkpoints);
    eventsLayout->addWidget(eventsView);
    eventsDock_ = new QDockWidget(tr("Events"), window);
    eventsDock_->setObjectName("eventsDock");
    eventsDock_->setWidget(eventsPanel);
    // Lists, tall rather than wide: beside the topology tree, which has the height.
    window->addDockWidget(Qt::LeftDockWidgetArea, eventsDock_);
    if (auto* topology = window->findChild<QDockWidget*>("topologyDock"))
        window->tabifyDockWidget(topology, eventsDock_);
    buildHotLinksDock();
    buildJobsDock();
    timelineDock_->raise();
    timelineDock_->hide();
    chartsDock_->hide();
    eventsDock_->hide();
    hotLinksDock_->hide();
    connect(clock_, &PlaybackClock::nowChanged, this, [this] {
        if (overview_) reader_->requestFrame(clock_->nowNs());
        if (jobs_->rowCount() > 0) jobsGantt_->setNow(double(clock_->nowNs()) / 1e9);
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
    connect(reader_, &RunReaderThread::jobHistoryReady, this,
            [this](int job, const Series& busy, const Series& traffic) {
                if (job != selectedJob_ || job >= jobs_->rowCount()) return;
                const RunJob& j = jobs_->job(job);
                charts_->setJobSeries(QString::fromStdString("job " + j.name), busy, traffic,
                                      std::isnan(j.endS) ? -1
                                                         : int64_t(std::llround(j.endS * 1e9)));
            });
    connect(reader_, &RunReaderThread::linkUseReady, this, [this](qint32 link, const LinkUse& use) {
        if (!overview_ || selected_.kind != EntityKind::Link || selected_.index != link) return;
        linkLines_ = linkUseLines(use, summary_);
        emit nowShown(); // the inspector lists them
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
    // Each says what it does: Help → Keyboard Shortcuts lists them from there.
    auto key = [&](QKeySequence k, const QString& does, auto fn) {
        auto* s = new QShortcut(k, window);
        s->setContext(Qt::WindowShortcut);
        s->setWhatsThis(does);
        connect(s, &QShortcut::activated, this, [this, fn] {
            if (overview_) fn();
        });
    };
    auto stepNs = [this] {
        return std::max<int64_t>(1, (clock_->endNs() - clock_->startNs()) / 200);
    };
    key(QKeySequence(Qt::Key_Space), tr("Replay: play or pause"), [this] { clock_->togglePlay(); });
    key(QKeySequence(Qt::Key_Right), tr("Replay: step forward (1/200 of the run)"),
        [this, stepNs] { clock_->step(stepNs()); });
    key(QKeySequence(Qt::Key_Left), tr("Replay: step back"),
        [this, stepNs] { clock_->step(-stepNs()); });
    key(QKeySequence(Qt::Key_Plus), tr("Replay: twice as fast"), [this] { clock_->faster(); });
    key(QKeySequence(Qt::Key_Equal), tr("Replay: twice as fast"), [this] { clock_->faster(); });
    key(QKeySequence(Qt::Key_Minus), tr("Replay: half as fast"), [this] { clock_->slower(); });
    key(QKeySequence(Qt::Key_N), tr("Replay: next event (failure, restart, checkpoint)"),
        [this] { nextEvent(true); });
    key(QKeySequence(Qt::SHIFT | Qt::Key_N), tr("Replay: previous event"),
        [this] { nextEvent(false); });
}

// The links that ran hottest over the stretch shown, by peak or by time above 80 %; a click
// selects one and flies there.
void ReplayController::buildHotLinksDock() {
    auto* panel = new QWidget;
    auto* by = new QComboBox;
    by->setObjectName("hotLinksBy");
    by->addItem(tr("By peak"));
    by->addItem(tr("By time above 80%"));
    QTableView* table =
        rowList(hotLinks_, "hotLinksTable", this, [this](int row) { goToHotLink(row); });
    table->horizontalHeader()->setStretchLastSection(false);
    table->horizontalHeader()->setSectionResizeMode(views::HotLinksModel::LinkColumn,
                                                    QHeaderView::Stretch);
    auto* layout = new QVBoxLayout(panel);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(by);
    layout->addWidget(table);
    connect(by, &QComboBox::currentIndexChanged, this, [this](int i) {
        hotBy_ = i == 0 ? HotBy::Peak : HotBy::TimeAbove;
        if (overview_) reader_->requestHottestLinks(clock_->nowNs(), 50, hotBy_);
    });
    connect(reader_, &RunReaderThread::hottestLinksReady, this,
            [this](const std::vector<LinkHeat>& links) {
                if (!doc_) return;
                hotLinks_->setLinks(links, &doc_->topology());
                if (!links.empty()) hotLinksDock_->show();
            });
    hotLinksDock_ = new QDockWidget(tr("Hottest Links"), window_);
    hotLinksDock_->setObjectName("hotLinksDock");
    hotLinksDock_->setWidget(panel);
    window_->addDockWidget(Qt::LeftDockWidgetArea, hotLinksDock_);
    window_->tabifyDockWidget(eventsDock_, hotLinksDock_);
}

void ReplayController::buildJobsDock() {
    QTableView* table = rowList(jobs_, "jobsTable", this, [this](int row) { goToJob(row); });
    table->horizontalHeader()->setStretchLastSection(false);
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // The jobs over the run's time above their list; a click on a row goes to the job too.
    jobsGantt_ = new views::JobsGanttWidget;
    connect(jobsGantt_, &views::JobsGanttWidget::jobClicked, this, [this, table](int row) {
        table->selectRow(row);
        goToJob(row);
    });
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(jobsGantt_);
    split->addWidget(table);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 2);
    jobsDock_ = new QDockWidget(tr("Jobs"), window_);
    jobsDock_->setObjectName("jobsDock");
    jobsDock_->setWidget(split);
    window_->addDockWidget(Qt::LeftDockWidgetArea, jobsDock_);
    window_->tabifyDockWidget(eventsDock_, jobsDock_);
}

void ReplayController::showJobs(std::vector<RunJob> jobs) {
    // A live recording relists its jobs: the job selected stays so while it keeps its row.
    const bool keep = selectedJob_ >= 0 && size_t(selectedJob_) < jobs.size() &&
                      selectedJob_ < jobs_->rowCount() &&
                      jobs[size_t(selectedJob_)].name == jobs_->job(selectedJob_).name;
    jobs_->setJobs(std::move(jobs));
    if (selectedJob_ >= 0 && !keep) selectJob(-1);
    if (keep) selectJob(selectedJob_); // its hosts and history as relisted
    jobsGantt_->setJobs(jobs_->jobs(),
                        overview_ ? double(overview_->info.endNs) / 1e9 : 1.0); // the run's span
}

bool ReplayController::hasJobs() const {
    return jobs_->rowCount() > 0;
}

void ReplayController::goToJob(int row) {
    if (!overview_ || row < 0 || row >= jobs_->rowCount()) return;
    const RunJob& j = jobs_->job(row);
    const double nowS = double(clock_->nowNs()) / 1e9;
    if (!j.runsAt(nowS) && !std::isnan(j.startS)) {
        clock_->pause();
        clock_->seek(int64_t(std::llround(j.startS * 1e9)));
    }
    if (!j.hosts.empty() && doc_) {
        const Topology& t = doc_->topology();
        int32_t rack = t.hosts[size_t(j.hosts.front())].rack;
        for (int32_t h : j.hosts)
            if (t.hosts[size_t(h)].rack != rack) rack = kNone;
        emit jobChosen(Endpoint{EntityKind::Host, j.hosts.front()}, rack);
    }
    selectJob(row);
}

void ReplayController::selectJob(int row) {
    selectedJob_ = row;
    charts_->setJobSeries({}, {}, {});
    if (row < 0 || row >= jobs_->rowCount() || !doc_) {
        view_->scene().setHighlighted({});
        view_->update();
        return;
    }
    const RunJob& job = jobs_->job(row);
    std::vector<int32_t> gpus = jobGpus(job, doc_->topology());
    view_->scene().setHighlighted(jobEntities(job, doc_->topology()));
    view_->update();
    // Its GPUs over the time it ran on them (held by other jobs before and after).
    const double fromS = std::isnan(job.hostsFromS) ? job.startS : job.hostsFromS;
    auto ns = [](double s, int64_t otherwise) {
        return std::isnan(s) ? otherwise : int64_t(std::llround(s * 1e9));
    };
    if (!gpus.empty())
        reader_->requestJobHistory(row, std::move(gpus), job.trafficSources, ns(fromS, 0),
                                   ns(job.endS, -1));
}

bool ReplayController::goToJobNamed(const QString& name) {
    for (int row = 0; row < jobs_->rowCount(); ++row)
        if (jobs_->job(row).name == name.toStdString()) {
            if (auto* table = jobsDock_->findChild<QTableView*>()) table->selectRow(row);
            goToJob(row);
            return true;
        }
    return false;
}

int ReplayController::selectedJob() const {
    return selectedJob_;
}

void ReplayController::goToHotLink(int row) {
    if (!overview_ || row < 0 || row >= hotLinks_->rowCount()) return;
    emit entityChosen(Endpoint{EntityKind::Link, hotLinks_->heat(row).link});
}

void ReplayController::goToEvent(int row) {
    if (!overview_ || row < 0 || row >= events_->rowCount()) return;
    const RunEvent& e = events_->event(row);
    clock_->pause();
    clock_->seek(e.tsNs);
    if (e.entity) emit entityChosen(*e.entity);
}

bool ReplayController::nextEvent(bool forward) {
    const int row =
        forward ? events_->nextAfter(clock_->nowNs()) : events_->previousBefore(clock_->nowNs());
    if (row < 0) {
        window_->statusBar()->showMessage(
            forward ? tr("No event after now") : tr("No event before now"), 4000);
        return false;
    }
    goToEvent(row);
    if (auto* view = eventsDock_->findChild<QTableView*>()) view->selectRow(row);
    return true;
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
    views::labelMissingValues(view_->scene(), overview_->info);
    clock_->setRange(0, overview_->info.endNs);
    clock_->seek(0);
    // The run's summary, read once: step parts, roles, traffic source names.
    summary_ =
        QJsonDocument::fromJson(QByteArray::fromStdString(overview_->info.summaryJson)).object();
    timeline_->setEvents(overview_->events);
    timeline_->setSteps(overview_->stepTime, stepSegmentsOf(summary_));
    events_->setEvents(overview_->events, &doc.topology());
    if (std::any_of(overview_->events.begin(), overview_->events.end(),
                    [](const RunEvent& e) { return e.kind != EventKind::Step; }))
        eventsDock_->show();
    hotLinks_->setLinks({}, nullptr);
    reader_->requestHottestLinks(0, 50, hotBy_); // the dock shows once links come back
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
        // Their column no wider than 28 % of the window: the 3D view keeps half of it.
        QTimer::singleShot(0, chartsDock_, [dock = chartsDock_] {
            if (auto* window = qobject_cast<QMainWindow*>(dock->parentWidget())) {
                window->resizeDocks({dock}, {window->height() * 3 / 5}, Qt::Vertical);
                if (dock->width() > window->width() * 28 / 100)
                    window->resizeDocks({dock}, {window->width() * 28 / 100}, Qt::Horizontal);
            }
        });
    }
    roles_ = GpuRoles::ofSummary(doc.topology(), doc.index(), summary_);
    findGantt();
    selectJob(-1); // another run: its jobs are not the last one's
    showJobs(runJobsOf(summary_, doc.topology(), doc.index()));
    jobsGantt_->setNow(0.0);
    if (jobs_->rowCount() > 0) {
        jobsDock_->show();
        jobsDock_->raise();
    } else {
        jobsDock_->hide();
    }
    controls_->showRun(tr("Run: %1").arg(QString::fromStdString(overview_->info.name)),
                       overview_->metrics, roles_.has_value(), jobs_->rowCount() > 0);
    reader_->requestFrame(clock_->nowNs());
    linkLines_.clear();
    if (selected_.kind == EntityKind::Link && selected_.index >= 0)
        reader_->requestLinkUse(selected_.index, clock_->nowNs());
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
    events_->setEvents(overview_->events, &doc_->topology());
    charts_->extendOverview(overview_);
    // A live recording's summary lists the jobs its latest poll saw.
    summary_ =
        QJsonDocument::fromJson(QByteArray::fromStdString(overview_->info.summaryJson)).object();
    if (std::vector<RunJob> jobs = runJobsOf(summary_, doc_->topology(), doc_->index());
        !jobs.empty()) {
        showJobs(std::move(jobs));
        jobsDock_->show();
    }
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
    events_->setEvents({}, nullptr);
    timeline_->setSteps({}, {});
    hotLinks_->setLinks({}, nullptr);
    hotLinksDock_->hide();
    showJobs({});
    jobsGantt_->setNow(std::nullopt);
    jobsDock_->hide();
    linkLines_.clear();
    roles_.reset();
    gantt_.reset();
    summary_ = {};
    timelineDock_->hide();
    chartsDock_->hide();
    eventsDock_->hide();
}

void ReplayController::findGantt() {
    gantt_.reset();
    if (!roles_ || selected_.kind != EntityKind::Gpu) return;
    if (const auto coord = roles_->of(selected_.index))
        if (auto g = stageGanttOf(summary_, coord->p))
            gantt_ = std::make_shared<const StageGantt>(std::move(*g));
}

std::optional<double> ReplayController::shownStepPhase() const {
    if (!overview_ || !frame_) return std::nullopt;
    return stepPhaseAt(overview_->stepTime, frame_->frame.tsNs);
}

void ReplayController::selectEntity(Endpoint e) {
    const bool sameStage = roles_ && e.kind == EntityKind::Gpu &&
                           selected_.kind == EntityKind::Gpu && roles_->of(e.index) &&
                           roles_->of(selected_.index) &&
                           roles_->of(e.index)->p == roles_->of(selected_.index)->p;
    selected_ = e;
    if (selectedJob_ >= 0) selectJob(-1); // a job chosen in the Jobs dock selects it after
    if (!sameStage) findGantt();          // GPUs of one stage share its Gantt
    if (!overview_) return;
    charts_->setEntitySeries(e, {}, {});
    reader_->requestHistory(e);
    linkLines_.clear();
    if (e.kind == EntityKind::Link) reader_->requestLinkUse(e.index, clock_->nowNs());
}

std::vector<std::pair<std::string, std::string>> ReplayController::selectedValues() const {
    if (!frame_ || !doc_ || selected_.index < 0) return {};
    auto values = liveValues(frame_->frame, doc_->topology(), selected_);
    values.insert(values.begin(),
                  {"time (shown)", timeline_->wallText(frame_->frame.tsNs).toStdString()});
    values.insert(values.end(), linkLines_.begin(), linkLines_.end());
    if (roles_ && selected_.kind == EntityKind::Gpu) { // its ranks and its stage's step
        const auto roles = roles_->lines(selected_.index);
        values.insert(values.end(), roles.begin(), roles.end());
    }
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
    const views::ViewState shown = view_->scene().state();
    if (shown.role == views::GpuRole::Job && jobs_->rowCount() > 0) { // GPUs by the job on them
        FrameValues byJob;
        byJob.gpu =
            jobFractionsAt(jobs_->jobs(), doc_->topology(), double(frame_->frame.tsNs) / 1e9);
        byJob.link.assign(doc_->topology().links.size(), std::nanf(""));
        byJob.storage.assign(doc_->topology().storage.size(), std::nanf(""));
        view_->scene().setRoleCount(jobs_->rowCount());
        view_->scene().setValues(std::move(byJob));
        view_->scene().setMarked(frame_->failed);
        view_->scene().setFlagged({});
        view_->update();
        return;
    }
    if (shown.role != views::GpuRole::None && shown.role != views::GpuRole::Job &&
        roles_) { // GPUs by their place in the job
        const auto axis = shown.role == views::GpuRole::Stage       ? GpuRoles::Axis::Stage
                          : shown.role == views::GpuRole::DpReplica ? GpuRoles::Axis::DpReplica
                                                                    : GpuRoles::Axis::TpRank;
        FrameValues byRole;
        byRole.gpu = roles_->fractions(axis);
        byRole.link.assign(doc_->topology().links.size(), std::nanf(""));
        byRole.storage.assign(doc_->topology().storage.size(), std::nanf(""));
        view_->scene().setRoleCount(roles_->count(axis));
        view_->scene().setValues(std::move(byRole));
        view_->scene().setMarked(frame_->failed);
        view_->scene().setFlagged({});
        view_->update();
        return;
    }
    views::showRunFrame(view_->scene(), doc_->topology(), frame_->frame, shown.gpuMetric,
                        frame_->failed);
    view_->update();
}

QString ReplayController::caption() const {
    if (!overview_) return {};
    return QString::fromStdString(runCaption(overview_->stepTime, overview_->mfu, clock_->nowNs()));
}

} // namespace cs::app
