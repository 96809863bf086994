#include "StepSchedule.h"

#include "PassOrder.h"

#include <algorithm>
#include <deque>
#include <limits>
#include <numeric>
#include <span>
#include <stdexcept>

namespace cs {
namespace {

constexpr double kNever = std::numeric_limits<double>::infinity();

void appendMerged(std::vector<Interval>& list, double from, double to) {
    if (!list.empty() && list.back().toS >= from - 1e-12)
        list.back().toS = std::max(list.back().toS, to);
    else
        list.push_back({from, to});
}

using Kind = TransferRecord::Kind;

struct Transfer {
    Kind kind;
    double readyAtS, bytes, latencyS;
    int stage, chunk, micro, layer; // stage: the sender (gathers, reductions: their stage)
    int target = -1;                // sends: the stage that receives
    bool blocksSender = false;
    bool forward = true; // TP and sharded gathers: the pass it belongs to
    int span = 1;        // DP: layers in the bucket, from `layer` up
    int pass = -1;       // sharded gathers: the pass (position in the stage's order) it is for
};

// A serial stream of transfers of one class.
struct Stream {
    std::deque<int> queue;
    int current = -1;
    bool inLatency = false;
    int fixed = -1; // whether the class's rate is fixed (-1: not asked yet)
    double fixedRate = 0;
    double remaining = 0, rate = 0, latencyEndS = 0, startS = 0, finishS = kNever;
};

enum class StageState { Idle, LayerStart, Phase, Running, Blocked, Done };

class StepSimulation {
public:
    explicit StepSimulation(const ScheduleInput& in)
        : in_(in), p_(in.stages), v_(in.chunks),
          m_(in.dualPipe ? in.microBatches / 2 : in.microBatches),
          classes_(ScheduleClasses::of(p_, in.dualPipe ? 1 : v_)) {
        if (p_ < 1 || v_ < 1 || m_ < 1) throw std::invalid_argument("empty schedule");
        if (in_.dualPipe &&
            (p_ % 2 != 0 || v_ != 2 || in.microBatches % 2 != 0 || in.microBatches < 2 * p_))
            throw std::invalid_argument("DualPipe needs an even number of stages, two chunks "
                                        "and an even number of micro-batches, at least 2 x stages");
        out_.classes = classes_;
        out_.dualPipe = in_.dualPipe;
        wholeBackward_ = in_.backwardLayer;
        wholeBackward_.insert(wholeBackward_.end(), in_.weightLayer.begin(), in_.weightLayer.end());
        out_.compute.resize(size_t(p_));
        out_.busy.resize(size_t(p_));
        out_.passes.resize(size_t(p_));
        out_.layers.resize(size_t(p_));
        out_.cpExposed.resize(size_t(p_));
        out_.epExposed.resize(size_t(p_));
        out_.hostBound.resize(size_t(p_));
        out_.gathers.resize(size_t(p_));
        out_.reduces.resize(size_t(p_));
        out_.blocked.resize(size_t(p_));
        streams_.resize(size_t(classes_.count()));
        out_.rates.resize(size_t(classes_.count()));
        inputFwd_.assign(size_t(p_) * v_ * m_, kNever);
        inputBwd_.assign(size_t(p_) * v_ * m_, kNever);
        for (int j = 0; j < m_; ++j) {
            inputFwd_[index(0, 0, j)] = 0; // the data loader's batch
            if (in_.dualPipe) inputFwd_[index(p_ - 1, 1, j)] = 0;
        }
        stages_.resize(size_t(p_));
        for (int s = 0; s < p_; ++s) {
            Stage& st = stages_[size_t(s)];
            st.order =
                in_.dualPipe ? dualPipeOrder(s, p_, in.microBatches) : stageOrder(s, p_, v_, m_);
            st.firstForward.assign(size_t(v_), -1);
            st.lastBackward.assign(size_t(v_), -1);
            for (int k = 0; k < int(st.order.size()); ++k) {
                const PassOp& op = st.order[size_t(k)];
                if (op.forward && st.firstForward[size_t(op.chunk)] < 0)
                    st.firstForward[size_t(op.chunk)] = k;
                if (!op.forward) st.lastBackward[size_t(op.chunk)] = k;
            }
            st.gatheredAt.assign(size_t(v_), {});
            for (int c = 0; c < v_; ++c)
                st.gatheredAt[size_t(c)].assign(size_t(layers(s, c)), kNever);
            st.passGatheredAt.resize(st.order.size());
            // ZB-H1: stage s defers up to s weight gradients, so its backward hands the
            // gradient on sooner; its activations in flight stay within 1F1B's first stage's p.
            st.weightCap = size_t(s);
        }
        if (in_.weightsSharded)
            for (Stage& st : stages_)
                for (auto& chunk : st.gatheredAt)
                    std::fill(chunk.begin(), chunk.end(), 0.0);
        else
            queueGathers();
    }

