#pragma once
// The topology as a tree: clusters -> pods -> racks -> hosts -> GPUs, with GPU counts.
// Items carry (kind, index) in their internal id; nothing is allocated per entity.
#include "TopologyDocument.h"

#include <QAbstractItemModel>

namespace cs::views {

class TopologyTreeModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { NameColumn, KindColumn, GpusColumn, ColumnCount };
    static constexpr int EntityKindRole = Qt::UserRole + 1; // int(EntityKind)
    static constexpr int EntityIndexRole = Qt::UserRole + 2;

    explicit TopologyTreeModel(QObject* parent = nullptr);
    void setDocument(const TopologyDocument* doc); // may be null; not owned

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

    // The item for an entity shown in the tree (cluster, pod, compute rack, host, GPU), or
    // its nearest shown ancestor (a NIC's host, a switch's rack); invalid if none.
    QModelIndex indexOf(Endpoint e) const;
    static Endpoint entityOf(const QModelIndex& index);

private:
    QModelIndex make(int row, EntityKind kind, int32_t entity) const;
    int rowInParent(EntityKind kind, int32_t entity) const;
    int childCount(EntityKind kind, int32_t entity) const;

    const TopologyDocument* doc_ = nullptr;
    ChildList podComputeRacks_;         // racks with hosts, per pod
    std::vector<int32_t> rackRowInPod_; // row of a compute rack under its pod
    std::vector<int32_t> podRow_, hostRow_;
};

} // namespace cs::views
