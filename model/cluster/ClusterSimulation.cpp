#include "ClusterSimulation.h"

#include "FabricFaults.h"
#include "FabricRouter.h"
#include "JointSchedule.h"
#include "RunOptions.h"
#include "SharedFabric.h"
#include "StepBreakdown.h"
#include "StorageTraffic.h"
#include "TrainingEfficiency.h"
#include "TrainingStepModel.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>

namespace cs {
namespace {

constexpr double kEpsS = 1e-6;
// Steps of each job simulated when jobs meet (JointSchedule.h), the most jobs in one joint run,
// the events one may take (then each job's steps so far count), and the phases steps start at.
// Two jobs meet where each keeps a common link busy a tenth of its step or more alone: below,
// their bursts there overlap a hundredth of the time or less, and what they lose to each
// other is within the engine's noise.
constexpr int kJointSteps = 2;
constexpr size_t kMaxJointJobs = 4;
constexpr long long kJointEvents = 400'000;
constexpr double kMinMeetingBusy = 0.10;
constexpr double kGoldenRatio = 0.6180339887498949;
constexpr long long kMaxCheckpointEvents = 20'000'000;

struct Job {
    const WorkloadJob* spec = nullptr;
    ModelSpec model;
    GpuSpec gpu;
    ParallelConfig parallel; // with the scheduler's GPUs once started
    ClusterJobResult r;
    bool submitted = false, queued = false, running = false;
    JobLinkLoad load;               // bytes per step alone; stepS: its step now
    std::vector<uint8_t> shareable; // per entry of load: a link between two switches
    double computeS = 0;            // of its step alone, on its slowest stage
    // What a stored run's frames need, shared with them (its GPUs: parallel.gpuPool).
    std::shared_ptr<const std::vector<std::pair<int32_t, float>>> bytesShared;
    // Failures: no progress until pausedUntilS (detection and restart); the steps at its last
    // checkpoint and the run time since.
    double pausedUntilS = 0, checkpointSteps = 0, sinceCheckpointS = 0;
    // Checkpoints: what one writes, how long it takes alone on its hosts, the storage
    // servers' write rates then; the write under way: bytes left, its rate now, and whether it
    // shared the storage with another job's.
    double checkpointBytes = 0, checkpointAloneS = 0;
    std::shared_ptr<const std::vector<float>> checkpointServerBps;
    bool writing = false, writeShared = false;
    double writeLeftBytes = 0, writeBps = 0, writeElapsedS = 0;
    std::set<std::string> checkpointMet; // jobs it wrote a checkpoint with
    double runLeftS = 0;                 // a job given a duration: its run time left
    bool estimatedUnderFailure = false;  // its step was found with some part down
    bool refusedAtStart = false;         // too large for the cluster: never queued
    bool waitsForRepair = false;         // cut off by a failed part: tried again after a repair
    // Its step's schedule and fabric classes for joint simulations (built when it first meets
    // another job), and a count of its estimates, which keys the joint runs' results.
    std::shared_ptr<const StepProgram> program;
    int version = 0;
    std::map<int32_t, ClusterJobResult::Meeting> meetings; // by link
};

class ClusterSimulator {
public:
    ClusterSimulator(const TopologyDocument& doc, const Workload& w, double spanS,
                     const ClusterProgressFn& progress, const ClusterFrameFn& onFrame)
        : doc_(doc), w_(w), spanS_(spanS), progress_(progress), onFrame_(onFrame),
          scheduler_(doc.topology(), w.scheduler, w.podCrossing, w.seed) {
        applyFaults();
    }

