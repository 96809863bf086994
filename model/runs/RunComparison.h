#pragma once
// Two runs side by side, as a designer compares two designs: the figures of each run's summary
// (step time, MFU, exposed communication by kind, checkpoint time) and of each design
// (switches, optics, power, cost per GPU), with the difference B - A. The comparison table of
// the window and `clusterscope compare` print the same rows.
#include <QJsonObject>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace cs {

// What a design needs, as the bill of materials counts it; NaN where unknown.
struct DesignFigures {
    double switches = NAN;
    double transceivers = NAN;
    double powerW = NAN;
    double costPerGpu = NAN;
};

struct ComparisonRow {
    std::string key;   // "stepTimeS", "breakdown.exposedDpS", "design.switches"
    std::string label; // "Step time"
    std::string unit;  // "s", "%", "W", "$"
    double a = NAN, b = NAN;
    bool lowerIsBetter = true;
    double delta() const { return b - a; }
    double relative() const { return a != 0 ? (b - a) / std::fabs(a) : NAN; } // NaN: no base
};

struct RunComparison {
    std::string nameA, nameB;
    std::vector<ComparisonRow> rows;
    const ComparisonRow* find(const std::string& key) const;
};

// The rows from two runs' summaries (RunInfo::summaryJson, as simulate writes it; a recorded
// run has none and its cells stay NaN) and, when known, their designs' figures.
RunComparison compareRuns(const std::string& nameA, const QJsonObject& summaryA,
                          const std::string& nameB, const QJsonObject& summaryB,
                          const DesignFigures& designA = {}, const DesignFigures& designB = {});

// {"a": NAME, "b": NAME, "rows": [{"key", "label", "unit", "a", "b", "delta", "relative"}]}
// (NaN as null).
QJsonObject comparisonToJson(const RunComparison& c);
// A table for a terminal: label, A, B, B - A, relative, each figure in its unit.
std::string comparisonToText(const RunComparison& c);
// One cell as the table shows it: "6.63 s", "41.2 %", "2.4 MW", "$41,300".
std::string formatFigure(double value, const std::string& unit);
// The difference B - A as the table shows it: "+0.60 s (+10.0 %)", "-20 (-20.0 %)", "0.0 %".
std::string formatDelta(const ComparisonRow& r);
// Whether the difference shows at the table's rounding: a 1e-12 s difference is "0.000 s",
// neither better nor worse.
bool deltaShown(const ComparisonRow& r);
// The figures that differ, for a caption under two pictures: step time, cost per GPU and power
// first, then the others in the table's order, at most `most` of them:
// "Step time 6.59 s → 6.45 s (-2.2 %) · Cost per GPU $41,267 → $41,588 (+0.8 %)"; empty when
// none differs.
std::string differencesCaption(const RunComparison& c, size_t most = 4);

} // namespace cs
