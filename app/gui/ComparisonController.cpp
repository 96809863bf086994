#include "ComparisonController.h"

#include "ComparisonTableModel.h"
#include "DesignFiguresOf.h"
#include "PlaybackClock.h"
#include "ReplayController.h"
#include "RunChartsWidget.h"
#include "RunFrameShading.h"
#include "RunTopology.h"
#include "ViewControls.h"
#include "VtkViewWidget.h"

#include <QDockWidget>
#include <QFileInfo>
#include <QHeaderView>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMainWindow>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace cs::app {

ComparisonController::ComparisonController(QMainWindow* window, QSplitter* split,
                                           views::VtkViewWidget* viewA, ReplayController* replay,
                                           ViewControls* controls)
    : QObject(window), window_(window), split_(split), viewA_(viewA), replay_(replay),
      controls_(controls), reader_(new RunReaderThread(this)),
      table_(new views::ComparisonTableModel(this)) {
    auto* panel = new QWidget;
    auto* column = new QVBoxLayout(panel);
    column->setContentsMargins(2, 2, 2, 2);
    names_ = new QLabel;
    names_->setObjectName("comparisonNames");
    names_->setWordWrap(true);
    names_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    column->addWidget(names_);
    auto* tableView = new QTableView;
    tableView->setObjectName("comparisonTable");
    tableView->setModel(table_);
    tableView->verticalHeader()->hide();
    tableView->setSelectionBehavior(QAbstractItemView::SelectRows);
    tableView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    tableView->horizontalHeader()->setStretchLastSection(true);
    tableDock_ = new QDockWidget(tr("Comparison"), window);
    tableDock_->setObjectName("comparisonDock");
    column->addWidget(tableView, 1);
    tableDock_->setWidget(panel);
    tableDock_->hide(); // placed beside the inspector when a comparison first opens

    connect(replay_->clock(), &PlaybackClock::nowChanged, this, [this](qint64 nowNs) {
        if (overviewB_) reader_->requestFrame(std::min<int64_t>(nowNs, overviewB_->info.endNs));
    });
    connect(reader_, &RunReaderThread::frameReady, this, &ComparisonController::showFrameB);
    connect(replay_, &ReplayController::nowShown, this, &ComparisonController::showDifference);
    connect(viewA_, &views::VtkViewWidget::stateChanged, this, [this] {
        followState();
        showDifference();
    });
    connect(viewA_, &views::VtkViewWidget::cameraMoved, this,
            [this] { followCamera(viewA_, viewB_); });
}

ComparisonController::~ComparisonController() {
    close();
}

void ComparisonController::open(const TopologyDocument& docA, const QString& runPathA,
                                const QString& runPathB, std::unique_ptr<TopologyDocument> docB,
                                bool secondIsBaseline) {
    close();
    if (!replay_->overview())
        throw InputException({{},
                              0,
                              0,
                              {},
                              "open or simulate a run first: a comparison "
                              "sets a second run beside it"});
    QString error;
    std::shared_ptr<const RunOverview> opened =
        reader_->openAndWait(runPathB, docB->topology(), &error);
    if (!opened) throw InputException({{}, 0, 0, {}, error.toStdString()});
    docA_ = &docA;
    docB_ = std::move(docB);
    runPathB_ = runPathB;
    secondIsBaseline_ = secondIsBaseline;
    overviewB_ = std::move(opened);
    match_ = matchEntities(docA.topology(), docB_->topology());

    viewB_ = new views::VtkViewWidget;
    viewB_->setObjectName("comparisonView");
    viewB_->scene().setDocument(docB_.get(), viewA_->scene().layoutKind());
    views::labelMissingValues(viewB_->scene(), overviewB_->info);
    split_->insertWidget(secondIsBaseline ? 0 : 1, viewB_); // A on the left
    const int half = std::max(1, split_->width() / 2);
    split_->setSizes({half, half});
    connect(viewB_, &views::VtkViewWidget::cameraMoved, this,
            [this] { followCamera(viewB_, viewA_); });
    followState();

    // The runs as the table and its caption take them: A first.
    struct Side {
        const RunInfo* info;
        const TopologyDocument* doc;
        QString path;
    };
    Side first{&replay_->overview()->info, &docA, runPathA};
    Side second{&overviewB_->info, docB_.get(), runPathB};
    if (secondIsBaseline) std::swap(first, second);
    auto summary = [](const RunInfo& i) {
        return QJsonDocument::fromJson(QByteArray::fromStdString(i.summaryJson)).object();
    };
    table_->setComparison(compareRuns(first.info->name, summary(*first.info), second.info->name,
                                      summary(*second.info), designFiguresOf(*first.doc),
                                      designFiguresOf(*second.doc)));
    names_->setText(
        tr("A (left): %1, %2\nB (right): %3, %4")
            .arg(QString::fromStdString(first.info->name), QFileInfo(first.path).fileName(),
                 QString::fromStdString(second.info->name), QFileInfo(second.path).fileName()));
    replay_->charts()->setComparison(overviewB_, secondIsBaseline ? tr("A") : tr("B"));
    controls_->showComparison();
    // Beside the inspector, as a tab: the table needs the column's height, the charts keep
    // theirs.
    if (window_->dockWidgetArea(tableDock_) == Qt::NoDockWidgetArea) {
        window_->addDockWidget(Qt::RightDockWidgetArea, tableDock_);
        if (auto* inspector = window_->findChild<QDockWidget*>("inspectorDock"))
            window_->tabifyDockWidget(inspector, tableDock_);
    }
    tableDock_->show();
    // The two views take at least 60 % of the window: the left column's docks (topology,
    // design, hottest links...) collapse to tabs beside the table, which keeps its four
    // columns of figures where the window is wide enough (else scrolls). View > Docks and
    // dragging put them back.
    if (auto* inspector = window_->findChild<QDockWidget*>("inspectorDock"))
        for (QDockWidget* d : window_->findChildren<QDockWidget*>())
            if (window_->dockWidgetArea(d) == Qt::LeftDockWidgetArea && !d->isFloating()) {
                window_->addDockWidget(Qt::RightDockWidgetArea, d);
                window_->tabifyDockWidget(inspector, d);
            }
    window_->resizeDocks({tableDock_}, {std::min(480, window_->width() * 36 / 100)},
                         Qt::Horizontal);
    QTimer::singleShot(0, tableDock_, &QDockWidget::raise); // the tab in front, once shown
    reader_->requestFrame(std::min<int64_t>(replay_->clock()->nowNs(), overviewB_->info.endNs));
    // Each view now has half the width (the splitter resized the first at once): both show
    // their whole cluster again. A session then puts its own camera.
    viewA_->scene().viewOverview();
    viewA_->update();
    if (linked_)
        followCamera(viewA_, viewB_);
    else
        viewB_->scene().viewOverview();
}