    ClusterRunResult run() {
        prepareJobs();
        std::vector<size_t> order(jobs_.size()); // by submission
        for (size_t i = 0; i < order.size(); ++i)
            order[i] = i;
        std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
            return jobs_[a].spec->submitS < jobs_[b].spec->submitS;
        });
        size_t nextSubmit = 0;
        // The next job to arrive's time (none: infinity), and the progress so far.
        auto nextArrival = [&](size_t next) {
            return next < order.size() ? jobs_[order[next]].spec->submitS
                                       : std::numeric_limits<double>::infinity();
        };
        auto reportProgress = [&](size_t submitted) {
            if (progress_) progress_(double(submitted + ended_) / double(2 * jobs_.size() + 1));
        };
        double t = 0;
        // Each event submits, starts or ends a job, or ends the span.
        // (A restart adds the moment its job resumes.)
        const size_t maxEvents = 6 * jobs_.size() + 3 * w_.failures.size() * (jobs_.size() + 1) + 4;
        for (size_t event = 0; event < maxEvents; ++event) {
            // At each moment: ends (above), repairs, failures, arrivals, then the scheduler.
            repairDue(t);
            failDue(t);
            while (nextSubmit < order.size() &&
                   jobs_[order[nextSubmit]].spec->submitS <= t + kEpsS) {
                Job& j = jobs_[order[nextSubmit++]];
                j.submitted = true;
                j.queued = !j.refusedAtStart;
            }
            const bool changed = schedule(t);
            if (changed) {
                share(t);
                shareStorage();
            }
            sample(t);
            frame(t);
            reportProgress(nextSubmit);
            const bool busy = std::any_of(jobs_.begin(), jobs_.end(),
                                          [](const Job& j) { return j.running || j.queued; });
            if (!busy && nextSubmit == order.size() && spanS_ <= 0) break; // all ended
            // Checkpoints start and end between the events above, without a frame of their own
            // (they change no job's GPUs or fabric share).
            double next = nextEvent(t, nextArrival(nextSubmit));
            for (double write = nextCheckpointEvent(t); write < next - kEpsS;
                 write = nextCheckpointEvent(t)) {
                advance(t, write);
                t = write;
                checkpointsDue(t);
                // Long stretches of checkpoints alone still report, and can be cancelled.
                if (checkpointEvents_ % 4096 == 0) reportProgress(nextSubmit);
                next = nextEvent(t, nextArrival(nextSubmit));
            }
            if (!std::isfinite(next)) break; // nothing runs, nothing comes
            advance(t, next);
            t = next;
            endDue(t);
            checkpointsDue(t);
            for (const Job& j : jobs_) // a restarted job resumes: the shares change
                if (j.running && std::abs(j.pausedUntilS - t) <= kEpsS) changed_ = true;
            if (spanS_ > 0 && t >= spanS_ - kEpsS) break;
        }
        return result(t);
    }

private:
    // The next arrival (given), failure, repair, job end, restarted job resuming or the
    // span's end.
    double nextEvent(double t, double nextArrival) const {
        double next = nextArrival;
        if (nextFailure_ < w_.failures.size()) next = std::min(next, w_.failures[nextFailure_].atS);
        for (const auto& [repairAt, part] : down_)
            next = std::min(next, repairAt);
        for (const Job& j : jobs_)
            if (j.running) next = std::min(next, endOf(j, t));
        if (spanS_ > 0) next = std::min(next, spanS_);
        // A job resuming after a restart starts computing again: a frame of its own.
        for (const Job& j : jobs_)
            if (j.running && j.pausedUntilS > t + kEpsS) next = std::min(next, j.pausedUntilS);
        return next;
    }

    // The next checkpoint to start (a job's stepping reaches its interval) or to be written.
    double nextCheckpointEvent(double t) {
        double next = std::numeric_limits<double>::infinity();
        for (const Job& j : jobs_) {
            if (!j.running || j.load.stepS <= 0) continue;
            const double from = std::max(t, j.pausedUntilS);
            if (j.writing && j.writeBps > 0)
                next = std::min(next, from + j.writeLeftBytes / j.writeBps);
            else if (!j.writing && j.spec->run.checkpointIntervalS > 0)
                next = std::min(next, from + std::max(0.0, j.spec->run.checkpointIntervalS -
                                                               j.sinceCheckpointS));
        }
        if (std::isfinite(next) && ++checkpointEvents_ > kMaxCheckpointEvents) {
            // Hostile intervals (a millisecond over days): refused rather than run for hours,
            // naming the job that checkpoints most often.
            std::optional<size_t> worst;
            for (size_t i = 0; i < jobs_.size(); ++i) {
                const double interval = jobs_[i].spec->run.checkpointIntervalS;
                if (jobs_[i].running && interval > 0 &&
                    (!worst || interval < jobs_[*worst].spec->run.checkpointIntervalS))
                    worst = i;
            }
            const size_t k = worst.value_or(0);
            throw InputException({w_.fileName, 0, 0,
                                  (jobs_[k].spec->generated ? "mix (" + jobs_[k].spec->name + ")"
                                                            : "jobs[" + std::to_string(k) + "]") +
                                      ".run.checkpointInterval",
                                  "the jobs' checkpoints make more than " +
                                      std::to_string(kMaxCheckpointEvents) +
                                      " checkpoint events over the run (this job's every " +
                                      std::to_string(jobs_[k].spec->run.checkpointIntervalS) +
                                      " s): give longer intervals or a shorter span"});
        }
        return next;
    }

