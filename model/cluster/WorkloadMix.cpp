#include "WorkloadMix.h"

#include "RunOptions.h"

#include <algorithm>
#include <cmath>
#include <random>

namespace cs {

WorkloadMix readWorkloadMix(JsonObjectReader& r) {
    WorkloadMix m;
    m.jobs = int(r.integer("jobs", 1, (long long)kMaxWorkloadJobs, m.jobs));
    m.seed = uint64_t(r.integer("seed", 0, (1LL << 53), (long long)m.seed));
    m.arrivalSpanS = r.number("arrivalSpanS", 0, 366 * 86400.0, m.arrivalSpanS);
    m.minDurationS = r.number("minDurationS", 1, 366 * 86400.0, m.minDurationS);
    m.maxDurationS = r.number("maxDurationS", 1, 366 * 86400.0, m.maxDurationS);
    if (m.maxDurationS < m.minDurationS)
        r.fail("maxDurationS",
               "expected at least minDurationS (" + std::to_string(m.minDurationS) + " s)");
    if (r.has("sizes")) {
        const QJsonArray sizes = r.array("sizes", 64);
        if (sizes.isEmpty()) r.fail("sizes", "expected at least one size");
        m.sizes.clear();
        for (qsizetype i = 0; i < sizes.size(); ++i) {
            JsonObjectReader s(sizes[i], r.pathOf("sizes").child(int(i)));
            MixSize size;
            size.gpus = int(s.integer("gpus", 8, 1 << 20));
            if (size.gpus % 8 != 0) s.fail("gpus", "expected a multiple of 8 (whole hosts)");
            const RunSpec run = mixJobRun(size.gpus);
            if (run.parallel.gpus() != size.gpus)
                s.fail("gpus", "expected a multiple of " +
                                   std::to_string(run.parallel.tp * run.parallel.pp) +
                                   " for the model a job of this size trains (TP x PP)");
            size.weight = s.number("weight", 0, 1e9, 1);
            s.finish();
            m.sizes.push_back(size);
        }
        double total = 0;
        for (const MixSize& s : m.sizes)
            total += s.weight;
        if (total <= 0) r.fail("sizes", "expected a size of positive weight");
    }
    r.finish();
    return m;
}

RunSpec mixJobRun(int gpus) {
    RunSpec run = defaultRunSpec();
    ParallelConfig& p = run.parallel;
    // Micro-batches per replica: enough to keep the pipeline's bubble small.
    int micro = 16;
    if (gpus <= 256) {
        run.model = "llama3-8b";
        p.tp = 8, p.pp = 1;
    } else if (gpus <= 2048) {
        run.model = "llama3-70b";
        p.tp = 8, p.pp = 4;
    } else {
        run.model = "llama3-405b";
        p.tp = 8, p.pp = 16, micro = 32;
    }
    p.dp = std::max(1, gpus / (p.tp * p.pp));
    p.batchSeqs = p.dp * micro;
    return run;
}

std::vector<WorkloadJob> generateJobs(const WorkloadMix& mix) {
    std::mt19937_64 rng(mix.seed);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::vector<double> arrivals(size_t(mix.jobs));
    for (double& a : arrivals)
        a = unit(rng) * mix.arrivalSpanS;
    std::sort(arrivals.begin(), arrivals.end());
    std::vector<double> weights;
    for (const MixSize& s : mix.sizes)
        weights.push_back(s.weight);
    std::discrete_distribution<size_t> size(weights.begin(), weights.end());
    std::vector<WorkloadJob> jobs;
    for (int i = 0; i < mix.jobs; ++i) {
        WorkloadJob j;
        j.name = "mix-" + std::to_string(i + 1);
        j.generated = true;
        j.submitS = arrivals[size_t(i)];
        j.run = mixJobRun(mix.sizes[size(rng)].gpus);
        j.run.steps = 0;
        const double lo = std::log(mix.minDurationS), hi = std::log(mix.maxDurationS);
        j.durationS = std::exp(lo + (hi - lo) * unit(rng));
        jobs.push_back(std::move(j));
    }
    return jobs;
}

} // namespace cs
