#pragma once
// One selection across the window: picked in the tree, the 3D view, the search box, a dock or
// by id, it is shown in the tree, the view and the inspector (with its values at now and, for
// a GPU of a simulated run, its stage's Gantt). The tree's echo of a selection made elsewhere
// is not taken for a new one.
#include "Topology.h"

#include <QObject>

#include <functional>

class QTreeView;

namespace cs {
class TopologyDocument;
}

namespace cs::views {
class InspectorWidget;
class TopologyTreeModel;
class VtkViewWidget;
} // namespace cs::views

namespace cs::app {

class ReplayController;

class SelectionSync : public QObject {
    Q_OBJECT
public:
    // `selected` runs after each selection (the presentation caption names it).
    SelectionSync(QTreeView* tree, views::TopologyTreeModel* treeModel,
                  views::InspectorWidget* inspector, views::VtkViewWidget* view,
                  ReplayController* replay, std::function<void()> selected, QObject* parent);
    // `e` selected everywhere; `fromTree`: the tree made it (the view follows, not the tree).
    void show(Endpoint e, bool fromTree);
    // The entity the search box would find for `id`, selected and viewed; false if none.
    bool selectById(const TopologyDocument* doc, const QString& id);
    // The selected entity's values at the replay's now, a GPU's stage Gantt.
    void showReplayValues();

private:
    void onTreeCurrentChanged();

    QTreeView* tree_;
    views::TopologyTreeModel* treeModel_;
    views::InspectorWidget* inspector_;
    views::VtkViewWidget* view_;
    ReplayController* replay_;
    std::function<void()> selected_;
    bool syncing_ = false; // guards tree <-> view selection echo
};

} // namespace cs::app
