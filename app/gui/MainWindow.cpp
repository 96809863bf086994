#include "MainWindow.h"
#include "MediaExportDialog.h"

#include "PrometheusImportDialog.h"

#include "AboutDialog.h"
#include "CollectivesDock.h"
#include "ComparisonController.h"
#include "DefaultRun.h"
#include "DesignDock.h"
#include "FabricFaults.h"
#include "HelpMenu.h"
#include "InspectorWidget.h"
#include "LiveRecording.h"
#include "PresentationMode.h"
#include "Presets.h"
#include "ReplayController.h"
#include "RunSpecJson.h"
#include "SelectionSync.h"
#include "SimulationDialog.h"
#include "SiteGenerator.h"
#include "StepBreakdownChart.h"
#include "StudyLinks.h"
#include "SummaryPanel.h"
#include "TelemetryImportDialog.h"
#include "TopologyFile.h"
#include "TopologySource.h"
#include "TopologyTreeModel.h"
#include "ViewControls.h"
#include "ViewExports.h"
#include "VtkViewWidget.h"
#include "WindowLayout.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDesktopServices>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QInputDialog>
#include <QKeyEvent>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QScrollBar>
#include <QSplitter>
#include <QStatusBar>
#include <QTimer>
#include <QTreeView>

#include <algorithm>