    ScheduleResult run() {
        for (;;) {
            startWhatCan();
            reshareIfChanged();
            const double next = nextEventS();
            if (next == kNever) break;
            advanceTo(next);
        }
        return result();
    }

    // Stepped from outside (ScheduleStepper): the fabric transfers running now, and their
    // rates from a solve the caller ran.
    bool activeChanged() const { return activeChanged_; }
    void activeClasses(std::vector<int>& out) const {
        out.clear();
        for (int k = 0; k < classes_.count(); ++k)
            if (streams_[size_t(k)].current >= 0 && !streams_[size_t(k)].inLatency &&
                streams_[size_t(k)].fixed == 0)
                out.push_back(k);
    }
    void applyRates(std::span<const int> active, std::span<const double> rates) {
        activeChanged_ = false;
        ++out_.reshares;
        for (size_t i = 0; i < active.size(); ++i)
            streams_[size_t(active[i])].rate = rates[i];
    }
    void requestReshare() { activeChanged_ = true; }
    double now() const { return now_; }
    ScheduleResult result() {
        for (int s = 0; s < p_; ++s)
            if (stages_[size_t(s)].state != StageState::Done)
                throw std::logic_error("the pipeline schedule deadlocked");
        finish();
        return std::move(out_);
    }

    void startWhatCan() {
        for (bool changed = true; changed;) {
            changed = false;
            for (int s = 0; s < p_; ++s)
                changed |= tryStartStage(s);
            for (int k = 0; k < classes_.count(); ++k)
                changed |= tryStartStream(k);
        }
    }

    double nextEventS() {
        double next = kNever;
        for (const Stage& st : stages_)
            if (st.state == StageState::Running && st.computing)
                next = std::min(next, st.computeEndS);
        for (Stream& q : streams_) {
            q.finishS = kNever;
            if (q.current >= 0) {
                q.finishS = q.inLatency  ? q.latencyEndS
                            : q.rate > 0 ? now_ + q.remaining / q.rate
                                         : kNever;
                next = std::min(next, q.finishS);
            } else if (!q.queue.empty()) {
                next = std::min(next, transfers_[size_t(q.queue.front())].readyAtS);
            }
        }
        return next;
    }

