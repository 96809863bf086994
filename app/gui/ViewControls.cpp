#include "ViewControls.h"

#include "CameraBookmarks.h"
#include "EntitySearch.h"
#include "HeadlessRenderer.h"
#include "VtkViewWidget.h"

#include <QComboBox>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QMenuBar>
#include <QSignalBlocker>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>

#include <algorithm>
#include <iterator>

namespace cs::app {

namespace {
constexpr int kPatternIntervalMs = 200;

// A Colour box item's data: the value metric, and with a run the GPU metric (busy: 0) or the
// GPUs' role in the job (none: 0).
int colourCode(views::ValueMetric v, Metric gpu = Metric::GpuBusy,
               views::GpuRole role = views::GpuRole::None) {
    return int(v) | int(gpu) << 8 | int(role) << 16;
}

QString label(std::string_view text) {
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}
} // namespace

ViewControls::ViewControls(QMainWindow* window, views::VtkViewWidget* view)
    : QObject(window), window_(window), view_(view), layout_(new QComboBox), colour_(new QComboBox),
      aggregate_(new QComboBox), search_(new QLineEdit), patternTimer_(new QTimer(this)) {
    QToolBar* bar = window->addToolBar(tr("View"));
    bar->setObjectName("viewToolBar");
    bar->addWidget(new QLabel(tr(" Layout ")));
    for (const auto& l : kLayoutNames) // item i is kLayoutNames[i]
        layout_->addItem(label(l.label));
    layout_->setObjectName("layoutBox");
    bar->addWidget(layout_);
    bar->addWidget(new QLabel(tr("  Colour ")));
    // Each item holds its metric. The developers' test pattern is not offered: a session or
    // the CLI that asks for it still gets it (mirrorState adds the item then).
    colour_->addItem(label(views::kColorModeNames.label(views::ColorMode::Kind)),
                     int(views::ValueMetric::None));
    colour_->addItem(label(views::kValueMetricNames.label(views::ValueMetric::LinkSpeed)),
                     int(views::ValueMetric::LinkSpeed));
    colour_->setObjectName("colourBox");
    bar->addWidget(colour_);
    bar->addWidget(new QLabel(tr("  Aggregate ")));
    for (const auto& a : kAggregateNames) // item i is kAggregateNames[i]
        aggregate_->addItem(label(a.label));
    aggregate_->setObjectName("aggregateBox");
    aggregate_->setToolTip(tr("How racks and link bundles summarise their members: min finds "
                              "the idle GPU or the quiet link, max the hot one"));
    bar->addWidget(aggregate_);
    bar->addSeparator();
    search_->setPlaceholderText(tr("Find host, switch, GPU index..."));
    search_->setClearButtonEnabled(true);
    search_->setMaximumWidth(280);
    search_->setObjectName("searchBox");
    bar->addWidget(search_);
    QAction* overview = bar->addAction(tr("Overview"));
    overview->setShortcut(QKeySequence(Qt::Key_Home));
    connect(overview, &QAction::triggered, this,
            [this] { view_->flyTo([this] { view_->scene().viewOverview(); }); });

    connect(layout_, &QComboBox::currentIndexChanged, this, [this](int i) {
        edit([i](views::ViewState& s) { s.layout = kLayoutNames[size_t(i)].value; });
    });
    connect(colour_, &QComboBox::currentIndexChanged, this, [this](int i) {
        const int code = colour_->itemData(i).toInt();
        const auto metric = views::ValueMetric(code & 0xff);
        const auto gpu = Metric(code >> 8 & 0xff);
        const auto role = views::GpuRole(code >> 16 & 0xff);
        edit([metric, gpu, role](views::ViewState& s) {
            s = views::coloredBy(s, metric);
            s.gpuMetric = gpu;
            s.role = role;
        });
    });
    connect(aggregate_, &QComboBox::currentIndexChanged, this, [this](int i) {
        edit([i](views::ViewState& s) { s.aggregate = kAggregateNames[size_t(i)].value; });
    });
    connect(search_, &QLineEdit::returnPressed, this, [this] { search(search_->text()); });
    connect(patternTimer_, &QTimer::timeout, this, &ViewControls::tickPattern);
    connect(view_, &views::VtkViewWidget::stateChanged, this, &ViewControls::mirrorState);

    QMenu* viewMenu = window->menuBar()->addMenu(tr("&View"));
    viewMenu->setObjectName("viewMenu");
    viewMenu->addAction(overview);
    cameraMenu_ = viewMenu->addMenu(tr("&Camera"));
    labels_ = viewMenu->addAction(tr("Show &Labels"));
    labels_->setObjectName("labelsAction");
    labels_->setCheckable(true);
    labels_->setChecked(true);
    connect(labels_, &QAction::toggled, this,
            [this](bool on) { edit([on](views::ViewState& s) { s.labels = on; }); });
    QAction* find = viewMenu->addAction(tr("&Find..."));
    find->setShortcut(QKeySequence::Find);
    connect(find, &QAction::triggered, this, [this] {
        search_->setFocus();
        search_->selectAll();
    });
    rebuildCameraMenu();
}

void ViewControls::setDocument(const TopologyDocument* doc) {
    doc_ = doc;
    clearRun();
    views::ViewState s = view_->state();
    view_->scene().setDocument(doc, s.layout);
    s.camera.reset(); // the new topology's overview
    s.selection.reset();
    s.marked.clear();
    view_->applyState(s);
    rebuildCameraMenu();
}

void ViewControls::edit(const std::function<void(views::ViewState&)>& change) {
    views::ViewState s = view_->state();
    s.camera.reset();
    change(s);
    view_->applyState(s);
}

void ViewControls::mirrorState() {
    const views::ViewState s = view_->state();
    const QSignalBlocker a(layout_), b(colour_), c(aggregate_), d(labels_);
    layout_->setCurrentIndex(int(kLayoutNames.indexOf(s.layout)));
    const auto metric = s.colorMode == views::ColorMode::Kind ? views::ValueMetric::None : s.metric;
    const bool run = metric == views::ValueMetric::Run;
    const int code = run ? colourCode(metric, s.gpuMetric, s.role) : colourCode(metric);
    if (colour_->findData(code) < 0)
        colour_->addItem(label(!run ? views::kValueMetricNames.label(metric)
                               : s.role != views::GpuRole::None
                                   ? views::kGpuRoleNames.label(s.role)
                                   : gpuMetricScale(s.gpuMetric).title),
                         code);
    colour_->setCurrentIndex(colour_->findData(code));
    aggregate_->setCurrentIndex(int(kAggregateNames.indexOf(s.aggregate)));
    labels_->setChecked(s.labels);
    const bool pattern = metric == views::ValueMetric::TestPattern && doc_;
    if (pattern && !patternTimer_->isActive()) {
        patternClock_.start();
        patternTimer_->start(kPatternIntervalMs);
    }
    if (!pattern) patternTimer_->stop();
}

int ViewControls::colourItem(views::ValueMetric m) const {
    return colour_->findData(colourCode(m));
}

int ViewControls::colourItemNamed(const QString& name) const {
    if (name == "kind") return colour_->findData(int(views::ValueMetric::None));
    if (name == "value") {
        const int run = colour_->findData(colourCode(views::ValueMetric::Run));
        return run >= 0 ? run : colour_->findData(int(views::ValueMetric::LinkSpeed));
    }
    if (name == "job")
        return colour_->findData(
            colourCode(views::ValueMetric::Run, Metric::GpuBusy, views::GpuRole::Job));
    if (name == "difference") return colour_->findData(int(views::ValueMetric::Difference));
    return -1;
}

void ViewControls::showRun(const QString& title, const std::vector<Metric>& metrics, bool roles,
                           bool jobs) {
    removeRunItems();
    colour_->addItem(title, colourCode(views::ValueMetric::Run));
    // The GPU metrics the run holds besides busy: power, temperature, memory, clock.
    for (Metric m : gpuColourMetrics())
        if (m != Metric::GpuBusy && std::find(metrics.begin(), metrics.end(), m) != metrics.end())
            colour_->addItem(tr("Run: %1").arg(label(gpuMetricScale(m).title)),
                             colourCode(views::ValueMetric::Run, m));
    // A simulated run knows each GPU's ranks: its stage, DP replica and TP rank.
    for (views::GpuRole r :
         {views::GpuRole::Stage, views::GpuRole::DpReplica, views::GpuRole::TpRank})
        if (roles)
            colour_->addItem(tr("Run: %1").arg(label(views::kGpuRoleNames.label(r))),
                             colourCode(views::ValueMetric::Run, Metric::GpuBusy, r));
    // A run of many jobs: each GPU in the colour of the job on it at the time shown.
    if (jobs)
        colour_->addItem(tr("Run: %1").arg(label(views::kGpuRoleNames.label(views::GpuRole::Job))),
                         colourCode(views::ValueMetric::Run, Metric::GpuBusy, views::GpuRole::Job));
    edit([](views::ViewState& s) {
        s = views::coloredBy(s, views::ValueMetric::Run);
        s.gpuMetric = Metric::GpuBusy;
        s.role = views::GpuRole::None;
    });
}

void ViewControls::removeRunItems() {
    const QSignalBlocker block(colour_);
    for (int i = colour_->count() - 1; i >= 0; --i)
        if ((colour_->itemData(i).toInt() & 0xff) == int(views::ValueMetric::Run))
            colour_->removeItem(i);
}

void ViewControls::clearRun() {
    clearComparison(); // a difference needs the run
    if (colourItem(views::ValueMetric::Run) < 0) return;
    if (view_->state().metric == views::ValueMetric::Run)
        edit([](views::ViewState& s) { s = views::coloredBy(s, views::ValueMetric::None); });
    removeRunItems();
}

void ViewControls::showComparison() {
    if (colourItem(views::ValueMetric::Difference) < 0)
        colour_->addItem(label(views::kValueMetricNames.label(views::ValueMetric::Difference)),
                         int(views::ValueMetric::Difference));
}

void ViewControls::clearComparison() {
    if (colourItem(views::ValueMetric::Difference) < 0) return;
    if (view_->state().metric == views::ValueMetric::Difference)
        edit([](views::ViewState& s) { s = views::coloredBy(s, views::ValueMetric::Run); });
    const QSignalBlocker block(colour_);
    colour_->removeItem(colourItem(views::ValueMetric::Difference));
}

void ViewControls::tickPattern() {
    if (!doc_ || !view_->isVisible()) return;
    view_->scene().setPatternTimeS(patternClock_.elapsed() / 1000.0);
    view_->update();
}

bool ViewControls::search(const QString& text) {
    if (!doc_) return false;
    const std::optional<Endpoint> e = findEntity(*doc_, text.toStdString());
    if (!e) {
        window_->statusBar()->showMessage(tr("Nothing matches \"%1\"").arg(text), 5000);
        return false;
    }
    view_->scene().select(PickHit{*e, kNone, 0});
    view_->flyTo([this, e] { view_->scene().viewEntity(*e); });
    window_->statusBar()->showMessage(
        tr("Found %1").arg(QString::fromStdString(doc_->topology().nameOf(*e))), 5000);
    emit entityFound(*e);
    return true;
}

void ViewControls::rebuildCameraMenu() {
    cameraMenu_->clear();
    if (!doc_) return;
    const Topology& t = doc_->topology();
    QMenu* pods = cameraMenu_->addMenu(tr("&Pod"));
    for (size_t p = 0; p < t.pods.size() && p < 64; ++p)
        pods->addAction(QString::fromStdString(t.pods[p].name), this, [this, p] {
            view_->flyTo([this, p] { view_->scene().viewPod(int32_t(p)); });
        });
    cameraMenu_->addAction(tr("&Rack..."), this, [this] {
        bool ok = false;
        const QString r = QInputDialog::getText(window_, tr("Go to Rack"), tr("Rack id or index:"),
                                                QLineEdit::Normal, {}, &ok);
        if (!ok || r.isEmpty()) return;
        std::string err;
        view_->flyTo([&] {
            err = views::applyCameraSpec(view_->scene(), *doc_, "rack:" + r.toStdString());
        });
        if (!err.empty()) window_->statusBar()->showMessage(QString::fromStdString(err), 5000);
    });
    cameraMenu_->addSeparator();
    cameraMenu_->addAction(tr("&Save Bookmark..."), this, &ViewControls::saveBookmark);
    const QList<views::CameraBookmark> marks =
        CameraBookmarks(QString::fromStdString(t.name)).list();
    for (const views::CameraBookmark& b : marks)
        cameraMenu_->addAction(tr("Bookmark: %1").arg(QString::fromStdString(b.name)), this,
                               [this, b] { goToBookmark(b); });
}

void ViewControls::saveBookmark() {
    if (!doc_) return;
    bool ok = false;
    const QString name = QInputDialog::getText(window_, tr("Save Camera Bookmark"), tr("Name:"),
                                               QLineEdit::Normal, {}, &ok);
    if (!ok || name.trimmed().isEmpty()) return;
    CameraBookmarks(QString::fromStdString(doc_->topology().name))
        .save({name.trimmed().toStdString(), view_->scene().layoutKind(), view_->cameraPose()});
    rebuildCameraMenu();
}

void ViewControls::goToBookmark(const views::CameraBookmark& b, int flyMs) {
    edit([&b](views::ViewState& s) { s.layout = b.layout; });
    view_->flyTo([this, &b] { view_->setCameraPose(b.pose); }, flyMs);
}

} // namespace cs::app
