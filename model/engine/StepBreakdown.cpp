#include "StepBreakdown.h"

#include <algorithm>

namespace cs {

const std::array<StepPartName, kStepParts>& stepPartNames() {
    static const std::array<StepPartName, kStepParts> names{{
        {StepPart::Compute, "computeS", "Compute"},
        {StepPart::Bubble, "bubbleS", "Bubble"},
        {StepPart::ExposedTp, "exposedTpS", "Exposed TP"},
        {StepPart::ExposedCp, "exposedCpS", "Exposed CP"},
        {StepPart::ExposedPp, "exposedPpS", "Exposed PP"},
        {StepPart::ExposedDp, "exposedDpS", "Exposed DP"},
        {StepPart::ExposedEp, "exposedEpS", "Exposed EP"},
        {StepPart::Optimizer, "optimizerS", "Optimizer"},
        {StepPart::DataLoad, "dataLoadS", "Data loading"},
        {StepPart::Other, "otherS", "Other"},
        {StepPart::HostBound, "hostBoundS", "Host-bound"},
    }};
    return names;
}

double StepParts::totalS() const {
    double sum = 0;
    for (double x : s)
        sum += x;
    return sum;
}

namespace {

// Whether a time lies in a sorted list of disjoint intervals, asked for times that only grow.
class Cursor {
public:
    explicit Cursor(const std::vector<Interval>& list) : list_(list) {}
    bool contains(double t) {
        while (i_ < list_.size() && list_[i_].toS <= t)
            ++i_;
        return i_ < list_.size() && list_[i_].fromS <= t;
    }

private:
    const std::vector<Interval>& list_;
    size_t i_ = 0;
};

void addEnds(std::vector<double>& at, const std::vector<Interval>& list) {
    for (const Interval& x : list) {
        at.push_back(x.fromS);
        at.push_back(x.toS);
    }
}

// When each pass's input was sent (its sender's pass ended) and when it arrived.
class PassInputs {
public:
    explicit PassInputs(const ScheduleResult& r) : p_(r.classes.stages), dualPipe_(r.dualPipe) {
        for (const auto& stage : r.passes)
            for (const PassRecord& x : stage) {
                v_ = std::max(v_, x.chunk + 1);
                m_ = std::max(m_, x.micro + 1);
            }
        passEnd_.assign(size(), -1);
        arrived_.assign(size(), -1);
        for (int s = 0; s < p_; ++s)
            for (const PassRecord& x : r.passes[size_t(s)])
                if (!x.weight) // a weight gradient sends nothing
                    passEnd_[key(s, x.forward, x.chunk, x.micro)] = std::max(x.toS, x.sentS);
        for (const TransferRecord& t : r.transfers) {
            const bool forward = t.kind == TransferRecord::Kind::SendForward;
            if ((forward || t.kind == TransferRecord::Kind::SendBackward) && t.target >= 0)
                arrived_[key(t.target, forward, t.chunk, t.micro)] = t.toS;
        }
    }

