#pragma once
// The run's events as a table for the Events dock: time, kind, entity and detail of every
// failure, restart, checkpoint and maintenance (per-step marks left out: a long run has
// millions). It lists what it is handed: no store, no SQL.
#include "RunReader.h"
#include "Topology.h"

#include <QAbstractTableModel>

namespace cs::views {

class RunEventsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { TimeColumn, KindColumn, EntityColumn, DetailColumn, ColumnCount };
    using QAbstractTableModel::QAbstractTableModel;

    // `topology` names the events' entities; it must outlive the model or be replaced.
    void setEvents(const std::vector<RunEvent>& events, const Topology* topology);
    // Checkpoints come every few minutes, thousands in a long run: listed only when asked.
    void setShowCheckpoints(bool on);
    bool showsCheckpoints() const { return showCheckpoints_; }
    const RunEvent& event(int row) const { return events_[size_t(row)]; }
    // The first listed event after `ns` (or before it, going back); -1: none.
    int nextAfter(int64_t ns) const;
    int previousBefore(int64_t ns) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

private:
    void refill();
    std::vector<RunEvent> all_;    // every event but the steps, in time order
    std::vector<RunEvent> events_; // the listed ones
    bool showCheckpoints_ = false;
    const Topology* topology_ = nullptr;
};

// An event's kind as the Events dock and the timeline's tooltips name it: "Failure".
QString eventKindLabel(EventKind kind);

} // namespace cs::views
