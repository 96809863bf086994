#include "HotLinksModel.h"

namespace cs::views {

void HotLinksModel::setLinks(std::vector<LinkHeat> links, const Topology* topology,
                             double threshold) {
    beginResetModel();
    links_ = std::move(links);
    topology_ = topology;
    threshold_ = threshold;
    if (!topology_) links_.clear();
    endResetModel();
}

int HotLinksModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(links_.size());
}

int HotLinksModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant HotLinksModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= int(links_.size())) return {};
    const LinkHeat& h = links_[size_t(index.row())];
    if (role == Qt::TextAlignmentRole && index.column() != LinkColumn)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole) return {};
    switch (index.column()) {
    case LinkColumn:
        return topology_ && size_t(h.link) < topology_->links.size()
                   ? QString::fromStdString(topology_->nameOf({EntityKind::Link, h.link}))
                   : QString();
    case PeakColumn:
        return QStringLiteral("%1%").arg(h.peakFraction * 100, 0, 'f', 0);
    case AboveColumn:
        return QStringLiteral("%1 s").arg(h.aboveS, 0, 'f', 3);
    }
    return {};
}

QVariant HotLinksModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case LinkColumn:
        return tr("Link");
    case PeakColumn:
        return tr("Peak");
    case AboveColumn:
        return tr("Above %1%").arg(threshold_ * 100, 0, 'f', 0);
    }
    return {};
}

} // namespace cs::views
