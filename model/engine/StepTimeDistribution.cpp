#include "StepTimeDistribution.h"

#include "NearestRank.h"

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
    std::vector<const Interruption*> degraded;    // failed fabric parts not yet repaired
    std::vector<std::pair<double, double>> times; // a step's time, the steps that took it
    times.reserve(size_t(std::min(r.steps, kMaxWalkedSteps)) + 16);
    double tS = 0;
    for (long long k = 0; k < r.steps && (!span || tS < spec.spanS); k += stride) {
        const double count = double(std::min(stride, r.steps - k));
        // A stop throws the time to its restart (no checkpoint is written while the job is
        // down); a failed fabric part slows what follows until its repair.
        while (nextStop < stops.size() && stops[nextStop].atS <= tS) {
            const Interruption& x = stops[nextStop++];
            tS = std::max(tS, x.atS + x.lostS);
            if (x.degradedStepS > 0) degraded.push_back(&x);
        }
        if (interval > 0 && nextCheckpointS <= tS)
            nextCheckpointS += interval * std::ceil((tS - nextCheckpointS) / interval + 1e-12);
        std::erase_if(degraded, [&](const Interruption* x) {
            return tS >= x->atS + x->lostS + x->degradedS;
        });
        double baseS = e.stepS; // the slowest of the parts down at once sets the pace
        for (const Interruption* x : degraded)
            baseS = std::max(baseS, x->degradedStepS);
        const double stepS = baseS * clock.factor(tS);
        // Checkpoints fall due on the wall clock; the step then waits for the write. In a
        // sample of several steps, as many of them as fall due (each once); in one step,
        // every write due.
        double due = 0;
        for (; nextCheckpointS <= tS + stepS * count; nextCheckpointS += interval)
            ++due;
        if (due == 0) {
            times.emplace_back(stepS, count);
        } else if (due < count) {
            times.emplace_back(stepS + r.checkpointS, due);
            times.emplace_back(stepS, count - due);
        } else {
            times.emplace_back(stepS + r.checkpointS * due / count, count);
        }
        tS += stepS * count + due * r.checkpointS;
    }
    const double share = out.slowestGpuShare;
    out = distributionOfSteps(std::move(times));
    out.slowestGpuShare = share;
    return out;
}

StepTimeDistribution distributionOfSteps(std::vector<std::pair<double, double>> stepAndCount) {
    StepTimeDistribution out;
    std::erase_if(stepAndCount, [](const auto& x) {
        return !(x.second > 0 && x.first > 0 && std::isfinite(x.first) && std::isfinite(x.second));
    });
    if (stepAndCount.empty()) return out;
    std::sort(stepAndCount.begin(), stepAndCount.end());
    double total = 0, sum = 0;
    for (const auto& [stepS, count] : stepAndCount) {
        total += count;
        sum += stepS * count;
    }
    out.steps = std::llround(total);
    out.meanS = sum / total;
    out.p50S = nearestRankOfCounted(stepAndCount, 0.50);
    out.p99S = nearestRankOfCounted(stepAndCount, 0.99);
    out.maxS = stepAndCount.back().first;
    return out;
}

} // namespace cs