namespace cs::app {
namespace {
// The name of a topology regenerated from an edited design: "meta-roce-24k (edited)".
std::string editedName(const std::string& name) {
    const std::string mark = " (edited)";
    return name.size() >= mark.size() &&
                   name.compare(name.size() - mark.size(), mark.size(), mark) == 0
               ? name
               : name + mark;
}
} // namespace

MainWindow::MainWindow()
    : tree_(new QTreeView), treeModel_(new views::TopologyTreeModel(this)),
      inspector_(new views::InspectorWidget), summary_(new QPlainTextEdit),
      stepChart_(new views::StepBreakdownChart), view_(new views::VtkViewWidget),
      split_(new QSplitter), designDock_(new DesignDock), collectives_(new CollectivesDock) {
    setWindowTitle(tr("ClusterScope"));
    resize(1500, 900);
    view_->setObjectName("clusterView");
    split_->setObjectName("viewSplit");
    split_->addWidget(view_);
    setCentralWidget(split_);

    tree_->setModel(treeModel_);
    tree_->setUniformRowHeights(true); // cheap layout for thousands of rows
    tree_->setObjectName("topologyTree");
    tree_->header()->setStretchLastSection(false);
    tree_->header()->setSectionResizeMode(views::TopologyTreeModel::NameColumn,
                                          QHeaderView::Stretch);
    tree_->header()->setSectionResizeMode(views::TopologyTreeModel::KindColumn,
                                          QHeaderView::ResizeToContents);
    tree_->header()->setSectionResizeMode(views::TopologyTreeModel::GpusColumn,
                                          QHeaderView::ResizeToContents);
    auto* treeDock = new QDockWidget(tr("Topology"), this);
    treeDock->setObjectName("topologyDock");
    treeDock->setWidget(tree_);
    addDockWidget(Qt::LeftDockWidgetArea, treeDock);

    auto* inspectorDock = new QDockWidget(tr("Inspector"), this);
    inspectorDock->setObjectName("inspectorDock");
    inspectorDock->setWidget(inspector_);
    addDockWidget(Qt::RightDockWidgetArea, inspectorDock);
    summary_->setReadOnly(true);
    summary_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    summary_->setObjectName("summary");
    summary_->setLineWrapMode(QPlainTextEdit::NoWrap);
    summaryPanel_ = new SummaryPanel(summary_, this);
    connect(summaryPanel_, &SummaryPanel::textChanged, this, &MainWindow::fitSummaryWidth);
    auto* summaryDock = new QDockWidget(tr("Summary"), this);
    summaryDock->setObjectName("summaryDock");
    summaryDock->setWidget(summary_);
    addDockWidget(Qt::RightDockWidgetArea, summaryDock);
    tabifyDockWidget(inspectorDock, summaryDock);
    auto* stepDock = new QDockWidget(tr("Step Breakdown"), this);
    stepDock->setObjectName("stepBreakdownDock");
    stepDock->setWidget(stepChart_);
    addDockWidget(Qt::RightDockWidgetArea, stepDock);
    tabifyDockWidget(summaryDock, stepDock);
    auto* collectivesDock = new QDockWidget(tr("Collectives"), this);
    collectivesDock->setObjectName("collectivesDock");
    collectivesDock->setWidget(collectives_);
    addDockWidget(Qt::RightDockWidgetArea, collectivesDock);
    tabifyDockWidget(stepDock, collectivesDock);
    auto* designDock = new QDockWidget(tr("Design"), this);
    designDock->setObjectName("designDock");
    designDock->setWidget(designDock_);
    addDockWidget(Qt::LeftDockWidgetArea, designDock);
    tabifyDockWidget(treeDock, designDock);
    treeDock->raise();
    connect(designDock_, &DesignDock::designChanged, this, &MainWindow::applyDesign);
    connect(designDock_, &DesignDock::simulateRequested, this, [this] { simulateOnDesign(); });
    connect(designDock_, &DesignDock::saveRequested, this, [this] {
        if (!doc_ || !doc_->params()) return;
        DesignSaveDialog d({QString::fromStdString(doc_->topology().name),
                            QString::fromStdString(doc_->topology().description)},
                           this);
        if (d.exec() != QDialog::Accepted) return;
        if (const std::optional<DesignIdentity> id = d.identity()) saveDesign(d.path(), true, id);
    });
    inspectorDock->raise();
    // The 3D view keeps at least half the window at start.
    resizeDocks({treeDock, inspectorDock}, {260, 380}, Qt::Horizontal);
    // The Summary's tables do not wrap: shown, it widens to its longest line.
    connect(summaryDock, &QDockWidget::visibilityChanged, this, [this](bool shown) {
        if (shown) QTimer::singleShot(0, this, [this] { fitSummaryWidth(); });
    });

    buildMenus();
    controls_ = new ViewControls(this, view_);
    exports_ = std::make_unique<ViewExports>(this, view_);
    presentation_ = new PresentationMode(this, controls_, [this] {
        return doc_ ? QString::fromStdString(doc_->topology().name) : QString();
    });
    connect(presentation_, &PresentationMode::presentingChanged, this, [this] { updateCaption(); });
    replay_ = new ReplayController(this, view_, controls_);
    studies_ = new StudyLinks(this);
    selection_ = new SelectionSync(
        tree_, treeModel_, inspector_, view_, replay_,
        [this] {
            if (presenting()) QTimer::singleShot(0, this, [this] { updateCaption(); });
        },
        this);
    compare_ = new ComparisonController(this, split_, view_, replay_, controls_);
    // The second design goes with the comparison: the Collectives dock must not keep it.
    connect(compare_, &ComparisonController::closed, this,
            [this] { collectives_->setDesigns(doc_.get(), nullptr); });
    treeDock->raise(); // the replay's lists joined its tabs: the tree stays in front
    // An event's entity or a hot link, chosen in their docks: selected and flown to.
    connect(replay_, &ReplayController::entityChosen, this, [this](Endpoint e) {
        selection_->show(e, false);
        view_->scene().select(PickHit{e, kNone, 0});
        view_->flyTo([this, e] { view_->scene().viewEntity(e); });
    });
    connect(replay_, &ReplayController::jobChosen, this, [this](Endpoint host, qint32 rack) {
        selection_->show(host, false);
        view_->scene().select(PickHit{host, kNone, 0});
        view_->flyTo([this, rack] {
            if (rack == kNone || !view_->scene().viewRack(rack)) view_->scene().viewOverview();
        });
    });
    connect(replay_, &ReplayController::nowShown, this, [this] {
        selection_->showReplayValues();
        updateCaption(); // the run's step and MFU as it plays
    });
    // Presentation: on the window itself, so F11 works while the menus are hidden.
    auto* present = new QAction(tr("&Presentation Mode"), this);
    present->setShortcut(QKeySequence(Qt::Key_F11));
    present->setShortcutContext(Qt::WindowShortcut);
    addAction(present);
    connect(present, &QAction::triggered, this, [this] { setPresenting(!presenting()); });
    auto* tour = new QAction(tr("Camera &Tour Through Bookmarks"), this);
    connect(tour, &QAction::triggered, this, [this] {
        bool ok = false;
        const int seconds = QInputDialog::getInt(
            this, tr("Camera Tour"), tr("Seconds at each bookmark:"), 6, 1, 600, 1, &ok);
        if (ok && !startTour(seconds * 1000))
            statusBar()->showMessage(
                tr("No camera bookmarks for this topology: save some under View > Camera first"),
                8000);
    });
    if (auto* viewMenu = menuBar()->findChild<QMenu*>("viewMenu")) {
        viewMenu->addSeparator();
        viewMenu->addAction(tr("Co&mpare With Run..."), this, [this] {
            const QString path =
                QFileDialog::getOpenFileName(this, tr("Compare With Run"), {},
                                             tr("ClusterScope runs (*.sqlite);;All files (*)"));
            if (!path.isEmpty()) compareWith(path);
        });
        QAction* link = viewMenu->addAction(tr("&Link Cameras"));
        link->setObjectName("linkCamerasAction");
        link->setCheckable(true);
        link->setChecked(compare_->camerasLinked());
        connect(link, &QAction::toggled, compare_, &ComparisonController::setCamerasLinked);
        viewMenu->addAction(tr("Close Comparison"), compare_, &ComparisonController::close);
        viewMenu->addSeparator();
        viewMenu->addAction(present);
        viewMenu->addAction(tour);
        // Every dock by name: a closed one comes back from here, not only from the toolbar's
        // context menu.
        viewMenu->addSeparator();
        QMenu* docks = viewMenu->addMenu(tr("&Docks"));
        docks->setObjectName("docksMenu");
        QList<QDockWidget*> all = findChildren<QDockWidget*>();
        std::sort(all.begin(), all.end(), [](QDockWidget* a, QDockWidget* b) {
            return a->windowTitle().localeAwareCompare(b->windowTitle()) < 0;
        });
        for (QDockWidget* d : all)
            docks->addAction(d->toggleViewAction());
    }
    connect(tree_, &QTreeView::activated, this, [this](const QModelIndex& i) {
        const Endpoint e = views::TopologyTreeModel::entityOf(i);
        view_->flyTo([this, e] { view_->scene().viewEntity(e); });
    });
    connect(view_, &views::VtkViewWidget::picked, this,
            [this](Endpoint e, int) { selection_->show(e, false); });
    connect(view_, &views::VtkViewWidget::pickedNothing, this, [this] {
        inspector_->showEntity({EntityKind::Cluster, kNone});
    });
    connect(controls_, &ViewControls::entityFound, this,
            [this](Endpoint e) { selection_->show(e, false); });
}

bool MainWindow::selectById(const QString& id) {
    return selection_->selectById(doc_.get(), id);
}

StudyWindow* MainWindow::openStudy(const QString& path, bool showErrors) {
    return studies_->open(path, showErrors);
}

void MainWindow::showDesignOf(std::unique_ptr<TopologyDocument> next, const QString& note) {
    adoptDocument(std::move(next), {});
    designRun_.clear();
    designDock_->setDesign(doc_->params(), doc_->topology().name);
    designDock_->showFigures(doc_->stats());
    addSummaryNote(note);
}

MainWindow::~MainWindow() {
    summaryPanel_->finishBillOfMaterials();
    compare_->close(); // its views and reader go before the documents
    // The replay's reader may be reading (the hottest links of a 262K-GPU site take seconds):
    // it finishes and lets go of the topology before the document goes.
    replay_->close();
    delete background_; // simulating on the document: cancel and wait before it goes
    live_.reset();      // recording on the document: wait for a poll in flight
    // Views hold raw pointers into the document: detach them before it goes.
    treeModel_->setDocument(nullptr);
    inspector_->setDocument(nullptr);
    controls_->setDocument(nullptr);
}

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open..."), QKeySequence::Open, this, &MainWindow::openFileDialog);
    file->addAction(tr("Open &Preset..."), QKeySequence(tr("Ctrl+Shift+O")), this,
                    &MainWindow::openPresetDialog);
    recentMenu_ = file->addMenu(tr("Open &Recent"));
    file->addAction(tr("&Export Topology..."), QKeySequence(tr("Ctrl+E")), this,
                    &MainWindow::exportDialog);
    file->addAction(tr("Open R&un..."), QKeySequence(tr("Ctrl+Shift+R")), this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Open Run"), {}, tr("ClusterScope runs (*.sqlite);;All files (*)"));
        if (!path.isEmpty()) openRunWithItsTopology(path); // the run on its own design
    });
    file->addAction(tr("Save Run &As..."), this, [this] {
        if (runPath_.isEmpty()) {
            QMessageBox::information(this, tr("Save Run As"), tr("No run is open."));
            return;
        }
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Save Run As"), QDir(runsFolder()).filePath(QFileInfo(runPath_).fileName()),
            tr("ClusterScope runs (*.sqlite)"));
        if (!path.isEmpty()) saveRunAs(path);
    });
    file->addAction(tr("Open Run &Description..."), this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Open Run Description"), {},
            tr("ClusterScope run descriptions (*.json);;All files (*)"));
        if (!path.isEmpty()) openRunDescription(path);
    });
    file->addAction(tr("Open Stud&y..."), this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Open Study"), {}, tr("ClusterScope study results (*.sqlite);;All files (*)"));
        if (!path.isEmpty()) openStudy(path);
    });
    file->addAction(tr("Import &Telemetry..."), this, [this] {
        if (!document()) return;
        TelemetryImportDialog dialog(*document(), this);
        if (dialog.exec() == QDialog::Accepted) keepImport(dialog);
    });
    file->addAction(tr("Import &nccl-tests Log..."), this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Import nccl-tests Log"), {}, tr("nccl-tests output (*.txt *.log);;All (*)"));
        if (!path.isEmpty()) importNcclTestsLog(path);
    });
    file->addAction(tr("Import from &Prometheus..."), this, [this] {
        if (!document()) return;
        PrometheusImportDialog dialog(this);
        if (dialog.exec() != QDialog::Accepted) return;
        const auto query = dialog.query();
        if (!query) return;
        if (dialog.live())
            startLive(*query, dialog.storePath());
        else if (importPrometheusWithProgress(this, *document(), *query, dialog.storePath()))
            openRun(dialog.storePath());
    });
    stopLive_ = file->addAction(tr("S&top Live Recording"), this, &MainWindow::stopLive);
    stopLive_->setEnabled(false);
    file->addSeparator();
    file->addAction(tr("Open Sess&ion..."), this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Open Session"), {}, tr("ClusterScope sessions (*.clusterscope)"));
        if (!path.isEmpty()) openSession(path);
    });
    file->addAction(tr("Sa&ve Session..."), QKeySequence::Save, this, [this] {
        if (!doc_) return;
        QString path = QFileDialog::getSaveFileName(this, tr("Save Session"),
                                                    QString::fromStdString(doc_->topology().name) +
                                                        "." + kSessionSuffix,
                                                    tr("ClusterScope sessions (*.clusterscope)"));
        if (path.isEmpty()) return;
        if (!path.endsWith(QString(".") + kSessionSuffix)) path += QString(".") + kSessionSuffix;
        saveSession(path);
    });
    file->addSeparator();
    file->addAction(tr("Save Scree&nshot..."), QKeySequence(tr("Ctrl+Shift+S")), this, [this] {
        if (!doc_) return;
        MediaExportDialog dialog(view_->size() * view_->devicePixelRatio(), -1, this);
        if (dialog.exec() != QDialog::Accepted) return;
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Save Screenshot"), QString::fromStdString(doc_->topology().name) + ".png",
            tr("PNG pictures (*.png)"));
        if (!path.isEmpty()) saveScreenshot(path, dialog.pictureSize());
    });
    file->addAction(tr("Export Scene as &glTF..."), this, [this] {
        if (!doc_) return;
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Export Scene"), QString::fromStdString(doc_->topology().name) + ".gltf",
            tr("glTF 2.0 scenes (*.gltf)"));
        if (!path.isEmpty()) exportScene(path);
    });
    file->addAction(tr("Export &Movie..."), this, [this] {
        if (!doc_ || runPath_.isEmpty()) {
            QMessageBox::information(this, tr("Export Movie"),
                                     tr("Open or simulate a run first: a movie replays one."));
            return;
        }
        MediaExportDialog dialog(view_->size() * view_->devicePixelRatio(),
                                 replay_->overview()->info.endNs, this);
        if (dialog.exec() != QDialog::Accepted) return;
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Export Movie"), QString::fromStdString(doc_->topology().name) + ".mp4",
            tr("MP4 movies, H.264 (*.mp4);;WebM movies, VP9 (*.webm)"));
        if (path.isEmpty()) return;
        views::MovieRequest r;
        r.out = path;
        r.size = dialog.pictureSize();
        r.fps = dialog.fps();
        r.speed = dialog.speed();
        const auto range = dialog.range(nullptr);
        if (!range) return;
        std::tie(r.fromNs, r.toNs) = *range;
        exportMovie(r);
    });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, qApp, &QApplication::closeAllWindows);
    QMenu* run = menuBar()->addMenu(tr("&Run"));
    run->addAction(tr("&Simulate Training..."), QKeySequence(tr("Ctrl+R")), this,
                   &MainWindow::simulateDialog);
    run->addAction(tr("Simulate Cluster &Workload..."), QKeySequence(tr("Ctrl+Alt+R")), this,
                   &MainWindow::simulateClusterDialog);
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Keyboard Shortcuts"), this, [this] { showShortcutsDialog(this); });
    help->addAction(tr("&User Guide"), this, [this] {
        const QString path = userGuidePath();
        if (path.isEmpty() || !QDesktopServices::openUrl(QUrl::fromLocalFile(path)))
            statusBar()->showMessage(
                tr("The user guide (docs/user/README.md) is not installed here"), 6000);
    });
    help->addSeparator();
    help->addAction(tr("&About ClusterScope"), this, [this] { showAboutDialog(this); });
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu() {
    recentMenu_->clear();
    const QStringList list = recent_.list();
    for (const QString& s : list) {
        if (s.startsWith(kRunDescriptionPrefix)) {
            const QString path = s.mid(kRunDescriptionPrefix.size());
            recentMenu_->addAction(tr("Run description: %1").arg(path), this,
                                   [this, path] { openRunDescription(path); });
        } else if (s.startsWith(kRunPrefix)) {
            const QString path = s.mid(kRunPrefix.size());
            recentMenu_->addAction(tr("Run: %1").arg(path), this,
                                   [this, path] { openRunWithItsTopology(path); });
        } else {
            recentMenu_->addAction(s, this, [this, s] { openSource(s); });
        }
    }
    recentMenu_->setEnabled(!list.isEmpty());
}

