#include "StepTimeDistribution.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>

namespace cs {
namespace {

// The clock's factor on a step that starts `tS` into the run.
struct DiurnalClock {
    double startOfDayS = 0;
    double factor(double tS) const {
        return 1 + kDiurnalPeakToPeak / 2 *
                       std::sin(2 * std::numbers::pi * (startOfDayS + tS) / kDaySeconds);
    }
};

} // namespace

StepTimeDistribution stepTimeDistribution(const RunResult& r, const RunSpec& spec) {
    StepTimeDistribution out;
    const StepEstimate& e = r.step;
    if (!(e.stepS > 0) || r.steps <= 0) return out;
    const double compute = e.breakdown.slowest()[StepPart::Compute];
    if (e.stragglerSlowdown > 1)
        out.slowestGpuShare = compute * (1 - 1 / e.stragglerSlowdown) / e.stepS;

    std::mt19937_64 rng(spec.seed);
    const DiurnalClock clock{std::uniform_real_distribution<double>(0, kDaySeconds)(rng)};
    const bool span = spec.spanS > 0;
    // A long run in samples: each walked step stands for `stride` steps in a row.
    const long long stride = std::max(1LL, (r.steps + kMaxWalkedSteps - 1) / kMaxWalkedSteps);
    std::vector<Interruption> stops = span ? r.interruptions : std::vector<Interruption>{};
    std::sort(stops.begin(), stops.end(),
              [](const Interruption& a, const Interruption& b) { return a.atS < b.atS; });
    const double interval = span ? spec.checkpointIntervalS : 0;
    double nextCheckpointS = interval > 0 ? interval : INFINITY;
    size_t nextStop = 0;
    const Interruption* degraded = nullptr;
    std::vector<std::pair<double, double>> times; // a step's time, the steps it stands for
    times.reserve(size_t(std::min(r.steps, kMaxWalkedSteps)));
    double tS = 0;
    for (long long k = 0; k < r.steps && (!span || tS < spec.spanS); k += stride) {
        // A stop throws the time to its restart; a failed fabric part slows what follows.
        while (nextStop < stops.size() && stops[nextStop].atS <= tS) {
            const Interruption& x = stops[nextStop++];
            tS = std::max(tS, x.atS + x.lostS);
            degraded = x.degradedStepS > 0 ? &x : degraded;
        }
        if (degraded && tS >= degraded->atS + degraded->lostS + degraded->degradedS)
            degraded = nullptr;
        double stepS = (degraded ? degraded->degradedStepS : e.stepS) * clock.factor(tS);
        // Checkpoints fall due on the wall clock; the step then waits for the write.
        int due = 0;
        for (; nextCheckpointS <= tS + stepS * double(stride); nextCheckpointS += interval)
            ++due;
        const double sampleS = stepS + (due > 0 ? r.checkpointS : 0);
        times.emplace_back(sampleS, double(stride));
        tS += stepS * double(stride) + due * r.checkpointS;
    }
    const double share = out.slowestGpuShare;
    out = distributionOfSteps(std::move(times));
    out.slowestGpuShare = share;
    return out;
}

StepTimeDistribution distributionOfSteps(std::vector<std::pair<double, double>> stepAndCount) {
    StepTimeDistribution out;
    std::erase_if(stepAndCount, [](const auto& x) { return !(x.second > 0) || !(x.first > 0); });
    if (stepAndCount.empty()) return out;
    std::sort(stepAndCount.begin(), stepAndCount.end());
    double total = 0, sum = 0;
    for (const auto& [stepS, count] : stepAndCount) {
        total += count;
        sum += stepS * count;
    }
    // Nearest rank: the first step time whose cumulative count reaches q of the steps.
    auto percentile = [&](double q) {
        double seen = 0;
        for (const auto& [stepS, count] : stepAndCount)
            if ((seen += count) >= q * total * (1 - 1e-12)) return stepS;
        return stepAndCount.back().first;
    };
    out.steps = std::llround(total);
    out.meanS = sum / total;
    out.p50S = percentile(0.50);
    out.p99S = percentile(0.99);
    out.maxS = stepAndCount.back().first;
    return out;
}

} // namespace cs
