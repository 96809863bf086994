#include "TopologyTreeModel.h"

#include <QLocale>

namespace cs::views {
namespace {

constexpr int kKindShift = 56;
quintptr encode(EntityKind k, int32_t i) {
    return (quintptr(k) << kKindShift) | quintptr(uint32_t(i));
}
EntityKind kindOf(quintptr id) {
    return EntityKind(id >> kKindShift);
}
int32_t entityIndexOfId(quintptr id) {
    return int32_t(uint32_t(id & 0xffffffffu));
}

// The id without the dotted segments it shares with its parent's ("roce.pod3.rack12.host1"
// under "roce.pod3.rack12" is "host1"); ids from other tools' files ("server.1" in a rack
// the importer named) keep every segment, so no two rows read the same.
QString shortName(const std::string& id, const std::string& parentId) {
    size_t common = 0;
    for (size_t i = 0; i < id.size() && i < parentId.size() && id[i] == parentId[i]; ++i)
        if (id[i] == '.') common = i + 1;
    if (id.size() > parentId.size() && id.compare(0, parentId.size(), parentId) == 0 &&
        id[parentId.size()] == '.')
        common = parentId.size() + 1; // the parent's whole id, then a dot
    return QString::fromStdString(id.substr(common));
}

} // namespace

TopologyTreeModel::TopologyTreeModel(QObject* parent) : QAbstractItemModel(parent) {}

void TopologyTreeModel::setDocument(const TopologyDocument* doc) {
    beginResetModel();
    doc_ = doc;
    podComputeRacks_ = {};
    rackRowInPod_.clear();
    podRow_.clear();
    hostRow_.clear();
    if (doc_) {
        const Topology& t = doc_->topology();
        std::vector<int32_t> podOfComputeRack(t.racks.size(), kNone);
        for (size_t r = 0; r < t.racks.size(); ++r)
            if (!doc_->index().hostsOfRack(int32_t(r)).empty())
                podOfComputeRack[r] = t.podOfRack(int32_t(r));
        podComputeRacks_ = ChildList::build(t.pods.size(), podOfComputeRack);
        rackRowInPod_.assign(t.racks.size(), kNone);
        for (size_t p = 0; p < t.pods.size(); ++p) {
            const auto racks = podComputeRacks_.of(int32_t(p));
            for (size_t k = 0; k < racks.size(); ++k)
                rackRowInPod_[size_t(racks[k])] = int32_t(k);
        }
        podRow_.assign(t.pods.size(), 0);
        for (size_t c = 0; c < t.clusters.size(); ++c) {
            const auto pods = doc_->index().podsOfCluster(int32_t(c));
            for (size_t k = 0; k < pods.size(); ++k)
                podRow_[size_t(pods[k])] = int32_t(k);
        }
        hostRow_.assign(t.hosts.size(), 0);
        for (size_t r = 0; r < t.racks.size(); ++r) {
            const auto hosts = doc_->index().hostsOfRack(int32_t(r));
            for (size_t k = 0; k < hosts.size(); ++k)
                hostRow_[size_t(hosts[k])] = int32_t(k);
        }
    }
    endResetModel();
}

QModelIndex TopologyTreeModel::make(int row, EntityKind kind, int32_t entity) const {
    return createIndex(row, 0, encode(kind, entity));
}

int TopologyTreeModel::childCount(EntityKind kind, int32_t e) const {
    switch (kind) {
    case EntityKind::Cluster:
        return int(doc_->index().podsOfCluster(e).size());
    case EntityKind::Pod:
        return int(podComputeRacks_.of(e).size());
    case EntityKind::Rack:
        return int(doc_->index().hostsOfRack(e).size());
    case EntityKind::Host:
        return doc_->topology().hosts[size_t(e)].gpuCount;
    default:
        return 0;
    }
}

int TopologyTreeModel::rowInParent(EntityKind kind, int32_t e) const {
    switch (kind) {
    case EntityKind::Cluster:
        return e;
    case EntityKind::Pod:
        return podRow_[size_t(e)];
    case EntityKind::Rack:
        return rackRowInPod_[size_t(e)];
    case EntityKind::Host:
        return hostRow_[size_t(e)];
    case EntityKind::Gpu:
        return doc_->topology().gpus[size_t(e)].local;
    default:
        return -1;
    }
}

QModelIndex TopologyTreeModel::index(int row, int column, const QModelIndex& parent) const {
    if (!doc_ || row < 0 || column < 0 || column >= ColumnCount || row >= rowCount(parent))
        return {};
    if (!parent.isValid()) return createIndex(row, column, encode(EntityKind::Cluster, row));
    const EntityKind k = kindOf(parent.internalId());
    const int32_t e = entityIndexOfId(parent.internalId());
    const TopologyIndex& ix = doc_->index();
    switch (k) {
    case EntityKind::Cluster:
        return createIndex(row, column, encode(EntityKind::Pod, ix.podsOfCluster(e)[size_t(row)]));
    case EntityKind::Pod:
        return createIndex(row, column,
                           encode(EntityKind::Rack, podComputeRacks_.of(e)[size_t(row)]));
    case EntityKind::Rack:
        return createIndex(row, column, encode(EntityKind::Host, ix.hostsOfRack(e)[size_t(row)]));
    case EntityKind::Host:
        return createIndex(
            row, column, encode(EntityKind::Gpu, doc_->topology().hosts[size_t(e)].firstGpu + row));
    default:
        return {};
    }
}

QModelIndex TopologyTreeModel::parent(const QModelIndex& child) const {
    if (!doc_ || !child.isValid()) return {};
    const Topology& t = doc_->topology();
    const int32_t e = entityIndexOfId(child.internalId());
    EntityKind pk;
    int32_t p;
    switch (kindOf(child.internalId())) {
    case EntityKind::Pod:
        pk = EntityKind::Cluster, p = t.pods[size_t(e)].cluster;
        break;
    case EntityKind::Rack:
        pk = EntityKind::Pod, p = t.podOfRack(e);
        break;
    case EntityKind::Host:
        pk = EntityKind::Rack, p = t.hosts[size_t(e)].rack;
        break;
    case EntityKind::Gpu:
        pk = EntityKind::Host, p = t.gpus[size_t(e)].host;
        break;
    default:
        return {};
    }
    return make(rowInParent(pk, p), pk, p);
}

int TopologyTreeModel::rowCount(const QModelIndex& parent) const {
    if (!doc_) return 0;
    if (!parent.isValid()) return int(doc_->topology().clusters.size());
    if (parent.column() != 0) return 0;
    return childCount(kindOf(parent.internalId()), entityIndexOfId(parent.internalId()));
}

int TopologyTreeModel::columnCount(const QModelIndex&) const {
    return ColumnCount;
}

QVariant TopologyTreeModel::data(const QModelIndex& index, int role) const {
    if (!doc_ || !index.isValid()) return {};
    const EntityKind k = kindOf(index.internalId());
    const int32_t e = entityIndexOfId(index.internalId());
    const Topology& t = doc_->topology();
    if (role == EntityKindRole) return int(k);
    if (role == EntityIndexRole) return e;
    if (role == Qt::ToolTipRole) return QString::fromStdString(t.nameOf({k, e}));
    if (role == Qt::TextAlignmentRole && index.column() == GpusColumn)
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    if (role != Qt::DisplayRole) return {};
    switch (index.column()) {
    case NameColumn:
        if (k == EntityKind::Cluster) return QString::fromStdString(t.clusters[size_t(e)].name);
        if (k == EntityKind::Gpu) return QStringLiteral("gpu%1").arg(t.gpus[size_t(e)].local);
        {
            const QModelIndex up = parent(index);
            const std::string parentId =
                up.isValid() ? t.nameOf({kindOf(up.internalId()), entityIndexOfId(up.internalId())})
                             : std::string();
            return shortName(t.nameOf({k, e}), parentId);
        }
    case KindColumn:
        if (k == EntityKind::Cluster)
            return QStringLiteral("cluster (%1)")
                .arg(QString::fromUtf8(toString(t.clusters[size_t(e)].fabric).data()));
        return QString::fromUtf8(toString(k).data());
    case GpusColumn: {
        long long gpus = 1;
        if (k == EntityKind::Cluster) gpus = doc_->index().gpusOfCluster(e);
        if (k == EntityKind::Pod) gpus = doc_->index().gpusOfPod(e);
        if (k == EntityKind::Rack) {
            gpus = 0;
            for (int32_t h : doc_->index().hostsOfRack(e))
                gpus += t.hosts[size_t(h)].gpuCount;
        }
        if (k == EntityKind::Host) gpus = t.hosts[size_t(e)].gpuCount;
        return QLocale().toString(gpus);
    }
    }
    return {};
}

QVariant TopologyTreeModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case NameColumn:
        return tr("Name");
    case KindColumn:
        return tr("Kind");
    case GpusColumn:
        return tr("GPUs");
    }
    return {};
}