    struct Input {
        double sentS = 0, arrivedS = 0;
    };
    // The interleaved schedule's data flow (StepSchedule's completePass, read backwards).
    Input of(int s, const PassRecord& q) const {
        size_t sender = 0;
        if (dualPipe_) {
            // DualPipe: chunk 0 flows up the stages forward, chunk 1 down.
            const int from = s + ((q.forward == (q.chunk == 0)) ? -1 : 1);
            if (from >= 0 && from < p_)
                sender = key(from, q.forward, q.chunk, q.micro);
            else if (q.forward)
                return {}; // the data loader's batch
            else
                sender = key(s, true, q.chunk, q.micro); // the loss
        } else if (q.forward) {
            if (s > 0)
                sender = key(s - 1, true, q.chunk, q.micro);
            else if (q.chunk > 0)
                sender = key(p_ - 1, true, q.chunk - 1, q.micro);
            else
                return {}; // the data loader's batch, there at the start
        } else {
            if (s < p_ - 1)
                sender = key(s + 1, false, q.chunk, q.micro);
            else if (q.chunk < v_ - 1)
                sender = key(0, false, q.chunk + 1, q.micro);
            else
                sender = key(s, true, q.chunk, q.micro); // the loss of its own forward
        }
        const double sent = std::max(0.0, passEnd_[sender]);
        const double arrived = arrived_[key(s, q.forward, q.chunk, q.micro)];
        return {sent, arrived >= 0 ? arrived : sent};
    }

private:
    size_t size() const { return size_t(p_) * 2 * size_t(v_) * size_t(m_); }
    size_t key(int s, bool forward, int c, int j) const {
        return ((size_t(s) * 2 + (forward ? 1 : 0)) * size_t(v_) + size_t(c)) * size_t(m_) +
               size_t(j);
    }
    int p_;
    bool dualPipe_;
    int v_ = 1, m_ = 1;
    std::vector<double> passEnd_, arrived_;
};

// The stage's TP collectives as intervals (one serial stream: finish order is start order).
std::vector<Interval> tpRuns(const ScheduleResult& r, int s) {
    std::vector<Interval> runs;
    for (const TransferRecord& t : r.transfers) {
        if (t.kind != TransferRecord::Kind::Tp || t.stage != s) continue;
        if (!runs.empty() && runs.back().toS >= t.fromS)
            runs.back().toS = std::max(runs.back().toS, t.toS);
        else
            runs.push_back({t.fromS, t.toS});
    }
    return runs;
}

double lastEnd(const std::vector<Interval>& list) {
    double end = 0;
    for (const Interval& x : list)
        end = std::max(end, x.toS);
    return end;
}

struct StepEnds {
    double optimizerFromS = 0, computeEndS = 0, lastReduceS = 0;
};

std::vector<StepSegment> segmentsOfStage(const ScheduleResult& r, int s, const PassInputs& inputs,
                                         const StepEnds& ends) {
    const auto& passes = r.passes[size_t(s)];
    const std::vector<Interval> tp = tpRuns(r, s);
    const double ownReduceEndS = lastEnd(r.reduces[size_t(s)]);
    const double lastPassEndS = passes.empty() ? 0 : passes.back().toS;

    std::vector<double> at{
        0, r.stepS, ends.optimizerFromS, ends.computeEndS, ends.lastReduceS, ownReduceEndS};
    for (const auto* list : {&r.busy[size_t(s)], &r.cpExposed[size_t(s)], &r.epExposed[size_t(s)],
                             &r.hostBound[size_t(s)], &r.compute[size_t(s)], &r.gathers[size_t(s)],
                             &r.reduces[size_t(s)], &r.blocked[size_t(s)], &tp})
        addEnds(at, *list);
    for (const PassRecord& q : passes) {
        const auto in = inputs.of(s, q);
        at.push_back(in.sentS);
        at.push_back(in.arrivedS);
    }
    std::sort(at.begin(), at.end());
    at.erase(std::unique(at.begin(), at.end()), at.end());

    Cursor busy(r.busy[size_t(s)]), cp(r.cpExposed[size_t(s)]), ep(r.epExposed[size_t(s)]),
        host(r.hostBound[size_t(s)]), tpRunning(tp), gathering(r.gathers[size_t(s)]),
        reducing(r.reduces[size_t(s)]), blocked(r.blocked[size_t(s)]);
    size_t next = 0; // the pass now running or next to run
    std::vector<StepSegment> out;
    for (size_t k = 0; k + 1 < at.size(); ++k) {
        const double from = std::max(0.0, at[k]), to = std::min(r.stepS, at[k + 1]);
        if (to <= from) continue;
        const double mid = 0.5 * (from + to);
        while (next < passes.size() && passes[next].toS <= mid)
            ++next;
        StepPart part = StepPart::Other;
        if (next < passes.size() && passes[next].fromS <= mid) { // inside a pass
            part = busy.contains(mid)        ? StepPart::Compute
                   : cp.contains(mid)        ? StepPart::ExposedCp
                   : ep.contains(mid)        ? StepPart::ExposedEp
                   : host.contains(mid)      ? StepPart::HostBound
                   : tpRunning.contains(mid) ? StepPart::ExposedTp
                   : gathering.contains(mid) ? StepPart::ExposedDp
                   : reducing.contains(mid)  ? StepPart::ExposedDp // sharded, without overlap
                                             : StepPart::Other;
        } else if (mid < lastPassEndS) { // waiting for the next pass
            auto in = inputs.of(s, passes[next]);
            // A DualPipe pair waits for both its inputs.
            if (passes[next].paired && passes[next].forward && next + 1 < passes.size()) {
                const auto other = inputs.of(s, passes[next + 1]);
                if (other.arrivedS > in.arrivedS) in = other;
            }
            part = blocked.contains(mid)     ? StepPart::ExposedPp
                   : mid < in.sentS          ? StepPart::Bubble
                   : mid < in.arrivedS       ? StepPart::ExposedPp
                   : gathering.contains(mid) ? StepPart::ExposedDp
                   : reducing.contains(mid)  ? StepPart::ExposedDp
                                             : StepPart::Other;
        } else { // the stage's passes are done
            part = mid >= ends.optimizerFromS ? StepPart::Optimizer
                   : mid < ownReduceEndS      ? StepPart::ExposedDp
                   : mid < ends.computeEndS   ? StepPart::Bubble
                   : mid < ends.lastReduceS   ? StepPart::ExposedDp
                                              : StepPart::Other;
        }
        if (!out.empty() && out.back().part == part && out.back().toS >= from)
            out.back().toS = to;
        else
            out.push_back({from, to, part});
    }
    return out;
}

} // namespace

StepBreakdown breakdownOfStep(const ScheduleResult& r) {
    StepBreakdown b;
    const int stages = r.classes.stages;
    StepEnds ends;
    ends.optimizerFromS = r.stepS - r.optimizerS;
    ends.computeEndS = r.computeEndS;
    for (const auto& list : r.reduces)
        ends.lastReduceS = std::max(ends.lastReduceS, lastEnd(list));
    const PassInputs inputs(r);
    for (int s = 0; s < stages; ++s) {
        b.segments.push_back(segmentsOfStage(r, s, inputs, ends));
        StepParts parts;
        for (const StepSegment& x : b.segments.back())
            parts[x.part] += x.toS - x.fromS;
        b.stages.push_back(parts);
    }
    for (int s = 1; s < stages; ++s)
        if (b.stages[size_t(s)][StepPart::Bubble] <
            b.stages[size_t(b.slowestStage)][StepPart::Bubble])
            b.slowestStage = s;
    return b;
}

} // namespace cs
