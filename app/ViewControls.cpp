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
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>

#include <algorithm>
#include <iterator>

namespace cs::app {

namespace {
constexpr int kPatternIntervalMs = 200;
}

ViewControls::ViewControls(QMainWindow* window, views::VtkViewWidget* view)
    : QObject(window), window_(window), view_(view), layout_(new QComboBox), colour_(new QComboBox),
      aggregate_(new QComboBox), search_(new QLineEdit), patternTimer_(new QTimer(this)) {
    QToolBar* bar = window->addToolBar(tr("View"));
    bar->setObjectName("viewToolBar");
    bar->addWidget(new QLabel(tr(" Layout ")));
    layout_->addItems({tr("Floor"), tr("Fabric")});
    layout_->setObjectName("layoutBox");
    bar->addWidget(layout_);
    bar->addWidget(new QLabel(tr("  Colour ")));
    colour_->addItems({tr("By kind"), tr("Test pattern (animated)"), tr("Link speed")});
    colour_->setObjectName("colourBox");
    bar->addWidget(colour_);
    bar->addWidget(new QLabel(tr("  Aggregate ")));
    for (Aggregate a : kAggregates) { // item i is kAggregates[i]
        QString name = aggregateName(a);
        name[0] = name[0].toUpper();
        aggregate_->addItem(name);
    }
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

    connect(layout_, &QComboBox::currentIndexChanged, this, &ViewControls::applyLayout);
    connect(colour_, &QComboBox::currentIndexChanged, this, &ViewControls::applyColour);
    connect(aggregate_, &QComboBox::currentIndexChanged, this, [this](int i) {
        view_->scene().setAggregate(kAggregates[std::clamp(i, 0, int(std::size(kAggregates)) - 1)]);
        view_->update();
    });
    connect(search_, &QLineEdit::returnPressed, this, [this] { search(search_->text()); });
    connect(patternTimer_, &QTimer::timeout, this, &ViewControls::tickPattern);

    QMenu* viewMenu = window->menuBar()->addMenu(tr("&View"));
    viewMenu->addAction(overview);
    cameraMenu_ = viewMenu->addMenu(tr("&Camera"));
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
    view_->scene().setDocument(doc, layout_->currentIndex() == 0 ? LayoutKind::Floor
                                                                 : LayoutKind::Fabric);
    applyColour();
    rebuildCameraMenu();
    view_->update();
}

void ViewControls::applyLayout() {
    view_->scene().setLayoutKind(layout_->currentIndex() == 0 ? LayoutKind::Floor
                                                              : LayoutKind::Fabric);
    view_->update();
}

void ViewControls::applyColour() {
    views::ClusterScene& scene = view_->scene();
    patternTimer_->stop();
    FrameValues v;
    const int mode = colour_->currentIndex();
    if (doc_ && mode == 1) {
        scene.setValueTitle("Test pattern, %");
        fillTestPattern(doc_->topology(), 0, v);
        patternClock_.start();
        patternTimer_->start(kPatternIntervalMs);
    } else if (doc_ && mode == 2) {
        scene.setValueTitle("Link speed, log %");
        fillLinkSpeed(doc_->topology(), v);
    } else if (doc_ && mode == 3) {
        scene.setValueTitle("Busy / load, %");
        scene.setValues(v); // no data until the replay hands its frame
        scene.setColorMode(views::ColorMode::Value);
        view_->update();
        emit runColourChosen();
        return;
    }
    scene.setValues(v);
    scene.setColorMode(mode == 0 ? views::ColorMode::Kind : views::ColorMode::Value);
    view_->update();
}

void ViewControls::showRun(const QString& title) {
    if (colour_->count() < 4) colour_->addItem(title);
    colour_->setItemText(3, title);
    if (colour_->currentIndex() == 3)
        applyColour();
    else
        colour_->setCurrentIndex(3);
}

void ViewControls::clearRun() {
    if (colour_->count() <= 3) return;
    if (colour_->currentIndex() == 3) colour_->setCurrentIndex(0);
    colour_->removeItem(3);
}

bool ViewControls::showsRun() const {
    return colour_->currentIndex() == 3;
}

void ViewControls::tickPattern() {
    if (!doc_ || !view_->isVisible()) return;
    FrameValues v;
    fillTestPattern(doc_->topology(), patternClock_.elapsed() / 1000.0, v);
    view_->scene().setValues(v);
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
    const QList<CameraBookmark> marks = CameraBookmarks(QString::fromStdString(t.name)).list();
    for (const CameraBookmark& b : marks)
        cameraMenu_->addAction(tr("Bookmark: %1").arg(b.name), this, [this, b] {
            layout_->setCurrentIndex(b.layout == "fabric" ? 1 : 0);
            view_->flyTo([this, b] { view_->setCameraPose(b.pose); });
        });
}

void ViewControls::saveBookmark() {
    if (!doc_) return;
    bool ok = false;
    const QString name = QInputDialog::getText(window_, tr("Save Camera Bookmark"), tr("Name:"),
                                               QLineEdit::Normal, {}, &ok);
    if (!ok || name.trimmed().isEmpty()) return;
    CameraBookmarks(QString::fromStdString(doc_->topology().name))
        .save({name.trimmed(), layout_->currentIndex() == 0 ? "floor" : "fabric",
               view_->cameraPose()});
    rebuildCameraMenu();
}

} // namespace cs::app