bool MainWindow::openSource(const QString& source, bool showErrors,
                            const TopologyReadOptions& read) {
    std::unique_ptr<TopologyDocument> next;
    try {
        QApplication::setOverrideCursor(Qt::WaitCursor);
        next = openTopologySource(source, read);
        QApplication::restoreOverrideCursor();
    } catch (const std::exception& e) {
        QApplication::restoreOverrideCursor();
        reportFailure(tr("Cannot open topology"), e.what(), showErrors);
        return false;
    }
    adoptDocument(std::move(next), read);
    if (doc_->params() && !doc_->params()->faults.empty()) { // a design with parts down
        views::ViewState marked = view_->state();
        marked.marked = failedParts(*doc_, doc_->params()->faults);
        view_->applyState(marked);
    }
    designRun_.clear();
    designDock_->setDesign(doc_->params(), doc_->topology().name);
    designDock_->showFigures(doc_->stats());
    recent_.add(source);
    rebuildRecentMenu();
    return true;
}

void MainWindow::adoptDocument(std::unique_ptr<TopologyDocument> next,
                               const TopologyReadOptions& read) {
    summaryPanel_->finishBillOfMaterials(); // it counts the document about to go
    delete background_; // it simulates on the document about to go: cancel and wait
    treeModel_->setDocument(nullptr);
    inspector_->setDocument(nullptr);
    stopLive(); // the recording maps onto the document that goes
    compare_->close();
    replay_->close();
    runPath_.clear();
    stepChart_->setSummary({});
    controls_->setDocument(nullptr);
    doc_ = std::move(next);
    read_ = read;
    treeModel_->setDocument(doc_.get());
    inspector_->setDocument(doc_.get());
    controls_->setDocument(doc_.get());
    setWindowTitle(tr("%1 - ClusterScope").arg(QString::fromStdString(doc_->topology().name)));
    showSummary();
    tree_->expandToDepth(0);
    collectives_->setDesigns(doc_.get(), nullptr);
}