    void advanceTo(double t) {
        const double dt = t - now_;
        now_ = t;
        const double slack = 1e-12 * std::max(1.0, t);
        for (int k = 0; k < classes_.count(); ++k) {
            Stream& q = streams_[size_t(k)];
            if (q.current < 0) continue;
            if (!q.inLatency) {
                q.remaining -= q.rate * dt;
                recordRate(k, t - dt, t, q.rate);
                if (q.finishS > t + slack) continue;
                q.inLatency = true; // the bytes are there; the last step's latency follows
                q.latencyEndS = t + transfers_[size_t(q.current)].latencyS;
                if (!q.fixed) activeChanged_ = true;
            }
            if (q.latencyEndS <= t + slack) completeTransfer(k);
        }
        for (int s = 0; s < p_; ++s) {
            Stage& st = stages_[size_t(s)];
            if (st.state != StageState::Running || !st.computing || st.computeEndS > t + slack)
                continue;
            st.computing = false;
            phaseMaybeDone(s);
        }
    }

private:
    struct Held {
        Transfer t;
        int cls, releaseAt; // the class it goes on; the position whose end releases it
        size_t record;      // its pass in out_.passes of the stage
    };
    struct Stage {
        std::vector<PassOp> order;
        std::vector<Held> held; // DualPipe: outputs that leave with a later pass's
        std::vector<int> firstForward, lastBackward; // per chunk: position in order
        std::vector<std::vector<double>> gatheredAt; // [chunk][layer]
        // Sharded weights, [pass][layer in pass order]: -1 not asked, kNever under way, else
        // when gathered.
        std::vector<std::vector<double>> passGatheredAt;
        // ZB-H1: the pass running (order[next], or a deferred weight gradient), the weight
        // gradients waiting, how many may wait before one runs ahead of a ready pass, and
        // whether the running one is the stage's last.
        PassOp current{true, 0, 0};
        std::deque<PassOp> pendingWeights;
        size_t weightCap = 0;
        bool lastWeight = false;
        int reducesPending = 0; // sharded weights without overlap: the layer waits for these
        int bucketFill = 0;     // layers of the last backward not yet in a reduction
        size_t next = 0;
        StageState state = StageState::Idle;
        double passStartS = 0, layerStartS = 0, phaseStartS = 0, computeEndS = 0, endS = 0;
        int layer = 0, phase = 0;
        bool computing = false, tpWaiting = false;
    };

    size_t index(int s, int c, int j) const {
        return (size_t(s) * size_t(v_) + size_t(c)) * size_t(m_) + size_t(j);
    }
    int layers(int s, int c) const {
        return s < int(in_.layersPerChunk.size()) && c < int(in_.layersPerChunk[size_t(s)].size())
                   ? std::max(1, in_.layersPerChunk[size_t(s)][size_t(c)])
                   : 1;
    }
    int layersOfStage(int s) const {
        int n = 0;
        for (int c = 0; c < v_; ++c)
            n += layers(s, c);
        return n;
    }
    double bytesOf(const std::vector<double>& perStage, int s) const {
        return s < int(perStage.size()) ? perStage[size_t(s)] : 0;
    }
    // A layer's phases: its share of the pass's extra compute first, then the layer's own
    // (none in a chunk that holds only the embedding or the head).
    std::span<const LayerPhase> programOf(int s, const PassOp& op) const {
        const bool real = s < int(in_.layersPerChunk.size()) &&
                          op.chunk < int(in_.layersPerChunk[size_t(s)].size()) &&
                          in_.layersPerChunk[size_t(s)][size_t(op.chunk)] > 0;
        if (!real && !in_.layersPerChunk.empty()) return {};
        if (op.weight) return in_.weightLayer;
        if (op.paired) {
            const auto& paired = op.forward ? in_.forwardLayerPaired : in_.backwardLayerPaired;
            if (!paired.empty()) return paired;
        }
        if (op.forward) return in_.forwardLayer;
        return in_.dualPipe && !op.split ? std::span<const LayerPhase>(wholeBackward_)
                                         : std::span<const LayerPhase>(in_.backwardLayer);
    }
    double extraOf(int s, const PassOp& op) const {
        if (op.weight) return 0;
        const auto& perStage = op.forward ? in_.forwardS : in_.backwardS;
        if (s >= int(perStage.size()) || op.chunk >= int(perStage[size_t(s)].size())) return 0;
        return perStage[size_t(s)][size_t(op.chunk)] / layers(s, op.chunk);
    }

    void push(int cls, Transfer t) {
        if (!in_.share) throw std::invalid_argument("a schedule that moves bytes needs a fabric");
        transfers_.push_back(t);
        streams_[size_t(cls)].queue.push_back(int(transfers_.size()) - 1);
    }

    int bucket() const { return std::max(1, in_.bucketLayers); }