    // The fabric as the design's faults and the failures now unrepaired leave it, its
    // capacities, and the hosts it cuts off.
    void applyFaults() {
        FabricFaults now;
        for (const auto& [repairAt, part] : down_)
            now.failed.push_back(part);
        const FabricFaults faults =
            mergedFaults(doc_.params() ? doc_.params()->faults : FabricFaults{}, now);
        faulty_ =
            faults.empty() ? nullptr : std::make_unique<Topology>(topologyWithFaults(doc_, faults));
        t_ = faulty_ ? faulty_.get() : &doc_.topology();
        capacity_ = FabricRouter(*t_, doc_.index()).capacities(FabricTransports(*t_));
        // A host is cut off when a GPU's backend NIC has no working link to a switch (its
        // traffic goes out through its own NIC).
        std::vector<uint8_t> nicUp(t_->nics.size(), 0);
        for (const Link& l : t_->links) {
            if (l.gbps <= 0) continue;
            if (l.a.kind == EntityKind::Nic && l.b.kind == EntityKind::Switch)
                nicUp[size_t(l.a.index)] = 1;
            if (l.b.kind == EntityKind::Nic && l.a.kind == EntityKind::Switch)
                nicUp[size_t(l.b.index)] = 1;
        }
        std::vector<uint8_t> cutOff(t_->hosts.size(), 0);
        for (size_t n = 0; n < t_->nics.size(); ++n) {
            const Nic& nic = t_->nics[n];
            if (nic.role == NicRole::Backend && nic.host != kNone && nic.gpu != kNone && !nicUp[n])
                cutOff[size_t(nic.host)] = 1;
        }
        scheduler_.setDown(std::move(cutOff));
    }

    void failDue(double t) {
        while (nextFailure_ < w_.failures.size() && w_.failures[nextFailure_].atS <= t + kEpsS) {
            const WorkloadFailure& f = w_.failures[nextFailure_++];
            down_.emplace(t + f.repairS, f.part);
            FabricFaults one;
            one.failed.push_back(f.part);
            const std::vector<int32_t> links = failedLinks(doc_, one);
            applyFaults();
            for (Job& j : jobs_)
                if (j.running && crosses(j, links)) restart(j, t);
            changed_ = true;
        }
    }

    void repairDue(double t) {
        bool repaired = false;
        while (!down_.empty() && down_.begin()->first <= t + kEpsS) {
            down_.erase(down_.begin());
            repaired = true;
        }
        if (!repaired) return;
        applyFaults();
        for (Job& j : jobs_)
            j.waitsForRepair = false;
        // Jobs whose routes went around a failed part get them back.
        for (Job& j : jobs_)
            if (j.running && j.estimatedUnderFailure) estimateAlone(j);
        changed_ = true;
    }

    static bool crosses(const Job& j, const std::vector<int32_t>& links) {
        for (const auto& [r, bytes] : j.load.bytesPerStep)
            if (std::binary_search(links.begin(), links.end(), r / 2)) return true;
        return false;
    }

    // The job loses what it did since its last checkpoint and restarts on the fabric left;
    // where that cuts its GPUs off it goes back to the queue (in its place by priority and
    // submission).
    void restart(Job& j, double t) {
        ++j.r.restarts;
        j.r.lostSteps += j.r.steps - j.checkpointSteps;
        j.r.steps = j.checkpointSteps;
        j.sinceCheckpointS = 0;
        j.writing = false; // a checkpoint being written is lost with the rest
        j.pausedUntilS =
            t + j.spec->run.failureTimes.detectionS + j.spec->run.failureTimes.restartS;
        if (estimateAlone(j)) return;
        j.running = false;
        j.queued = true;
        scheduler_.release(j.r.hosts);
        j.r.hosts.clear(); // it gets hosts again when it starts again
    }