bool MainWindow::applyDesign(const SiteParams& params) {
    if (!doc_) return false;
    std::unique_ptr<TopologyDocument> next;
    try {
        QApplication::setOverrideCursor(Qt::WaitCursor);
        Topology t = generateSite(params);
        // Not the preset or file any more: the name says so, and runs on it say so too.
        const std::string name = editedName(doc_->topology().name);
        t.name = name;
        next = std::make_unique<TopologyDocument>(std::move(t), params, kDesignSource + name);
        QApplication::restoreOverrideCursor();
    } catch (const std::exception& e) {
        QApplication::restoreOverrideCursor();
        reportFailure(tr("Cannot build the design"), e.what(), true);
        return false;
    }
    // The run open before was made on the earlier design: it cannot replay on this one, but
    // its settings can run again on it (Simulate on This Design).
    if (!runPath_.isEmpty()) designRun_ = runPath_;
    views::ViewState keep = view_->state();
    keep.selection.reset();
    keep.marked.clear();
    if (keep.metric == views::ValueMetric::Run || keep.metric == views::ValueMetric::Difference)
        keep = views::coloredBy(keep, views::ValueMetric::None);
    adoptDocument(std::move(next), {});
    keep.marked = failedParts(*doc_, params.faults); // the design's failed parts, in red
    view_->applyState(keep);                         // the camera stays where the user looked
    designDock_->showFigures(doc_->stats());
    designDock_->setSimulateOffered(!designRun_.isEmpty());
    return true;
}

