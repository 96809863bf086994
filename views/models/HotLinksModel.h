#pragma once
// The Hottest Links list: the links with the highest peak (or the longest time above 80 % of
// capacity) over the stretch of run shown, with both figures. It lists what it is handed.
#include "LinkUse.h"
#include "Topology.h"

#include <QAbstractTableModel>

namespace cs::views {

class HotLinksModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { LinkColumn, PeakColumn, AboveColumn, ColumnCount };
    using QAbstractTableModel::QAbstractTableModel;

    // `topology` names the links; it must outlive the model or be replaced.
    void setLinks(std::vector<LinkHeat> links, const Topology* topology, double threshold = 0.8);
    const LinkHeat& heat(int row) const { return links_[size_t(row)]; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

private:
    std::vector<LinkHeat> links_;
    const Topology* topology_ = nullptr;
    double threshold_ = 0.8;
};

} // namespace cs::views