    // Each job's model, GPU and configuration, checked before anything runs: a job that cannot
    // run on this cluster whatever the others do is an error in the workload.
    void prepareJobs() {
        jobs_.resize(w_.jobs.size());
        for (size_t i = 0; i < jobs_.size(); ++i) {
            Job& j = jobs_[i];
            j.spec = &w_.jobs[i];
            const std::string at = j.spec->generated ? "mix (" + j.spec->name + ").run."
                                                     : "jobs[" + std::to_string(i) + "].run.";
            if (const std::optional<InputError> e = jobRunError(j.spec->run))
                throw InputException({w_.fileName, 0, 0, at + e->field,
                                      "job \"" + j.spec->name + "\": " + e->message});
            j.model = *modelOf(j.spec->run);
            j.gpu = *findGpu(j.spec->run.gpu);
            j.parallel = withResolvedDefaults(j.model, j.spec->run.parallel);
            // The GPUs no fault of the design cuts off.
            if (j.parallel.gpus() > scheduler_.freeGpus()) {
                const std::string why = "job \"" + j.spec->name + "\" needs " +
                                        std::to_string(j.parallel.gpus()) +
                                        " GPUs (TP x CP x PP x DP); the cluster has " +
                                        std::to_string(scheduler_.freeGpus());
                // A listed job is the user's error; a drawn one is refused and the rest run.
                if (!j.spec->generated)
                    throw InputException({w_.fileName, 0, 0, at + "parallel.dp", why});
                j.r.state = ClusterJobState::Refused;
                j.r.error = "mix.sizes: " + why;
                j.refusedAtStart = true;
                ++ended_;
            }
            j.r.name = j.spec->name;
            j.r.model = j.model.name;
            j.r.gpus = j.parallel.gpus();
            j.r.priority = j.spec->priority;
            j.r.submitS = j.spec->submitS;
        }
        for (const WorkloadFailure& f : w_.failures) {
            FabricFaults one;
            one.failed.push_back(f.part);
            try {
                checkFaultIds(doc_, one);
            } catch (const InputException& e) {
                throw InputException({w_.fileName, 0, 0,
                                      "failures[" + std::to_string(f.index) + "].part",
                                      e.error().message});
            }
        }
    }

    // Starts the queued jobs that fit, highest priority first, then first submitted; without
    // backfill the first that does not fit holds the rest. True when any started.
    bool schedule(double t) {
        std::vector<size_t> queue;
        for (size_t i = 0; i < jobs_.size(); ++i)
            if (jobs_[i].queued) queue.push_back(i);
        std::stable_sort(queue.begin(), queue.end(), [&](size_t a, size_t b) {
            if (jobs_[a].spec->priority != jobs_[b].spec->priority)
                return jobs_[a].spec->priority > jobs_[b].spec->priority;
            return jobs_[a].spec->submitS < jobs_[b].spec->submitS;
        });
        bool changed = ended_ != endedSeen_ || changed_;
        endedSeen_ = ended_;
        changed_ = false;
        for (size_t i : queue) {
            Job& j = jobs_[i];
            if (j.waitsForRepair) continue;
            const auto hosts = scheduler_.place(j.r.gpus, uint64_t(i));
            if (!hosts) {
                if (!w_.backfill) break;
                continue;
            }
            j.queued = false;
            start(j, *hosts, t);
            changed = true;
        }
        return changed;
    }

    void start(Job& j, const std::vector<int32_t>& hosts, double t) {
        j.parallel.gpuPool = std::make_shared<const std::vector<int32_t>>(scheduler_.gpusOf(hosts));
        if (!estimateAlone(j)) {
            // Cut off by a failed part (it runs on the fabric without the failures): it waits
            // for a repair. Otherwise it cannot run on these hosts at all.
            if (!down_.empty() && runsWithoutFailures(j)) {
                j.queued = true;
                j.waitsForRepair = true;
                return;
            }
            j.r.state = ClusterJobState::Refused;
            j.r.endS = t;
            ++ended_;
            return;
        }
        j.r.hosts = hosts;
        j.r.hostsFromS = t;
        checkpointAlone(j);
        if (j.r.startS < 0) {
            j.r.startS = t;
            j.runLeftS = j.spec->durationS;
        }
        std::set<int> pods, racks;
        for (int32_t h : hosts)
            pods.insert(scheduler_.podOf(h)), racks.insert(scheduler_.rackOf(h));
        j.r.pods = int(pods.size());
        j.r.racks = int(racks.size());
        scheduler_.take(hosts);
        j.running = true;
    }