bool MainWindow::simulateOnDesign(bool showErrors) {
    if (!doc_ || designRun_.isEmpty()) return false;
    RunSpec spec;
    try {
        spec =
            parseRunSpec(QByteArray::fromStdString(RunReader::runsIn(designRun_).back().paramsJson),
                         designRun_.toStdString());
    } catch (const std::exception& e) {
        reportFailure(tr("Cannot simulate on this design"), e.what(), showErrors);
        return false;
    }
    const QString storePath = newRunStorePath(spec);
    if (!runWithProgress(this, *doc_, spec, storePath)) return false;
    const QString earlier = designRun_;
    if (!openRun(storePath, showErrors)) return false;
    replay_->clock()->seek(int64_t(replay_->overview()->info.endNs / 2));
    // The run on the earlier design (rebuilt from its store) is the baseline A, on the left;
    // the new run, on the design the dock goes on editing, is B.
    return compareWith(earlier, showErrors, {}, true);
}

void MainWindow::startDefaultRun() {
    if (!doc_ || doc_->topology().name != kDefaultPreset || background_) return;
    const RunSpec spec = defaultRunSpec405b();
    const QString path = defaultRunCachePath(spec, *doc_);
    auto play = [this, path] {
        if (!openRun(path, false)) return false;
        replay_->clock()->setLoop(true);
        replay_->clock()->play();
        statusBar()->showMessage(tr("Playing Llama 3 405B on 16,384 GPUs (simulated, 3 steps): "
                                    "Space pauses, Run -> Simulate Training for your own"),
                                 10000);
        return true;
    };
    if (QFileInfo::exists(path) && play()) return;
    auto* bar = new QProgressBar;
    bar->setRange(0, 100);
    bar->setMaximumWidth(220);
    bar->setFormat(tr("Simulating 405B %p%"));
    statusBar()->addPermanentWidget(bar);
    background_ = new BackgroundSimulation(*doc_, spec, path, this);
    connect(background_, &BackgroundSimulation::progress, bar,
            [bar](double f) { bar->setValue(int(f * 100)); });
    connect(background_, &BackgroundSimulation::destroyed, bar, &QObject::deleteLater);
    connect(background_, &BackgroundSimulation::finished, this, [this, play] {
        play(); // pending until the run is open and playing
        background_->deleteLater();
        background_ = nullptr;
    });
    connect(background_, &BackgroundSimulation::failed, this, [this](const QString& message) {
        background_->deleteLater();
        background_ = nullptr;
        statusBar()->showMessage(tr("The default run could not be simulated: %1").arg(message));
    });
    statusBar()->showMessage(tr("Simulating Llama 3 405B on 16,384 GPUs for the replay..."));
    background_->start();
}

