#pragma once
// The figures of a run's summary (and a study's record) as people read them: a label, a unit
// and the scale from the summary's value to it (MFU: a fraction, read as %). One table for the
// comparison, the study's text and its chart, so that MFU reads "41.2 %" everywhere.
#include <span>
#include <string>
#include <string_view>

namespace cs {

struct SummaryFigure {
    const char* key; // a path in the summary: "breakdown.exposedTpS", "cost.perGpu"
    const char* label;
    const char* unit;
    double scale; // the summary's value to the unit
    bool lowerIsBetter;
    bool compared; // a row of every run comparison
};

// In the order a comparison lists them; then the other figures studies record most.
std::span<const SummaryFigure> summaryFigures();
const SummaryFigure* findSummaryFigure(std::string_view key); // null: not in the table
// `value` of the figure `key` as the comparison shows it ("41.2 %", "6.40 s", "$41,267");
// a figure not in the table as the number it is.
std::string summaryFigureText(std::string_view key, double value);

} // namespace cs