    // Whether the job runs on its hosts with only the design's faults.
    bool runsWithoutFailures(const Job& j) {
        if (!designOnly_) {
            const FabricFaults design = doc_.params() ? doc_.params()->faults : FabricFaults{};
            designOnly_ = std::make_unique<Topology>(
                design.empty() ? doc_.topology() : topologyWithFaults(doc_, design));
        }
        try {
            (void)estimateStep(*designOnly_, doc_.index(), j.model, j.gpu, j.parallel);
            ++estimates_;
            return true;
        } catch (const InputException&) {
            return false;
        }
    }

    // The job's step alone on its hosts and the fabric as it is now, and the bytes it puts on
    // each link. False when it cannot run there (an expert group across NVLink domains, a GPU
    // cut off): the error is kept.
    bool estimateAlone(Job& j) {
        try {
            const StepEstimate e = estimateStep(*t_, doc_.index(), j.model, j.gpu, j.parallel);
            ++estimates_;
            j.r.aloneStepS = e.stepS;
            j.estimatedUnderFailure = !down_.empty();
            j.computeS = e.breakdown.slowest()[StepPart::Compute];
            j.r.error.clear();
            j.load = {};
            j.load.stepS = e.stepS;
            j.shareable.clear();
            j.program.reset();
            ++j.version;
            for (size_t r = 0; r < e.linkBytesPerStep.size(); ++r)
                if (e.linkBytesPerStep[r] > 0) {
                    j.load.bytesPerStep.emplace_back(int32_t(r), float(e.linkBytesPerStep[r]));
                    const Link& l = t_->links[r / 2];
                    j.shareable.push_back(l.a.kind == EntityKind::Switch &&
                                          l.b.kind == EntityKind::Switch);
                }
            j.bytesShared =
                std::make_shared<const std::vector<std::pair<int32_t, float>>>(j.load.bytesPerStep);
            return true;
        } catch (const InputException& e) {
            j.r.error = e.error().field.empty() ? e.error().message
                                                : e.error().field + ": " + e.error().message;
            return false;
        }
    }

    // The step of each running job. A job that meets no other on a link between switches runs
    // as alone; jobs that meet (directly or through others) run their steps together in one
    // flow simulation (JointSchedule.h), their transfers sharing the links as they overlap.
    void share(double t) {
        // A job restarting sends nothing until it resumes (an event of its own).
        std::vector<Job*> running;
        for (Job& j : jobs_)
            if (j.running && j.pausedUntilS <= t + kEpsS) running.push_back(&j);
        std::vector<const JobLinkLoad*> loads;
        for (Job* j : running)
            loads.push_back(&j->load);
        const std::vector<CapacityLeft> left = capacityLeft(loads, capacity_);
        // Where two jobs meet materially: on a link between switches that each keeps busy at
        // least kMinMeetingBusy of its step alone (their bursts there can overlap); per pair,
        // the most of the two's smaller busy fraction over their common links.
        std::unordered_map<int32_t, std::vector<std::pair<size_t, double>>> on;
        for (size_t k = 0; k < running.size(); ++k) {
            const Job& j = *running[k];
            for (size_t i = 0; i < j.load.bytesPerStep.size(); ++i) {
                if (!j.shareable[i]) continue;
                const auto [r, bytes] = j.load.bytesPerStep[i];
                const double busy = busyFraction(bytes, j.r.aloneStepS, capacity_[size_t(r)]);
                if (busy >= kMinMeetingBusy) on[r].emplace_back(k, busy);
            }
        }
        std::map<std::pair<size_t, size_t>, double> pairBusy;
        for (const auto& [r, users] : on)
            for (size_t x = 0; x < users.size(); ++x)
                for (size_t y = x + 1; y < users.size(); ++y) {
                    const auto key = std::minmax(users[x].first, users[y].first);
                    double& b = pairBusy[{key.first, key.second}];
                    b = std::max(b, std::min(users[x].second, users[y].second));
                }
        // Each job runs with the jobs it meets most, up to kMaxJointJobs together (a bound on
        // a joint run's cost); one that meets none, alone.
        std::vector<std::vector<std::pair<double, size_t>>> partners(running.size());
        for (const auto& [pr, busy] : pairBusy) {
            partners[pr.first].emplace_back(busy, pr.second);
            partners[pr.second].emplace_back(busy, pr.first);
        }
        for (size_t k = 0; k < running.size(); ++k) {
            auto& p = partners[k];
            if (p.empty()) {
                running[k]->load.stepS = running[k]->r.aloneStepS;
                continue;
            }
            std::sort(p.begin(), p.end(), std::greater<>());
            std::vector<Job*> together{running[k]};
            for (size_t i = 0; i < p.size() && together.size() < kMaxJointJobs; ++i)
                together.push_back(running[p[i].second]);
            running[k]->load.stepS = jointSteps(together).front();
        }
        for (size_t k = 0; k < running.size(); ++k) {
            Job& j = *running[k];
            auto& timeline = j.r.stepTimeline;
            if (timeline.empty() || std::abs(timeline.back().second / j.load.stepS - 1) > 1e-9)
                timeline.emplace_back(t, j.load.stepS);
            for (const CapacityLeft::Meeting& m : left[k].meetings) {
                ClusterJobResult::Meeting& kept = j.meetings[m.direction / 2];
                kept.link = m.direction / 2;
                kept.othersBusy = std::max(kept.othersBusy, m.othersBusy);
                for (int other : m.jobs) {
                    const std::string& name = running[size_t(other)]->r.name;
                    if (std::find(kept.jobs.begin(), kept.jobs.end(), name) == kept.jobs.end())
                        kept.jobs.push_back(name);
                }
            }
        }
    }

