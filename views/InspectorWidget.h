#pragma once
// The inspector dock's content: the properties of the selected entity.
#include "PropertyTableModel.h"

#include <QWidget>

class QLabel;
class QTableView;

namespace cs::views {

class InspectorWidget : public QWidget {
    Q_OBJECT
public:
    explicit InspectorWidget(QWidget* parent = nullptr);
    void setDocument(const TopologyDocument* doc);
    void showEntity(Endpoint e);
    // Rows appended below the entity's properties (a replay's values at "now").
    void setLiveValues(PropertyList rows);
    PropertyTableModel* model() const { return model_; }

private:
    const TopologyDocument* doc_ = nullptr;
    Endpoint shown_{EntityKind::Cluster, kNone};
    PropertyList live_;
    QLabel* title_;
    QTableView* table_;
    PropertyTableModel* model_;
};

} // namespace cs::views
