#pragma once
// The inspector dock's content: the properties of the selected entity and, for a GPU of a
// simulated run, the small Gantt of its pipeline stage's step.
#include "PropertyTableModel.h"

#include <QWidget>

#include <memory>
#include <optional>

class QLabel;
class QTableView;

namespace cs {
struct StageGantt;
}

namespace cs::views {

class StageGanttWidget;

class InspectorWidget : public QWidget {
    Q_OBJECT
public:
    explicit InspectorWidget(QWidget* parent = nullptr);
    void setDocument(const TopologyDocument* doc);
    void showEntity(Endpoint e);
    // Rows appended below the entity's properties (a replay's values at "now").
    void setLiveValues(PropertyList rows);
    PropertyTableModel* model() const { return model_; }
    // The Gantt shown below the properties while a GPU is shown; null: none.
    void setGantt(std::shared_ptr<const StageGantt> gantt, int stages,
                  std::optional<double> nowPhase);
    StageGanttWidget* gantt() const { return gantt_; }

private:
    const TopologyDocument* doc_ = nullptr;
    Endpoint shown_{EntityKind::Cluster, kNone};
    PropertyList live_;
    QLabel* title_;
    QTableView* table_;
    PropertyTableModel* model_;
    StageGanttWidget* gantt_;
};

} // namespace cs::views