void MainWindow::showSummary() {
    const TopologyStats& s = doc_->stats();
    summaryPanel_->show(*doc_);
    statusBar()->showMessage(tr("%1: %2 GPUs, %3 hosts, %4 pods, %5 switches, %6 links")
                                 .arg(QString::fromStdString(doc_->topology().name))
                                 .arg(QLocale().toString(s.gpus), QLocale().toString(s.hosts),
                                      QLocale().toString(s.pods), QLocale().toString(s.switches),
                                      QLocale().toString(s.links)));
}

void MainWindow::fitSummaryWidth() {
    auto* dock = findChild<QDockWidget*>("summaryDock");
    if (!dock || !summary_->isVisible()) return;
    int longest = 0;
    const QFontMetrics m(summary_->font());
    for (const QString& line : summary_->toPlainText().split('\n'))
        longest = std::max(longest, m.horizontalAdvance(line));
    // The text, its margins and a scroll bar; never more than half the window, never
    // narrower than the user made it.
    const int needed = longest + 2 * int(summary_->document()->documentMargin()) +
                       summary_->verticalScrollBar()->sizeHint().width() +
                       2 * summary_->frameWidth() + 8;
    const int wanted = std::min(needed, width() / 2);
    if (wanted > dock->width()) resizeDocks({dock}, {wanted}, Qt::Horizontal);
}

