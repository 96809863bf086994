#include "RunEventsModel.h"

#include "Duration.h"

#include <QBrush>
#include <QColor>

#include <algorithm>

namespace cs::views {

void RunEventsModel::setEvents(const std::vector<RunEvent>& events, const Topology* topology) {
    all_.clear();
    for (const RunEvent& e : events)
        if (e.kind != EventKind::Step) all_.push_back(e);
    std::stable_sort(all_.begin(), all_.end(),
                     [](const RunEvent& a, const RunEvent& b) { return a.tsNs < b.tsNs; });
    topology_ = topology;
    refill();
}

void RunEventsModel::setShowCheckpoints(bool on) {
    if (on == showCheckpoints_) return;
    showCheckpoints_ = on;
    refill();
}

void RunEventsModel::refill() {
    beginResetModel();
    events_.clear();
    for (const RunEvent& e : all_)
        if (showCheckpoints_ || e.kind != EventKind::Checkpoint) events_.push_back(e);
    endResetModel();
}

int RunEventsModel::nextAfter(int64_t ns) const {
    const auto it = std::upper_bound(events_.begin(), events_.end(), ns,
                                     [](int64_t t, const RunEvent& e) { return t < e.tsNs; });
    return it == events_.end() ? -1 : int(it - events_.begin());
}

int RunEventsModel::previousBefore(int64_t ns) const {
    const auto it = std::lower_bound(events_.begin(), events_.end(), ns,
                                     [](const RunEvent& e, int64_t t) { return e.tsNs < t; });
    return it == events_.begin() ? -1 : int(it - events_.begin()) - 1;
}

int RunEventsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(events_.size());
}

int RunEventsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RunEventsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= int(events_.size())) return {};
    const RunEvent& e = events_[size_t(index.row())];
    if (role == Qt::ForegroundRole && index.column() == KindColumn) {
        // As the timeline marks them: failures red, restarts green, checkpoints blue.
        switch (e.kind) {
        case EventKind::Failure:
            return QBrush(QColor(200, 40, 40));
        case EventKind::Restart:
            return QBrush(QColor(30, 140, 60));
        case EventKind::Checkpoint:
            return QBrush(QColor(40, 90, 200));
        default:
            return {};
        }
    }
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole) return {};
    switch (index.column()) {
    case TimeColumn:
        return QString::fromStdString(formatElapsed(e.tsNs));
    case KindColumn:
        return eventKindLabel(e.kind);
    case EntityColumn:
        return e.entity && topology_ ? QString::fromStdString(topology_->nameOf(*e.entity))
                                     : QString();
    case DetailColumn:
        return QString::fromStdString(e.detail);
    }
    return {};
}

QVariant RunEventsModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case TimeColumn:
        return tr("Time");
    case KindColumn:
        return tr("Event");
    case EntityColumn:
        return tr("Where");
    case DetailColumn:
        return tr("Detail");
    }
    return {};
}

QString eventKindLabel(EventKind kind) {
    const std::string_view k = toString(kind);
    QString label = QString::fromLatin1(k.data(), qsizetype(k.size()));
    if (!label.isEmpty()) label[0] = label[0].toUpper();
    return label;
}

} // namespace cs::views
