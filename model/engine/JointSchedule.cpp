#include "JointSchedule.h"

#include "FabricShare.h"

#include <algorithm>
#include <limits>
#include <map>
#include <numeric>
#include <stdexcept>

namespace cs {
namespace {

constexpr double kNever = std::numeric_limits<double>::infinity();
constexpr long long kMaxEvents = 20'000'000;

// Every job's schedule classes as classes of one share: job j's class k is class offset[j] + k,
// loading the links its own share's class loads. The share keeps the links that can bind and
// its solves, as a single job's does.
struct JointShare {
    std::unique_ptr<FabricShare> share;
    std::vector<int> offset;
};

JointShare jointShare(const std::vector<JointJob>& jobs) {
    JointShare out;
    const FabricShare& first = *jobs.front().program->share;
    out.share = std::make_unique<FabricShare>(first.topology(), first.router(), 0.0);
    for (const JointJob& j : jobs) {
        out.offset.push_back(out.share->classCount());
        const StepProgram& p = *j.program;
        for (int c : p.shareId)
            out.share->addLoads(p.share->resourcesOf(c), p.share->coefficientsOf(c),
                                p.share->capOf(c), p.share->crossesFabric(c));
    }
    return out;
}

struct Running {
    std::unique_ptr<ScheduleStepper> step;
    double offsetS = 0; // its step's start on the common clock
    bool started = false;
};

} // namespace

double JointJobSteps::meanStepS() const {
    if (stepS.empty()) return 0;
    return std::accumulate(stepS.begin(), stepS.end(), 0.0) / double(stepS.size());
}

std::vector<JointJobSteps> runJointSchedule(const std::vector<JointJob>& jobs, int minSteps,
                                            long long maxEvents, JointStats* stats) {
    std::vector<JointJobSteps> out(jobs.size());
    if (jobs.empty()) return out;
    for (const JointJob& j : jobs)
        if (&j.program->share->topology() != &jobs.front().program->share->topology())
            throw std::invalid_argument("joint jobs on different topologies");
    JointShare joint = jointShare(jobs);
    std::vector<Running> run(jobs.size());
    for (size_t j = 0; j < jobs.size(); ++j)
        run[j].offsetS = std::max(0.0, jobs[j].startOffsetS);
    std::vector<int> active;
    std::vector<double> rates;
    std::vector<std::vector<int>> activeOf(jobs.size());
    double now = 0;
    long long events = 0;
    auto atLeast = [&](int n) {
        for (const JointJobSteps& s : out)
            if (int(s.stepS.size()) < n) return false;
        return true;
    };
    while (!atLeast(minSteps) && !(events >= maxEvents && atLeast(1)) && events < kMaxEvents) {
        // Steps due to start; what each can start now.
        for (size_t j = 0; j < jobs.size(); ++j) {
            Running& r = run[j];
            if (!r.started && r.offsetS <= now) {
                r.step = std::make_unique<ScheduleStepper>(jobs[j].program->input);
                r.started = true;
            }
            if (r.started) r.step->startWhatCan();
        }
        // One solve over every job's running transfers whenever any job's changed.
        bool changed = false;
        for (const Running& r : run)
            changed |= r.started && r.step->activeChanged();
        if (changed) {
            active.clear();
            for (size_t j = 0; j < jobs.size(); ++j) {
                activeOf[j].clear();
                if (run[j].started) run[j].step->activeClasses(activeOf[j]);
                for (int k : activeOf[j])
                    active.push_back(joint.offset[j] + k);
            }
            rates.clear();
            if (!active.empty()) joint.share->rates(active, rates);
            size_t at = 0;
            for (size_t j = 0; j < jobs.size(); ++j) {
                if (!run[j].started) continue;
                const size_t n = activeOf[j].size();
                run[j].step->applyRates(activeOf[j], std::span<const double>(rates.data() + at, n));
                at += n;
            }
        }
        // A job none of whose stages or transfers has anything left has ended its step: the
        // next starts after the optimizer, and the others' shares change without it.
        bool ended = false;
        for (size_t j = 0; j < jobs.size(); ++j) {
            Running& r = run[j];
            if (!r.started || r.step->nextEventS() < kNever) continue;
            const ScheduleResult done = r.step->result();
            out[j].stepS.push_back(done.stepS);
            r.offsetS += done.stepS;
            r.started = false;
            r.step.reset();
            ended = true;
        }
        if (ended) {
            for (Running& o : run)
                if (o.started) o.step->requestReshare();
            continue;
        }
        // To the next event of any job (or the next step to start).
        double next = kNever;
        for (const Running& r : run)
            next = std::min(next, r.started ? r.offsetS + r.step->nextEventS() : r.offsetS);
        if (!(next < kNever)) break;
        now = next;
        ++events;
        for (Running& r : run)
            if (r.started) r.step->advanceTo(now - r.offsetS);
    }
    if (stats) stats->events = events, stats->solves = joint.share->solves();
    return out;
}

} // namespace cs
