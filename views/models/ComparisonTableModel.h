#pragma once
// The comparison table of two runs (RunComparison.h): one row per figure, columns A, B and the
// difference B - A, each in its unit; the difference is green where B is better, red where it
// is worse.
#include "RunComparison.h"

#include <QAbstractTableModel>

namespace cs::views {

class ComparisonTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { FigureColumn, AColumn, BColumn, DeltaColumn, ColumnCount };
    using QAbstractTableModel::QAbstractTableModel;
    // Step time, cost per GPU and power first, then the figures that differ, then the
    // unchanged ones, greyed.
    void setComparison(RunComparison c);
    const RunComparison& comparison() const { return comparison_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

private:
    RunComparison comparison_;
};

} // namespace cs::views
