#pragma once
// What a chart plots, kept at full resolution beside the downsampled graph: the series a
// chart's hover readout, clock crosshair and CSV export read. Plain data, no widgets.
#include "RunReader.h"

#include <QString>

#include <optional>
#include <vector>

namespace cs::views {

struct ChartSeries {
    QString name;                   // as the readout and the CSV name it
    QString unit;                   // of the scaled value: "%", "TB/s", "GB/s", "s"
    const Series* source = nullptr; // owned by the run overview or the widget
    double scale = 1;               // stored value x scale = value in `unit`
};

// The value holding at tsNs (a frame holds until the next one); none before the first
// sample or after the series' end plus one frame.
std::optional<double> valueAtNs(const Series& s, int64_t tsNs);

// "12.5 %", "1.23 TB/s": three significant digits, the unit after a space.
QString formatValue(double v, const QString& unit);

// A CSV cell: quoted when it holds a comma, a quote or a newline.
QByteArray csvField(const QString& s);

// One row per sample: series,unit,time_s,value (and time_utc when the run has a wall-clock
// start, ns since the epoch). Values in the series' own unit, as plotted.
QByteArray chartCsv(const std::vector<ChartSeries>& series, int64_t wallStartNs);

} // namespace cs::views