    // Replicated weights: every bucket's gather is due at the start, chunk by chunk in the
    // order the stage first runs them (DualPipe's second half starts with chunk 1), layer by
    // layer.
    void queueGathers() {
        for (int s = 0; s < p_; ++s) {
            const double perLayer = bytesOf(in_.gatherBytes, s) / layersOfStage(s);
            const Stage& st = stages_[size_t(s)];
            std::vector<int> chunks(static_cast<size_t>(v_));
            std::iota(chunks.begin(), chunks.end(), 0);
            std::stable_sort(chunks.begin(), chunks.end(), [&](int a, int b) {
                return unsigned(st.firstForward[size_t(a)]) < unsigned(st.firstForward[size_t(b)]);
            });
            for (int c : chunks)
                for (int l = 0; l < layers(s, c); l += bucket()) {
                    const int span = std::min(bucket(), layers(s, c) - l);
                    if (perLayer <= 0) {
                        auto& at = stages_[size_t(s)].gatheredAt[size_t(c)];
                        std::fill(at.begin() + l, at.begin() + l + span, 0.0);
                        continue;
                    }
                    Transfer t{Kind::Gather, 0, perLayer * span, in_.dpLatencyS, s, c, 0, l};
                    t.span = span;
                    push(classes_.gather(s), t);
                }
        }
    }

    // Sharded weights: the gather of pass k's layer l (pass order), asked for once.
    void askPassGather(int s, size_t k, int l) {
        Stage& st = stages_[size_t(s)];
        const PassOp& op = st.order[k];
        auto& at = st.passGatheredAt[k];
        if (at.empty()) at.assign(size_t(layers(s, op.chunk)), -1.0);
        if (at[size_t(l)] >= 0) return;
        const double perLayer = bytesOf(in_.gatherBytes, s) / layersOfStage(s);
        if (perLayer <= 0) {
            at[size_t(l)] = 0;
            return;
        }
        at[size_t(l)] = kNever;
        Transfer t{Kind::Gather,        now_, perLayer, in_.dpLatencyS, s, op.chunk, op.micro,
                   modelLayer(s, op, l)};
        t.forward = op.forward;
        t.pass = int(k);
        push(classes_.gather(s), t);
    }
    // A pass runs its chunk's layers upwards forward, downwards backward.
    int modelLayer(int s, const PassOp& op, int l) const {
        return op.forward ? l : layers(s, op.chunk) - 1 - l;
    }
    // Sharded weights: layer l of the stage's current pass may start once its weights are
    // there (asking for them, and with overlap for the next layer's, possibly the next pass's).
    bool passLayerGathered(int s) {
        Stage& st = stages_[size_t(s)];
        askPassGather(s, st.next, st.layer);
        if (in_.overlapGather) {
            if (st.layer + 1 < layers(s, st.order[st.next].chunk))
                askPassGather(s, st.next, st.layer + 1);
            else if (st.next + 1 < st.order.size() && !programOf(s, st.order[st.next + 1]).empty())
                askPassGather(s, st.next + 1, 0);
        }
        return st.passGatheredAt[st.next][size_t(st.layer)] <= now_;
    }

    // A gradient bucket of `span` layers from layer l up, ready now.
    void queueReduction(int s, int c, int l, int span, int micro) {
        const double perLayer = bytesOf(in_.reduceBytes, s) / layersOfStage(s);
        if (perLayer <= 0) return;
        Transfer t{Kind::Reduce, now_, perLayer * span, in_.dpLatencyS, s, c, micro, l};
        t.span = span;
        push(classes_.reduce(s), t);
        if (in_.weightsSharded && !in_.overlapReduce) ++stages_[size_t(s)].reducesPending;
    }

    bool inputsReady(int s, const PassOp& op) const {
        const double at = op.forward ? inputFwd_[index(s, op.chunk, op.micro)]
                                     : inputBwd_[index(s, op.chunk, op.micro)];
        return at <= now_;
    }
    bool layerGathered(int s, int c, int l) const {
        const Stage& st = stages_[size_t(s)];
        if (in_.overlapGather) return st.gatheredAt[size_t(c)][size_t(l)] <= now_;
        for (const auto& chunk : st.gatheredAt) // without overlap: every gather first
            for (double at : chunk)
                if (at > now_) return false;
        return true;
    }