void MainWindow::addSummaryNote(const QString& note) {
    summaryPanel_->addNote(note);
}

void MainWindow::openFileDialog() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Topology"), {},
                                                      QString::fromStdString(topologyOpenFilter()));
    if (!path.isEmpty()) openSource(path);
}

void MainWindow::openPresetDialog() {
    QStringList items;
    for (const PresetInfo& p : presets())
        items << QStringLiteral("%1  -  %2")
                     .arg(QString::fromStdString(p.name), QString::fromStdString(p.description));
    bool ok = false;
    const QString choice =
        QInputDialog::getItem(this, tr("Open Preset"), tr("Preset:"), items, 0, false, &ok);
    if (ok) openSource("preset:" + choice.section(' ', 0, 0));
}

void MainWindow::exportDialog() {
    if (!doc_) return;
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export Topology"), QString::fromStdString(doc_->topology().name) + ".json",
        tr("ClusterScope topology (*.json)"));
    if (path.isEmpty()) return;
    try {
        writeFileAtomically(path, explicitTopologyDocument(doc_->topology()));
        statusBar()->showMessage(tr("Wrote %1").arg(path), 5000);
    } catch (const std::exception& e) {
        QMessageBox::critical(this, tr("Cannot export"), QString::fromStdString(e.what()));
    }
}