    // The steps of jobs that meet, simulated together over a few steps of each; each job's
    // step as it ran is the mean of its steps. Their first steps start at staggered phases
    // (job i at the fractional part of i x the golden ratio of its step): jobs started at
    // different moments. Kept per set of jobs and their estimates.
    std::vector<double> jointSteps(const std::vector<Job*>& jobs) {
        // The same jobs in any order (the first's step is asked for): one key, one run.
        std::vector<std::pair<const Job*, int>> key;
        for (const Job* j : jobs)
            key.emplace_back(j, j->version);
        std::sort(key.begin(), key.end());
        const auto pick = [&](const std::vector<double>& steps) {
            std::vector<double> out;
            for (const Job* j : jobs)
                for (size_t i = 0; i < key.size(); ++i)
                    if (key[i].first == j) out.push_back(steps[i]);
            return out;
        };
        if (const auto hit = jointCache_.find(key); hit != jointCache_.end())
            return pick(hit->second);
        std::vector<Job*> ordered;
        for (const auto& [j, version] : key)
            ordered.push_back(const_cast<Job*>(j));
        std::vector<JointJob> joint;
        for (size_t i = 0; i < ordered.size(); ++i) {
            Job& j = *ordered[i];
            if (!j.program) {
                (void)estimateStep(*t_, doc_.index(), j.model, j.gpu, j.parallel, j.program);
                ++estimates_;
            }
            const double phase = std::fmod(double(i) * kGoldenRatio, 1.0);
            joint.push_back({j.program, phase * j.r.aloneStepS});
        }
        const std::vector<JointJobSteps> ran = runJointSchedule(joint, kJointSteps);
        ++jointRuns_;
        std::vector<double> steps;
        for (size_t i = 0; i < jobs.size(); ++i)
            steps.push_back(ran[i].stepS.empty()
                                ? jobs[i]->r.aloneStepS
                                : std::max(jobs[i]->r.aloneStepS, ran[i].meanStepS()));
        jointCache_.emplace(std::move(key), steps);
        return steps;
    }

    double endOf(const Job& j, double t) const {
        if (j.spec->run.steps > 0) {
            // Its steps left after the checkpoint it writes now; a checkpoint it starts on the
            // way comes first, an event of its own.
            const double stepsS =
                std::max(0.0, double(j.spec->run.steps) - j.r.steps) * j.load.stepS;
            const double writeS = j.writing ? j.writeLeftBytes / std::max(j.writeBps, 1e-9) : 0.0;
            return std::max(t, j.pausedUntilS) + writeS + stepsS;
        }
        return std::max(t, j.pausedUntilS) + std::max(0.0, j.runLeftS);
    }

    // Progress from `from` to `to`, with no checkpoint starting or written in between: steps,
    // or a checkpoint's bytes (the job steps no further until it is written).
    void advance(double from, double to) {
        for (Job& j : jobs_) {
            if (!j.running) continue;
            const double dt = to - std::max(from, j.pausedUntilS);
            if (dt <= 0) continue;
            j.runLeftS -= dt;
            if (j.writing) {
                j.writeLeftBytes = std::max(0.0, j.writeLeftBytes - j.writeBps * dt);
                j.writeElapsedS += dt;
                continue;
            }
            j.r.runS += dt;
            if (j.load.stepS <= 0) continue;
            j.r.steps += dt / j.load.stepS;
            auto& at = j.r.stepsAt;
            if (at.empty() || at.back().first != j.load.stepS) at.emplace_back(j.load.stepS, 0.0);
            at.back().second += dt / j.load.stepS;
            j.sinceCheckpointS += dt;
        }
    }

