#include "JobsModel.h"

#include "ColorMaps.h"
#include "Duration.h"

#include <QColor>

#include <cmath>

namespace cs::views {

QColor jobColour(size_t k) {
    const Rgba c = valueColor(float(jobColourFraction(k)));
    return QColor(c[0], c[1], c[2]);
}

QString jobTimeText(double s) {
    if (std::isnan(s) || s < 0) return {};
    return QString::fromStdString(formatElapsed(int64_t(std::llround(s * 1e9))));
}

void JobsModel::setJobs(std::vector<RunJob> jobs) {
    beginResetModel();
    jobs_ = std::move(jobs);
    endResetModel();
}

int JobsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(jobs_.size());
}

int JobsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant JobsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= int(jobs_.size())) return {};
    const RunJob& j = jobs_[size_t(index.row())];
    if (role == Qt::TextAlignmentRole && index.column() != NameColumn &&
        index.column() != StateColumn)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::DecorationRole && index.column() == NameColumn) {
        return jobColour(size_t(index.row()));
    }
    if (role == Qt::ToolTipRole && index.column() == NameColumn)
        return QString::fromStdString(j.name + (j.model.empty() ? "" : ": " + j.model));
    if (role != Qt::DisplayRole) return {};
    switch (index.column()) {
    case NameColumn:
        return QString::fromStdString(j.name);
    case GpusColumn:
        return QString::number(j.gpus);
    case StateColumn:
        return QString::fromStdString(j.state);
    case StartColumn:
        return jobTimeText(j.startS);
    case EndColumn:
        return jobTimeText(j.endS);
    case WaitColumn:
        return jobTimeText(j.waitS);
    case SlowdownColumn:
        return std::isnan(j.slowdown) ? QString()
                                      : QStringLiteral("×%1").arg(j.slowdown, 0, 'f', 3);
    }
    return {};
}

QVariant JobsModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case NameColumn:
        return tr("Job");
    case GpusColumn:
        return tr("GPUs");
    case StateColumn:
        return tr("State");
    case StartColumn:
        return tr("Start");
    case EndColumn:
        return tr("End");
    case WaitColumn:
        return tr("Waited");
    case SlowdownColumn:
        return tr("Slowdown");
    }
    return {};
}

} // namespace cs::views
