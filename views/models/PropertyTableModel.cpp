#include "PropertyTableModel.h"

namespace cs::views {

void PropertyTableModel::setProperties(PropertyList list) {
    beginResetModel();
    list_ = std::move(list);
    endResetModel();
}

int PropertyTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(list_.size());
}

int PropertyTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : 2;
}

QVariant PropertyTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || (role != Qt::DisplayRole && role != Qt::ToolTipRole)) return {};
    const auto& [key, value] = list_[size_t(index.row())];
    return QString::fromStdString(index.column() == 0 ? key : value);
}

QVariant PropertyTableModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
    return section == 0 ? tr("Property") : tr("Value");
}

} // namespace cs::views