void ComparisonController::close() {
    if (!docB_) return;
    reader_->close();
    replay_->charts()->setComparison(nullptr);
    controls_->clearComparison();
    tableDock_->hide();
    table_->setComparison({});
    if (viewB_) {
        viewB_->scene().setDocument(nullptr); // the view holds the document: it goes first
        delete viewB_.data();
    }
    docB_.reset();
    docA_ = nullptr;
    overviewB_.reset();
    frameB_.reset();
    runPathB_.clear();
    secondIsBaseline_ = false;
    emit closed();
}

void ComparisonController::setCamerasLinked(bool linked) {
    linked_ = linked;
    followCamera(viewA_, viewB_); // linking puts B where A looks
}

const RunComparison& ComparisonController::comparison() const {
    return table_->comparison();
}

std::optional<int64_t> ComparisonController::shownNsB() const {
    if (!frameB_) return std::nullopt;
    return frameB_->frame.tsNs;
}

void ComparisonController::showFrameB(std::shared_ptr<const FrameResult> f) {
    if (!docB_) return;
    frameB_ = std::move(f);
    // As view A shows its run: failures outlined, outliers flagged (by busy).
    views::showRunFrame(viewB_->scene(), docB_->topology(), frameB_->frame, Metric::GpuBusy,
                        frameB_->failed);
    viewB_->update();
    showDifference();
    emit frameShownB();
}

void ComparisonController::followState() {
    if (!viewB_) return;
    const views::ViewState a = viewA_->state();
    views::ViewState b = views::coloredBy(viewB_->state(), views::ValueMetric::Run);
    b.layout = a.layout;
    b.aggregate = a.aggregate;
    b.labels = a.labels;
    b.camera.reset();        // a new layout is framed whole, unless the cameras are linked
    followingCamera_ = true; // B's own framing must not move A
    viewB_->applyState(b);
    if (linked_) viewB_->setCameraPose(viewA_->cameraPose());
    followingCamera_ = false;
}

void ComparisonController::showDifference() {
    if (!docB_ || !frameB_ || viewA_->scene().metric() != views::ValueMetric::Difference) return;
    const FrameResult* a = replay_->shownFrame();
    if (!a) return;
    // The window's view minus the second, on the window's entities: A - B, or B - A when the
    // second view holds the baseline, turned round to read A - B as the colour box says.
    FrameValues difference = frameDifference(
        docA_->topology(), fractionsOfCapacity(a->frame, docA_->topology()), docB_->topology(),
        fractionsOfCapacity(frameB_->frame, docB_->topology()), match_);
    if (secondIsBaseline_)
        for (std::vector<float>* v : {&difference.gpu, &difference.link, &difference.storage})
            for (float& d : *v)
                d = -d; // NaN stays NaN
    viewA_->scene().setValues(std::move(difference));
    viewA_->update();
}

void ComparisonController::followCamera(views::VtkViewWidget* from, views::VtkViewWidget* to) {
    if (!linked_ || followingCamera_ || !to || !from) return;
    followingCamera_ = true;
    to->setCameraPose(from->cameraPose());
    followingCamera_ = false;
}

} // namespace cs::app