    // Checkpoints written by now and those due to start (after an interval of stepping); the
    // storage shared anew among the writers.
    void checkpointsDue(double t) {
        for (Job& j : jobs_) {
            if (!j.running || j.pausedUntilS > t + kEpsS) continue;
            const double interval = j.spec->run.checkpointIntervalS;
            // Written, to within what the clock resolves at this time (a write end rounded to
            // `t` must end here, or time would stand still).
            const double resolvedBytes =
                std::max(1e-9 * j.checkpointBytes + 1,
                         j.writeBps * std::max(kEpsS, 4 * std::numeric_limits<double>::epsilon() *
                                                          std::abs(t)));
            if (j.writing && j.writeLeftBytes <= resolvedBytes) {
                j.writing = false;
                j.checkpointSteps = j.r.steps;
                ++j.r.checkpoints;
                j.r.checkpointTimeS += j.writeElapsedS; // writes lost or cut off do not count
                j.r.checkpointsShared += j.writeShared;
            } else if (!j.writing && interval > 0 && j.sinceCheckpointS >= interval - kEpsS) {
                j.sinceCheckpointS = 0;
                j.writing = j.checkpointBytes > 0;
                j.writeShared = false;
                j.writeLeftBytes = j.checkpointBytes;
                j.writeElapsedS = 0;
                if (!j.writing) j.checkpointSteps = j.r.steps;
            }
        }
        shareStorage();
    }

    // The job's checkpoint on its hosts alone: the sharded training state (16 bytes a
    // parameter, as a single run's) written from each host over the frontend to storage.
    void checkpointAlone(Job& j) {
        const double sustained = StorageFabric{}.sustainedBytesPerS;
        j.checkpointBytes = 16.0 * j.model.parameters();
        const StorageFlows f = checkpointFlows(
            doc_, j.r.hosts, sustained, efficiency::kStorageGoodput,
            j.checkpointBytes / double(std::max<size_t>(1, j.r.hosts.size())), &storageRoutes_);
        j.checkpointAloneS = f.writeS > 0 ? f.writeS : j.checkpointBytes / sustained;
        j.r.aloneCheckpointS = j.checkpointAloneS;
        j.checkpointServerBps = std::make_shared<const std::vector<float>>(f.serverBps);
    }

    // The jobs writing checkpoints share the storage system's sustained write rate, max-min
    // fair: each gets an equal part, or what it writes alone (its hosts' frontend links), if
    // that is less, and the others what it leaves.
    void shareStorage() {
        const double sustained = StorageFabric{}.sustainedBytesPerS;
        std::vector<Job*> writers;
        for (Job& j : jobs_)
            if (j.running && j.writing) writers.push_back(&j);
        auto aloneBps = [](const Job* j) { return j->checkpointBytes / j->checkpointAloneS; };
        std::sort(writers.begin(), writers.end(),
                  [&](const Job* a, const Job* b) { return aloneBps(a) < aloneBps(b); });
        double left = sustained;
        for (size_t k = 0; k < writers.size(); ++k) {
            Job& j = *writers[k];
            j.writeBps = std::min(aloneBps(&j), left / double(writers.size() - k));
            left -= j.writeBps;
            if (writers.size() < 2) continue;
            j.writeShared = true;
            for (const Job* other : writers)
                if (other != &j) j.checkpointMet.insert(other->r.name);
        }
    }

    void endDue(double t) {
        for (Job& j : jobs_) {
            if (!j.running || endOf(j, t) > t + kEpsS) continue;
            if (j.spec->run.steps > 0) j.r.steps = double(j.spec->run.steps);
            j.running = false;
            j.r.state = ClusterJobState::Done;
            j.r.endS = t;
            scheduler_.release(j.r.hosts);
            ++ended_;
        }
    }

