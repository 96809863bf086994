#pragma once
// The Jobs list of a run with many jobs (a cluster run, or a recording whose series name their
// jobs): per job its name, GPUs, state, start, end, wait and slowdown against the same job
// alone, blank where the run does not say. It lists what it is handed.
#include "RunJobs.h"

#include <QAbstractTableModel>
#include <QColor>

namespace cs::views {

class JobsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        NameColumn,
        GpusColumn,
        StateColumn,
        StartColumn,
        EndColumn,
        WaitColumn,
        SlowdownColumn,
        ColumnCount
    };
    using QAbstractTableModel::QAbstractTableModel;

    void setJobs(std::vector<RunJob> jobs);
    const std::vector<RunJob>& jobs() const { return jobs_; }
    const RunJob& job(int row) const { return jobs_[size_t(row)]; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

private:
    std::vector<RunJob> jobs_;
};

// "1h 02m 05s" for seconds, "" for NaN.
QString jobTimeText(double s);
// Job k's colour in the view when it colours by job (RunJobs.h's jobColourFraction).
QColor jobColour(size_t k);

} // namespace cs::views