    // Moves stage s on as far as it can at now: a new pass, a new layer (the first forward
    // of a chunk runs layer by layer behind its parameter gathers), the next phase.
    bool tryStartStage(int s) {
        Stage& st = stages_[size_t(s)];
        switch (st.state) {
        case StageState::Idle: {
            const bool more = st.next < st.order.size();
            // A DualPipe pair starts once the backward's input is there too.
            const bool pairFirst = more && st.order[st.next].paired && st.order[st.next].forward &&
                                   st.next + 1 < st.order.size();
            const bool ready = more && inputsReady(s, st.order[st.next]) &&
                               (!pairFirst || inputsReady(s, st.order[st.next + 1]));
            if (!st.pendingWeights.empty() && (!ready || st.pendingWeights.size() > st.weightCap)) {
                st.current = st.pendingWeights.front(); // a weight gradient fills the wait
                st.pendingWeights.pop_front();
                st.lastWeight = !more && st.pendingWeights.empty();
            } else if (!more) {
                st.state = StageState::Done;
                return true;
            } else if (!ready) {
                return false;
            } else {
                st.current = st.order[st.next];
            }
            st.layer = 0;
            st.state = StageState::LayerStart;
            ++out_.events;
            return true;
        }
        case StageState::LayerStart: {
            const PassOp& op = st.current;
            if (in_.weightsSharded) {
                // Without overlap each layer waits for the reduction of the one before.
                if (!in_.overlapReduce && st.reducesPending > 0) return false;
                if (!programOf(s, op).empty() && !passLayerGathered(s)) return false;
            } else {
                const bool gated = op.forward && int(st.next) == st.firstForward[size_t(op.chunk)];
                if (gated && !layerGathered(s, op.chunk, st.layer)) return false;
            }
            if (st.layer == 0) st.passStartS = now_; // a pass starts once its first layer can
            st.layerStartS = now_;
            st.phase = -1; // the pass's extra compute, then the layer's phases
            st.state = StageState::Phase;
            return true;
        }
        case StageState::Phase: {
            const PassOp& op = st.current;
            const auto program = programOf(s, op);
            for (;;) {
                if (st.phase >= int(program.size())) return finishLayer(s);
                LayerPhase x =
                    st.phase < 0 ? LayerPhase{extraOf(s, op)} : program[size_t(st.phase)];
                // The host issues the layer while the GPU computes the pass's extra (the
                // head): the GPU waits only for what that leaves.
                if (x.host) x.computeS = std::max(0.0, x.computeS - extraOf(s, op));
                if (x.computeS <= 0 && x.tpBytes <= 0) {
                    ++st.phase;
                    continue;
                }
                st.phaseStartS = now_;
                st.computing = x.computeS > 0;
                st.computeEndS = now_ + x.computeS;
                st.tpWaiting = x.tpBytes > 0;
                if (x.cp)
                    out_.cpExposed[size_t(s)].push_back({now_, st.computeEndS});
                else if (x.ep)
                    out_.epExposed[size_t(s)].push_back({now_, st.computeEndS});
                else if (x.host)
                    out_.hostBound[size_t(s)].push_back({now_, st.computeEndS});
                else if (st.computing)
                    appendMerged(out_.busy[size_t(s)], now_, st.computeEndS);
                if (st.tpWaiting) {
                    Transfer t{Kind::Tp, now_,     x.tpBytes, x.tpCollectives * in_.tpLatencyS,
                               s,        op.chunk, op.micro,  st.layer};
                    t.forward = op.forward;
                    push(classes_.tp(s), t);
                }
                st.state = StageState::Running;
                ++out_.events;
                return true;
            }
        }
        default:
            return false;
        }
    }

    // A phase is done once its compute and its TP collectives are.
    void phaseMaybeDone(int s) {
        Stage& st = stages_[size_t(s)];
        if (st.state != StageState::Running || st.computing || st.tpWaiting) return;
        ++st.phase;
        st.state = StageState::Phase;
    }