QModelIndex TopologyTreeModel::indexOf(Endpoint e) const {
    if (!doc_ || e.index < 0 || size_t(e.index) >= doc_->topology().count(e.kind)) return {};
    const Topology& t = doc_->topology();
    switch (e.kind) {
    case EntityKind::Cluster:
    case EntityKind::Pod:
    case EntityKind::Host:
    case EntityKind::Gpu:
        return make(rowInParent(e.kind, e.index), e.kind, e.index);
    case EntityKind::Rack:
        if (rackRowInPod_[size_t(e.index)] == kNone) return {};
        return make(rackRowInPod_[size_t(e.index)], e.kind, e.index);
    case EntityKind::Nic: {
        const Nic& n = t.nics[size_t(e.index)];
        return indexOf(n.gpu != kNone ? Endpoint{EntityKind::Gpu, n.gpu}
                                      : Endpoint{EntityKind::Host, n.host});
    }
    case EntityKind::Switch: {
        // The nearest shown place: its host, its rack, its pod, its cluster.
        const Switch& s = t.switches[size_t(e.index)];
        QModelIndex i;
        if (s.host != kNone) i = indexOf({EntityKind::Host, s.host});
        if (!i.isValid() && s.rack != kNone) i = indexOf({EntityKind::Rack, s.rack});
        if (!i.isValid() && s.pod != kNone) i = indexOf({EntityKind::Pod, s.pod});
        if (!i.isValid() && s.cluster != kNone) i = indexOf({EntityKind::Cluster, s.cluster});
        return i;
    }
    default:
        return {};
    }
}

Endpoint TopologyTreeModel::entityOf(const QModelIndex& index) {
    if (!index.isValid()) return {EntityKind::Cluster, kNone};
    return {kindOf(index.internalId()), entityIndexOfId(index.internalId())};
}

} // namespace cs::views
