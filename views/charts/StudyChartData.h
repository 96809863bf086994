#pragma once
// What the study chart plots: the variants of a study's results that ran, as points of a
// figure against an axis or another figure, one series per value of a second axis, and the
// Pareto front when both coordinates are figures (cost against step time). Plain data, no
// widgets: the chart, its hover text and its CSV export read it.
#include "StudyStore.h"

#include <QByteArray>
#include <QString>

#include <vector>

namespace cs::views {

// How a figure or an axis reads on a chart.
struct StudyQuantity {
    QString name;     // as the study names it: "cost.perGpu", "run.parallel.placement"
    QString label;    // "Cost per GPU", "Placement"
    QString unit;     // "$", "s", "%", "GiB"; empty for counts and choices
    double scale = 1; // recorded value x scale = value in `unit` (MFU 0.41 -> 41 %)
    bool lowerIsBetter = true;
    bool axis = false;                // one of the study's axes, not a recorded figure
    QString title() const;            // "Cost per GPU ($)", "Placement"
    QString text(double value) const; // "1.23 s", "$41,300", "41.2 %"
};

// "topology", "design.FIELD" and "run.OPTION" are axes; anything else is a figure.
bool isStudyAxisName(const QString& name);
StudyQuantity studyQuantity(const QString& name);
// A JSON axis value as people read it: "fragmented", "4", "true".
QString studyValueText(const QJsonValue& v);

struct StudyPoint {
    double x = 0, y = 0; // in the quantities' units; x: the tick's place on a categorical axis
    int variant = 0;     // VariantResult::index
};

struct StudySeries {
    QString name;                   // "Placement = fragmented"; the figure's label alone
    QString value;                  // "fragmented", "4 Gb/s": the legend's entry under its title
    std::vector<StudyPoint> points; // by x, then variant
};

struct StudyChartRequest {
    QString x;        // an axis or a figure
    QString y;        // a figure
    QString seriesBy; // an axis; empty: one series
};

struct StudyChartData {
    StudyQuantity x, y, seriesBy; // seriesBy.name empty: one series
    std::vector<StudySeries> series;
    // An axis with a value that is not a number: value i of `categories` at x = i, in the
    // order the variants first take them.
    bool categoricalX = false;
    std::vector<QString> categories;
    int ok = 0, failed = 0;
    int missing = 0; // ran, but without the x or y figure (or the series axis)
    // With both coordinates figures: the variants no other beats on both (less is better,
    // or more for MFU and throughput), by x ascending. Empty when x is an axis.
    std::vector<StudyPoint> front;
    bool onFront(int variant) const;
    const StudyPoint* find(int variant) const;
    size_t pointCount() const;
};

StudyChartData studyChartData(const std::vector<VariantResult>& results,
                              const StudyChartRequest& request);

// What the chart shows first: days to train (else step time, else the first figure) against
// cost per GPU when recorded (else the first axis), the series by the axis that leaves most
// points within each series apart on x (lines then join variants that differ in x).
StudyChartRequest defaultStudyChart(const std::vector<QString>& axes,
                                    const std::vector<QString>& figures,
                                    const std::vector<VariantResult>& results);

// For the tooltip: "Variant 3", each parameter ("Oversubscription: 4") and each figure
// ("Step time: 1.23 s"), a line each.
QString studyVariantText(const VariantResult& v);

// One row per point: variant,series,X,Y,pareto_front and then each axis's value; X and Y
// headed by their titles, in their units as plotted (a categorical x as its value's text).
QByteArray studyChartCsv(const StudyChartData& d, const std::vector<VariantResult>& results);

} // namespace cs::views
