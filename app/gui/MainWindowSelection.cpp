// The selection: from the tree, the view, the search box or an id; the inspector showing it
// with its values at now and, for a GPU of a simulated run, its stage's Gantt.
#include "EntitySearch.h"
#include "InspectorWidget.h"
#include "MainWindow.h"
#include "ReplayController.h"
#include "TopologyTreeModel.h"
#include "VtkViewWidget.h"

#include <QTimer>
#include <QTreeView>

namespace cs::app {

void MainWindow::showReplayInInspector() {
    inspector_->setLiveValues(replay_->selectedValues());
    inspector_->setGantt(replay_->selectedGantt(), replay_->pipelineStages(),
                         replay_->shownStepPhase());
}

void MainWindow::onTreeSelection() {
    if (syncing_) return;
    showSelected(views::TopologyTreeModel::entityOf(tree_->currentIndex()), true);
}

void MainWindow::showSelected(Endpoint e, bool fromTree) {
    replay_->selectEntity(e);
    if (presenting()) QTimer::singleShot(0, this, [this] { updateCaption(); });
    inspector_->showEntity(e);
    showReplayInInspector();
    if (fromTree) {
        view_->scene().select(e.index == kNone ? std::nullopt
                                               : std::optional<PickHit>(PickHit{e, kNone, 0}));
        view_->update();
        return;
    }
    const QModelIndex index = treeModel_->indexOf(e);
    if (!index.isValid()) return;
    syncing_ = true;
    tree_->setCurrentIndex(index);
    tree_->scrollTo(index);
    syncing_ = false;
}

bool MainWindow::selectById(const QString& id) {
    if (!doc_) return false;
    const std::optional<Endpoint> e =
        findEntity(*doc_, id.toStdString()); // as the search box reads it
    if (!e) return false;
    showSelected(*e, false);
    view_->scene().select(PickHit{*e, kNone, 0});
    view_->scene().viewEntity(*e);
    view_->update();
    return true;
}

} // namespace cs::app