    void frame(double t) {
        if (!onFrame_) return;
        std::vector<ClusterFrameJob> running;
        for (size_t i = 0; i < jobs_.size(); ++i) {
            const Job& j = jobs_[i];
            if (!j.running) continue;
            ClusterFrameJob f;
            f.job = int(i);
            f.gpus = j.parallel.gpuPool;
            f.stepS = j.load.stepS;
            const bool paused = j.pausedUntilS > t + kEpsS;
            f.computeFraction = paused ? 0 : std::min(1.0, j.computeS / j.load.stepS);
            if (!paused) f.bytesPerStep = j.bytesShared;
            // Its writes to storage, on average over its checkpoint interval: the rate alone
            // while it writes, for the part of the interval it would write alone.
            const double interval = j.spec->run.checkpointIntervalS;
            if (!paused && interval > 0 && j.checkpointServerBps) {
                f.checkpointServerBps = j.checkpointServerBps;
                f.checkpointWeight = j.checkpointAloneS / (interval + j.r.checkpointS());
            }
            running.push_back(std::move(f));
        }
        onFrame_(t, running);
    }

    void sample(double t) {
        FragmentationSample s;
        s.atS = t;
        s.freeGpus = scheduler_.freeGpus();
        s.largestFreeBlock = scheduler_.largestFreeBlock();
        s.freeGpusPerPod = scheduler_.freeGpusPerPod();
        for (const Job& j : jobs_) {
            s.queued += j.queued;
            s.running += j.running;
        }
        s.idleWhileWaiting = s.queued > 0 ? s.freeGpus : 0;
        fragmentation_.push_back(std::move(s));
    }

    ClusterRunResult result(double endS) {
        ClusterRunResult out;
        out.scheduler = w_.scheduler;
        out.simulatedS = endS;
        out.totalGpus = scheduler_.totalGpus();
        out.stepEstimates = estimates_;
        out.jointRuns = jointRuns_;
        out.fragmentation = std::move(fragmentation_);
        for (Job& j : jobs_) {
            ClusterJobResult r = std::move(j.r);
            if (j.running) r.state = ClusterJobState::Running;
            if ((r.state == ClusterJobState::Waiting && !j.submitted) || j.refusedAtStart)
                r.waitS = 0;
            else if (r.startS >= 0)
                r.waitS = r.startS - r.submitS;
            else
                r.waitS = std::max(0.0, endS - r.submitS);
            r.checkpointMet.assign(j.checkpointMet.begin(), j.checkpointMet.end());
            const double stepped = r.steps + r.lostSteps;
            r.stepS = stepped > 0 ? r.runS / stepped : r.aloneStepS;
            for (auto& [link, m] : j.meetings)
                r.meetings.push_back(std::move(m));
            std::stable_sort(
                r.meetings.begin(), r.meetings.end(),
                [](const auto& a, const auto& b) { return a.othersBusy > b.othersBusy; });
            if (r.meetings.size() > kMaxMeetings) r.meetings.resize(kMaxMeetings);
            out.jobs.push_back(std::move(r));
        }
        return out;
    }

    const TopologyDocument& doc_;
    const Workload& w_;
    double spanS_;
    const ClusterProgressFn& progress_;
    const ClusterFrameFn& onFrame_;
    ClusterScheduler scheduler_;
    std::unique_ptr<Topology> faulty_;
    std::unique_ptr<Topology> designOnly_;    // the fabric with no failure down, made when asked
    const Topology* t_ = nullptr;             // the fabric now: faulty_ or the document's
    std::multimap<double, std::string> down_; // failed parts by repair time
    size_t nextFailure_ = 0;
    bool changed_ = false; // a failure or repair changed what runs where
    std::vector<double> capacity_;
    std::vector<Job> jobs_;
    std::vector<FragmentationSample> fragmentation_;
    size_t ended_ = 0, endedSeen_ = 0;
    long long estimates_ = 0;
    long long jointRuns_ = 0; // joint simulations of jobs that meet
    std::map<std::vector<std::pair<const Job*, int>>, std::vector<double>> jointCache_;
    long long checkpointEvents_ = 0;  // checkpoint starts and ends looked for (a bound)
    StorageRouteCache storageRoutes_; // every job's checkpoints go to the same storage ToRs
};

} // namespace

ClusterRunResult simulateCluster(const TopologyDocument& doc, const Workload& w, double spanS,
                                 const ClusterProgressFn& progress, const ClusterFrameFn& onFrame) {
    return ClusterSimulator(doc, w, spanS, progress, onFrame).run();
}

} // namespace cs