bool MainWindow::startLive(const PrometheusQuery& query, const QString& storePath,
                           std::function<int64_t()> nowS, int pollMs) {
    if (!doc_) return false;
    stopLive();
    std::shared_ptr<PrometheusLive> recording =
        startLiveWithProgress(this, *doc_, query, storePath);
    if (!recording || !openRun(storePath)) return false;
    live_ = std::make_unique<LiveRecording>(std::move(recording), std::move(nowS), pollMs);
    connect(live_.get(), &LiveRecording::appended, replay_, &ReplayController::refreshRun);
    connect(live_.get(), &LiveRecording::failed, this, [this](const QString& message) {
        statusBar()->showMessage(tr("Live: %1 (trying again at the next step)").arg(message),
                                 10000);
    });
    replay_->setLive(true);
    stopLive_->setEnabled(true);
    statusBar()->showMessage(tr("Recording live into %1").arg(storePath), 8000);
    return true;
}

void MainWindow::stopLive() {
    if (!live_) return;
    live_.reset();
    replay_->setLive(false);
    stopLive_->setEnabled(false);
}

bool MainWindow::compareWith(const QString& runPath, bool showErrors, const QString& topology,
                             bool asBaseline) {
    if (!doc_) return false;
    try {
        std::unique_ptr<TopologyDocument> docB =
            comparedRunTopology(runPath, topology, *doc_, read_, showErrors ? this : nullptr);
        if (!docB) return false; // the user gave no topology
        compare_->open(*doc_, runPath_, runPath, std::move(docB), asBaseline);
        if (asBaseline)
            collectives_->setDesigns(compare_->documentB(), doc_.get());
        else
            collectives_->setDesigns(doc_.get(), compare_->documentB());
    } catch (const std::exception& e) {
        reportFailure(tr("Cannot compare"), e.what(), showErrors);
        return false;
    }
    statusBar()->showMessage(tr("Comparing with %1: the table is in the Comparison dock, the "
                                "difference in the colour box")
                                 .arg(runPath),
                             8000);
    return true;
}

void MainWindow::reportFailure(const QString& title, const char* what, bool showErrors) {
    if (showErrors)
        QMessageBox::critical(this, title, QString::fromUtf8(what));
    else
        qWarning("%s", what); // tests and the command line read it on stderr
}

// Presenting (PresentationMode): the title line then says the run's time and the selection.
QString MainWindow::presentationCaption() const {
    QStringList parts;
    if (!runPath_.isEmpty() && replay_->isOpen()) parts << replay_->caption();
    if (doc_)
        if (const auto& sel = view_->scene().selection())
            parts << QString("selected: %1")
                         .arg(QString::fromStdString(doc_->topology().nameOf(sel->entity)));
    return parts.join("  |  ");
}

void MainWindow::updateCaption() {
    // A playing run's time, step and MFU always (the first screen says how the job runs);
    // the selection only while presenting, when the inspector is hidden.
    const QString caption = presenting()         ? presentationCaption()
                            : runPath_.isEmpty() ? QString()
                                                 : replay_->caption();
    view_->scene().setCaption(caption.toStdString());
    view_->update();
}

void MainWindow::setPresenting(bool on) {
    presentation_->setPresenting(on);
}

bool MainWindow::presenting() const {
    return presentation_->presenting();
}

bool MainWindow::startTour(int dwellMs) {
    return presentation_->startTour(dwellMs);
}

void MainWindow::stopTour() {
    presentation_->stopTour();
}

bool MainWindow::touring() const {
    return presentation_->touring();
}

void MainWindow::keyPressEvent(QKeyEvent* e) {
    if (!presentation_->handleKey(e)) QMainWindow::keyPressEvent(e);
}

// The layout kept between starts (WindowLayout.h).
void MainWindow::saveLayout() const {
    if (!presenting()) saveWindowLayout(*this); // everything hidden: not a layout to come back to
}

bool MainWindow::restoreLayout() {
    const bool ok = restoreWindowLayout(*this);
    // The replay's docks show with a run, whatever the layout said.
    if (!replay_->isOpen())
        for (const char* name : {"timelineDock", "chartsDock", "eventsDock"})
            if (auto* dock = findChild<QDockWidget*>(name)) dock->hide();
    return ok;
}

void MainWindow::closeEvent(QCloseEvent* e) {
    saveLayout();
    QMainWindow::closeEvent(e);
}

} // namespace cs::app