    bool finishLayer(int s) {
        Stage& st = stages_[size_t(s)];
        const PassOp& op = st.current;
        out_.layers[size_t(s)].push_back({st.layerStartS, now_});
        // Sharded weights: every backward reduce-scatters each layer's gradients. Replicated:
        // the last backward of a chunk (ZB-H1: its last weight gradient) hands its gradients to
        // the DP reduction a bucket at a
        // time (with overlap; else once the stage is done).
        const bool real = !programOf(s, op).empty();
        if (!op.forward && real && in_.weightsSharded) {
            queueReduction(s, op.chunk, modelLayer(s, op, st.layer), 1, op.micro);
        } else if (!op.forward && !in_.weightsSharded && in_.overlapReduce &&
                   (in_.splitWeightGradients ? op.weight && st.lastWeight
                                             : int(st.next) == st.lastBackward[size_t(op.chunk)])) {
            const bool chunkDone = st.layer + 1 == layers(s, op.chunk);
            if (++st.bucketFill == bucket() || chunkDone) {
                queueReduction(s, op.chunk, modelLayer(s, op, st.layer), st.bucketFill, 0);
                st.bucketFill = 0;
            }
        }
        if (++st.layer < layers(s, op.chunk)) {
            st.state = StageState::LayerStart;
            return true;
        }
        completePass(s);
        return true;
    }

    bool tryStartStream(int cls) {
        Stream& q = streams_[size_t(cls)];
        if (q.current >= 0 || q.queue.empty()) return false;
        const Transfer& t = transfers_[size_t(q.queue.front())];
        if (t.readyAtS > now_) return false;
        q.current = q.queue.front();
        q.queue.pop_front();
        q.remaining = t.bytes;
        q.inLatency = false;
        q.startS = now_;
        if (q.fixed < 0) {
            q.fixed = in_.share->fixedRate(cls) ? 1 : 0;
            if (q.fixed) {
                const int one[1] = {cls};
                in_.share->rates(one, rates_);
                q.fixedRate = rates_.front();
            }
        }
        if (q.fixed)
            q.rate = q.fixedRate;
        else
            activeChanged_ = true;
        ++out_.events;
        return true;
    }

    void reshareIfChanged() {
        if (!activeChanged_) return;
        activeChanged_ = false;
        active_.clear();
        for (int k = 0; k < classes_.count(); ++k)
            if (streams_[size_t(k)].current >= 0 && !streams_[size_t(k)].inLatency &&
                streams_[size_t(k)].fixed == 0)
                active_.push_back(k);
        if (active_.empty()) return;
        in_.share->rates(active_, rates_);
        ++out_.reshares;
        for (size_t i = 0; i < active_.size(); ++i)
            streams_[size_t(active_[i])].rate = rates_[i];
    }

    void recordRate(int cls, double fromS, double toS, double rate) {
        if (toS <= fromS) return;
        auto& list = out_.rates[size_t(cls)];
        if (!list.empty() && list.back().bytesPerS == rate && list.back().toS >= fromS - 1e-12)
            list.back().toS = toS;
        else
            list.push_back({fromS, toS, rate});
    }

    void completeTransfer(int cls) {
        Stream& q = streams_[size_t(cls)];
        const Transfer& t = transfers_[size_t(q.current)];
        ++out_.events;
        out_.transfers.push_back({t.kind, t.stage, t.target, t.chunk, t.micro, t.layer, q.startS,
                                  now_, t.bytes, t.forward, t.span});
        switch (t.kind) {
        case Kind::Gather:
            markGathered(t);
            appendMerged(out_.gathers[size_t(t.stage)], q.startS, now_);
            gatherBusy_[size_t(t.stage)] += now_ - q.startS;
            break;
        case Kind::Reduce:
            appendMerged(out_.reduces[size_t(t.stage)], q.startS, now_);
            reduceBusy_[size_t(t.stage)] += now_ - q.startS;
            lastReduceS_ = std::max(lastReduceS_, now_);
            if (in_.weightsSharded && !in_.overlapReduce) --stages_[size_t(t.stage)].reducesPending;
            break;
        case Kind::SendForward:
        case Kind::SendBackward:
            deliver(t, now_);
            sendTotalS_ += now_ - q.startS;
            ++sendCount_;
            if (t.blocksSender) {
                stages_[size_t(t.stage)].state = StageState::Idle;
                out_.blocked[size_t(t.stage)].push_back({t.readyAtS, now_});
            }
            break;
        case Kind::Tp:
            stages_[size_t(t.stage)].tpWaiting = false;
            phaseMaybeDone(t.stage);
            break;
        }
        q.current = -1;
        q.inLatency = false;
    }

