#include "ComparisonTableModel.h"

#include <QBrush>
#include <QColor>

#include <algorithm>

namespace cs::views {

void ComparisonTableModel::setComparison(RunComparison c) {
    // What a design decision turns on first: step time, cost per GPU, power; then the figures
    // that differ; then the unchanged ones (greyed), each group in the table's order.
    auto rank = [](const ComparisonRow& r) {
        const char* lead[] = {"stepTimeS", "design.costPerGpu", "design.powerW"};
        for (int i = 0; i < 3; ++i)
            if (r.key == lead[i]) return i;
        return deltaShown(r) ? 3 : 4;
    };
    std::stable_sort(
        c.rows.begin(), c.rows.end(),
        [&](const ComparisonRow& x, const ComparisonRow& y) { return rank(x) < rank(y); });
    beginResetModel();
    comparison_ = std::move(c);
    endResetModel();
}

int ComparisonTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(comparison_.rows.size());
}

int ComparisonTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ComparisonTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const ComparisonRow& r = comparison_.rows[size_t(index.row())];
    const auto column = Column(index.column());
    if (role == Qt::DisplayRole) {
        switch (column) {
        case FigureColumn:
            return QString::fromStdString(r.label);
        case AColumn:
            return QString::fromStdString(formatFigure(r.a, r.unit));
        case BColumn:
            return QString::fromStdString(formatFigure(r.b, r.unit));
        case DeltaColumn:
            return QString::fromStdString(formatDelta(r));
        case ColumnCount:
            break;
        }
    }
    if (role == Qt::TextAlignmentRole && column != FigureColumn)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ForegroundRole && !deltaShown(r))
        return QBrush(QColor(128, 128, 128)); // unchanged: greyed, the differences stand out
    if (role == Qt::ForegroundRole && column == DeltaColumn && deltaShown(r)) {
        const bool better = (r.delta() < 0) == r.lowerIsBetter;
        return QBrush(better ? QColor(0, 140, 90) : QColor(200, 60, 0));
    }
    if (role == Qt::ToolTipRole) return QString::fromStdString(r.key);
    return {};
}

QVariant ComparisonTableModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal) return {};
    if (role == Qt::ToolTipRole && (section == AColumn || section == BColumn))
        return QString::fromStdString(section == AColumn ? comparison_.nameA : comparison_.nameB);
    if (role != Qt::DisplayRole) return {};
    switch (Column(section)) {
    case FigureColumn:
        return tr("Figure");
    case AColumn:
        return tr("A");
    case BColumn:
        return tr("B");
    case DeltaColumn:
        return tr("B - A");
    case ColumnCount:
        break;
    }
    return {};
}

} // namespace cs::views
