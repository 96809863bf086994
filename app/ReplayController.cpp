#include "ReplayController.h"

#include "RunChartsWidget.h"
#include "RunFrames.h"
#include "TimelineWidget.h"
#include "ViewControls.h"
#include "VtkViewWidget.h"

#include <QDockWidget>
#include <QFileInfo>
#include <QMainWindow>
#include <QShortcut>

namespace cs::app {

ReplayController::ReplayController(QMainWindow* window, views::VtkViewWidget* view,
                                   ViewControls* controls)
    : QObject(window), window_(window), view_(view), controls_(controls),
      clock_(new PlaybackClock(this)), timeline_(new views::TimelineWidget(clock_)),
      charts_(new views::RunChartsWidget(clock_)) {
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
    connect(clock_, &PlaybackClock::nowChanged, this, &ReplayController::showNow);
    // Keyboard: space plays / pauses, arrows step, + / - change the speed.
    auto key = [&](QKeySequence k, auto fn) {
        auto* s = new QShortcut(k, window);
        s->setContext(Qt::WindowShortcut);
        connect(s, &QShortcut::activated, this, [this, fn] {
            if (replay_) fn();
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
    charts_->setReplay(nullptr);
}

void ReplayController::open(const QString& path, const TopologyDocument& doc) {
    auto replay = std::make_unique<RunReplay>(path, doc.topology());
    clock_->pause();
    charts_->setReplay(nullptr);
    replay_ = std::move(replay);
    doc_ = &doc;
    clock_->setRange(replay_->startNs(), replay_->endNs());
    clock_->seek(replay_->startNs());
    timeline_->setEvents(replay_->events());
    charts_->setReplay(replay_.get());
    timelineDock_->setWindowTitle(tr("Timeline: %1").arg(QFileInfo(path).fileName()));
    timelineDock_->show();
    chartsDock_->show();
    showNow();
}

void ReplayController::close() {
    clock_->pause();
    charts_->setReplay(nullptr);
    replay_.reset();
    doc_ = nullptr;
    timelineDock_->hide();
    chartsDock_->hide();
}

void ReplayController::selectEntity(Endpoint e) {
    selected_ = e;
    if (replay_) charts_->showEntity(e);
}

std::vector<Endpoint> failedAt(const std::vector<RunStore::Event>& events, int64_t nowNs) {
    // A failure stays marked until the next restart after it.
    std::vector<Endpoint> out;
    for (size_t i = 0; i < events.size() && events[i].tsNs <= nowNs; ++i) {
        const RunStore::Event& e = events[i];
        if (e.kind != "failure") continue;
        bool restarted = false;
        for (size_t j = i + 1; j < events.size() && events[j].tsNs <= nowNs && !restarted; ++j)
            restarted = events[j].kind == "restart";
        if (restarted) continue;
        for (int k = 0; k < 10; ++k)
            if (e.entityKind == toString(EntityKind(k)))
                out.push_back({EntityKind(k), int32_t(e.entity)});
    }
    return out;
}

std::vector<std::pair<std::string, std::string>> ReplayController::selectedValues() const {
    if (!replay_ || selected_.index < 0) return {};
    return replay_->valuesAt(selected_, clock_->nowNs());
}

void ReplayController::showNow() {
    if (!replay_ || !doc_) return;
    const FrameValues v =
        frameOfRun(replay_->store(), replay_->run(), doc_->topology(), clock_->nowNs());
    controls_->showRunFrame(v, tr("Run replay"));
    view_->scene().setMarked(failedAt(replay_->events(), clock_->nowNs()));
    view_->update();
    emit nowShown();
}

} // namespace cs::app
