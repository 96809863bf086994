#pragma once
// A chart saved for a report: a picture (PNG, SVG) of the chart as drawn, or its data (CSV).
#include "ChartData.h"

#include <QSize>
#include <QString>

#include <functional>

class QCustomPlot;

namespace cs::views {

enum class ChartFileKind { Png, Svg, Csv };

// From the path's suffix (.png, .svg, .csv; any case); none for another suffix.
std::optional<ChartFileKind> chartFileKindOf(const QString& path);

// Writes the file atomically (beside it, then renamed). A picture is sizePx (an empty size:
// the chart's own). Returns the error to show, or an empty string.
QString exportChart(QCustomPlot* plot, const std::vector<ChartSeries>& data, int64_t wallStartNs,
                    const QString& path, QSize sizePx = {});
// The same for any chart: `csv` makes the data's table, asked only for a .csv.
QString exportChart(QCustomPlot* plot, const std::function<QByteArray()>& csv, const QString& path,
                    QSize sizePx = {});

} // namespace cs::views
