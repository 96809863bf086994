#pragma once
// Two columns, property and value: what the inspector lists for the selected entity.
#include "EntityProperties.h"

#include <QAbstractTableModel>

namespace cs::views {

class PropertyTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    using QAbstractTableModel::QAbstractTableModel;
    void setProperties(PropertyList list);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

private:
    PropertyList list_;
};

} // namespace cs::views
