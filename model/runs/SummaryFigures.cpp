#include "SummaryFigures.h"

#include "RunComparison.h"

#include <QString>

namespace cs {
namespace {

constexpr SummaryFigure kFigures[] = {
    {"stepTimeS", "Step time", "s", 1, true, true},
    {"stepTimeDistribution.p99", "Step time, p99", "s", 1, true, true},
    {"mfu", "MFU", "%", 100, false, true},
    {"tflopsPerGpu", "Throughput per GPU", "TFLOP/s", 1, false, true},
    {"breakdown.exposedTpS", "Exposed TP communication", "s", 1, true, true},
    {"breakdown.exposedCpS", "Exposed CP communication", "s", 1, true, true},
    {"breakdown.exposedPpS", "Exposed PP communication", "s", 1, true, true},
    {"breakdown.exposedDpS", "Exposed DP communication", "s", 1, true, true},
    {"breakdown.exposedEpS", "Exposed EP communication", "s", 1, true, true},
    {"breakdown.hostBoundS", "Waiting on the host", "s", 1, true, true},
    {"breakdown.bubbleS", "Pipeline bubble", "s", 1, true, true},
    {"checkpointTimeS", "Checkpoint time", "s", 1, true, true},
    {"tokensPerS", "Tokens per second", "tokens/s", 1, false, false},
    {"bubbleFraction", "Pipeline bubble", "%", 100, true, false},
    {"peakMemoryGiB", "Peak memory", "GiB", 1, true, false},
    {"effectiveTrainingTime", "Effective training time", "%", 100, false, false},
    {"daysToTrain", "Days to train", "days", 1, true, false},
    {"energyMWh", "Energy to train", "MWh", 1, true, false},
    {"meanPowerW", "Mean site power", "MW", 1e-6, true, false},
    {"powerW.total", "Site power", "MW", 1e-6, true, false},
    {"cost.perGpu", "Cost per GPU", "$", 1, true, false},
    {"cost.total", "Cost", "$", 1, true, false},
    {"switches.backend", "Backend switches", "", 1, true, false},
    {"transceivers.total", "Optical transceivers", "", 1, true, false},
};

} // namespace

std::span<const SummaryFigure> summaryFigures() {
    return kFigures;
}

const SummaryFigure* findSummaryFigure(std::string_view key) {
    for (const SummaryFigure& f : kFigures)
        if (key == f.key) return &f;
    return nullptr;
}

std::string summaryFigureText(std::string_view key, double value) {
    if (const SummaryFigure* f = findSummaryFigure(key))
        return formatFigure(value * f->scale, f->unit);
    return QString::number(value, 'g', 6).toStdString();
}

} // namespace cs
