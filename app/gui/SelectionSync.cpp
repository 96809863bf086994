#include "SelectionSync.h"

#include "EntitySearch.h"
#include "InspectorWidget.h"
#include "ReplayController.h"
#include "TopologyTreeModel.h"
#include "VtkViewWidget.h"

#include <QTreeView>

namespace cs::app {

SelectionSync::SelectionSync(QTreeView* tree, views::TopologyTreeModel* treeModel,
                             views::InspectorWidget* inspector, views::VtkViewWidget* view,
                             ReplayController* replay, std::function<void()> selected,
                             QObject* parent)
    : QObject(parent), tree_(tree), treeModel_(treeModel), inspector_(inspector), view_(view),
      replay_(replay), selected_(std::move(selected)) {
    connect(tree_->selectionModel(), &QItemSelectionModel::currentChanged, this,
            &SelectionSync::onTreeCurrentChanged);
}

void SelectionSync::showReplayValues() {
    inspector_->setLiveValues(replay_->selectedValues());
    inspector_->setGantt(replay_->selectedGantt(), replay_->pipelineStages(),
                         replay_->shownStepPhase());
}

void SelectionSync::onTreeCurrentChanged() {
    if (syncing_) return;
    show(views::TopologyTreeModel::entityOf(tree_->currentIndex()), true);
}

void SelectionSync::show(Endpoint e, bool fromTree) {
    replay_->selectEntity(e);
    if (selected_) selected_();
    inspector_->showEntity(e);
    showReplayValues();
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

bool SelectionSync::selectById(const TopologyDocument* doc, const QString& id) {
    if (!doc) return false;
    const std::optional<Endpoint> e = findEntity(*doc, id.toStdString()); // as the search box
    if (!e) return false;
    show(*e, false);
    view_->scene().select(PickHit{*e, kNone, 0});
    view_->scene().viewEntity(*e);
    view_->update();
    return true;
}

} // namespace cs::app