    void markGathered(const Transfer& t) {
        Stage& st = stages_[size_t(t.stage)];
        if (!in_.weightsSharded) {
            auto& at = st.gatheredAt[size_t(t.chunk)];
            std::fill(at.begin() + t.layer, at.begin() + t.layer + t.span, now_);
            return;
        }
        const int l = t.forward ? t.layer : layers(t.stage, t.chunk) - 1 - t.layer;
        st.passGatheredAt[size_t(t.pass)][size_t(l)] = now_;
    }

    void deliver(const Transfer& t, double at) {
        (t.kind == Kind::SendForward ? inputFwd_ : inputBwd_)[index(t.target, t.chunk, t.micro)] =
            at;
    }

    // A finished pass hands its output on: a send to the next stage (forward) or the previous
    // one (backward), or, at the end of the model, the loss to its own backward.
    void completePass(int s) {
        Stage& st = stages_[size_t(s)];
        const PassOp op = st.current;
        const int position = int(st.next);
        if (!op.weight || in_.dualPipe) ++st.next;
        // DualPipe's held outputs leave now (their passes were done earlier).
        for (size_t k = 0; k < st.held.size();)
            if (st.held[k].releaseAt == position) {
                Held h = st.held[k];
                st.held.erase(st.held.begin() + std::ptrdiff_t(k));
                h.t.readyAtS = now_;
                out_.passes[size_t(s)][h.record].sentS = now_;
                if (in_.sendBytes <= 0)
                    deliver(h.t, now_);
                else
                    push(h.cls, h.t);
            } else {
                ++k;
            }
        ++out_.events;
        out_.passes[size_t(s)].push_back(
            {st.passStartS, now_, op.forward, op.chunk, op.micro, op.weight, op.paired});
        appendMerged(out_.compute[size_t(s)], st.passStartS, now_);
        st.endS = now_;
        st.state = StageState::Idle;
        if (in_.splitWeightGradients && !op.forward && !op.weight)
            st.pendingWeights.push_back({false, op.chunk, op.micro, true});
        if (op.weight) {
            reduceWhenDone(s);
            return;
        }
        Transfer t{op.forward ? Kind::SendForward : Kind::SendBackward,
                   now_,
                   in_.sendBytes,
                   in_.sendLatencyS,
                   s,
                   op.chunk,
                   op.micro,
                   0};
        int boundary = -1;
        if (in_.dualPipe) {
            // Chunk 0 flows to higher stages forward, chunk 1 to lower ones; each boundary's
            // classes carry it the way they point.
            const int step = (op.forward == (op.chunk == 0)) ? 1 : -1;
            if (s + step >= 0 && s + step < p_)
                t.target = s + step, boundary = std::min(s, s + step);
            else if (op.forward)
                inputBwd_[index(s, op.chunk, op.micro)] = now_; // the loss
        } else if (op.forward) {
            if (s < p_ - 1)
                t.target = s + 1, boundary = s;
            else if (op.chunk < v_ - 1)
                t.target = 0, t.chunk = op.chunk + 1, boundary = p_ - 1;
            else
                inputBwd_[index(s, op.chunk, op.micro)] = now_; // the loss
        } else {
            if (s > 0)
                t.target = s - 1, boundary = s - 1;
            else if (op.chunk > 0)
                t.target = p_ - 1, t.chunk = op.chunk - 1, boundary = p_ - 1;
        }
        if (boundary >= 0) {
            const bool up = in_.dualPipe ? t.target > s : op.forward;
            const int cls = up ? classes_.sendForward(boundary) : classes_.sendBackward(boundary);
            if (op.sendAfter > 0) { // posted with a later pass's, never blocking the stage
                st.held.push_back(
                    {t, cls, position + op.sendAfter, out_.passes[size_t(s)].size() - 1});
            } else if (in_.sendBytes <= 0) {
                deliver(t, now_);
            } else {
                t.blocksSender = !in_.overlapSend;
                if (t.blocksSender) st.state = StageState::Blocked;
                push(cls, t);
            }
        }
        reduceWhenDone(s);
    }

    // Replicated weights without overlap: the stage's gradients go once all its passes (and
    // weight gradients) are done, bucket by bucket from the top.
    void reduceWhenDone(int s) {
        const Stage& st = stages_[size_t(s)];
        if (st.next == st.order.size() && st.pendingWeights.empty() && !in_.overlapReduce &&
            !in_.weightsSharded && (!in_.splitWeightGradients || st.current.weight))
            for (int c = v_ - 1; c >= 0; --c)
                for (int top = layers(s, c) - 1; top >= 0; top -= bucket()) {
                    const int span = std::min(bucket(), top + 1);
                    queueReduction(s, c, top - span + 1, span, 0);
                }
    }

    void finish() {
        for (int s = 0; s < p_; ++s) {
            out_.computeEndS = std::max(out_.computeEndS, stages_[size_t(s)].endS);
            out_.gatherBusyS = std::max(out_.gatherBusyS, gatherBusy_[size_t(s)]);
            out_.reduceBusyS = std::max(out_.reduceBusyS, reduceBusy_[size_t(s)]);
        }
        out_.meanSendS = sendCount_ > 0 ? sendTotalS_ / double(sendCount_) : 0;
        out_.optimizerS = in_.optimizerS;
        out_.stepS = std::max(out_.computeEndS, lastReduceS_) + in_.optimizerS;
    }

    const ScheduleInput& in_;
    const int p_, v_, m_;
    const ScheduleClasses classes_;
    ScheduleResult out_;
    std::vector<Stage> stages_;
    std::vector<Stream> streams_;
    std::vector<Transfer> transfers_;
    std::vector<LayerPhase> wholeBackward_;   // DualPipe: input and weight gradient in one pass
    std::vector<double> inputFwd_, inputBwd_; // when a pass's input is there: [stage][chunk][micro]
    std::vector<int> active_;
    std::vector<double> rates_;
    std::vector<double> gatherBusy_ = std::vector<double>(size_t(p_), 0.0),
                        reduceBusy_ = std::vector<double>(size_t(p_), 0.0);
    double now_ = 0, lastReduceS_ = 0, sendTotalS_ = 0;
    long long sendCount_ = 0;
    bool activeChanged_ = false;
};

} // namespace

ScheduleResult runSchedule(const ScheduleInput& in) {
    return StepSimulation(in).run();
}

class ScheduleStepper::Impl : public StepSimulation {
public:
    using StepSimulation::StepSimulation;
};

ScheduleStepper::ScheduleStepper(const ScheduleInput& in) : impl_(std::make_unique<Impl>(in)) {}
ScheduleStepper::~ScheduleStepper() = default;
void ScheduleStepper::startWhatCan() {
    impl_->startWhatCan();
}
bool ScheduleStepper::activeChanged() const {
    return impl_->activeChanged();
}
void ScheduleStepper::activeClasses(std::vector<int>& out) const {
    impl_->activeClasses(out);
}
void ScheduleStepper::applyRates(std::span<const int> active, std::span<const double> rates) {
    impl_->applyRates(active, rates);
}
void ScheduleStepper::requestReshare() {
    impl_->requestReshare();
}
double ScheduleStepper::nextEventS() {
    return impl_->nextEventS();
}
void ScheduleStepper::advanceTo(double t) {
    impl_->advanceTo(t);
}
double ScheduleStepper::nowS() const {
    return impl_->now();
}
ScheduleResult ScheduleStepper::result() {
    return impl_->result();
}

} // namespace cs
