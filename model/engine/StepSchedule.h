#pragma once
// One training step as a discrete-event simulation. Every pipeline stage runs its forward
// and backward passes of each micro-batch and virtual stage in the interleaved 1F1B order
// (Megatron-LM's), each waiting for the pass it depends on in the neighbouring stage and for
// the send that carries its input. A pass runs its layers one after another, each layer as
// a list of phases: compute, and the TP collectives that wait for it or run beside it.
// Communication runs as operations on serial streams, one per transfer class: a stage's TP
// collectives, its DP parameter gathers and gradient reductions, and the sends across each
// pipeline boundary. DP runs as frameworks run it: with replicated weights (ZeRO 0-2) the
// gathers go bucket by bucket in forward order ahead of each chunk's first forward and the
// reductions bucket by bucket as the chunk's last backward finishes their layers (Megatron-LM's
// distributed optimizer); with sharded weights (ZeRO 3, FSDP) every pass gathers each layer's
// weights again, one layer ahead with overlap, and each backward reduce-scatters each layer's
// gradients (DeepSpeed ZeRO-3, FSDP without no_sync). Without overlap the same collectives run
// in order and exposed: replicated gathers all before the first forward, reductions after the
// last backward; sharded ones layer by layer, each layer waiting for its own. Operations move bytes
// at the rates the fabric gives the classes running at that moment; the rates are asked for again
// at every start and finish of an operation, so collectives that overlap slow each other down
// exactly while they overlap. What comes out is the step's timeline per stage and boundary,
// from which the step time, the bubble and the replay's frames follow.
#include "ShareModel.h"

#include <memory>
#include <span>
#include <vector>

namespace cs {

struct Interval {
    double fromS = 0, toS = 0;
};

// The transfer classes of a schedule, numbered densely. Boundary b < stages - 1 lies between
// stage b and b + 1; with virtual stages, boundary stages - 1 carries the last stage's
// output to the first stage's next chunk. tp(s): the TP rings of stage s.
struct ScheduleClasses {
    int stages = 1, boundaries = 0;
    // The one numbering of a pipeline of `stages`, each holding `chunks` virtual stages.
    static ScheduleClasses of(int stages, int chunks) {
        return {stages, stages > 1 ? (chunks > 1 ? stages : stages - 1) : 0};
    }
    int gather(int s) const { return s; }
    int reduce(int s) const { return stages + s; }
    int sendForward(int b) const { return 2 * stages + b; }
    int sendBackward(int b) const { return 2 * stages + boundaries + b; }
    int tp(int s) const { return 2 * stages + 2 * boundaries + s; }
    int count() const { return 3 * stages + 2 * boundaries; }
};

// One phase of a layer's pass: `computeS` of compute while the stage's TP rings move
// `tpBytes` per edge in `tpCollectives` collectives (each then paying its ring's latencies);
// the phase ends when both are done. So a collective with no compute beside it is exposed,
// and one beside compute hides under it. `cp`: computeS is the layer's exposed CP time
// (timed by one fabric solve, see TrainingStepModel), not compute; `ep` likewise for the
// expert all-to-all.
struct LayerPhase {
    double computeS = 0, tpBytes = 0;
    // Ring passes: an all-gather or reduce-scatter one, an all-reduce two; a fraction where only
    // a share of the layers run them (recomputation's block method, averaged over the layers).
    double tpCollectives = 0;
    bool cp = false;
    bool ep = false;   // computeS is the layer's exposed expert all-to-all (as cp)
    bool host = false; // computeS is the GPU waiting for the host to issue the layer's kernels
};

struct ScheduleInput {
    int stages = 1, chunks = 1, microBatches = 1;
    // Compute of a pass besides its layers' phases (the head on the last chunk), spread
    // over its layers: [stage][chunk], per micro-batch.
    std::vector<std::vector<double>> forwardS, backwardS;
    std::vector<std::vector<int>> layersPerChunk; // [stage][chunk]
    // Every layer's forward and backward (recomputation included) as phases. With
    // splitWeightGradients (ZB-H1, one chunk per stage) the backward is the input gradient
    // alone and weightLayer the weight gradient, run as a pass of its own: a stage runs it
    // when its next pass's input is not there yet, or when more than `stage` (its index)
    // are pending, and the DP reduction follows the last of them.
    std::vector<LayerPhase> forwardLayer, backwardLayer, weightLayer;
    bool splitWeightGradients = false;
    // DualPipe (DeepSeek-V3, 2024): stage s holds the model's stage s for the micro-batches fed
    // at the first stage (chunk 0) and stage p - 1 - s for those fed at the last (chunk 1),
    // microBatches / 2 each way. Each stage runs DualPipe's order: some backwards split into
    // input gradient and a weight gradient (weightLayer) run later at a set place, the others
    // whole; and forward-backward pairs of the two directions, which start once both inputs
    // are there and run the paired programs (each one's all-to-all hidden behind the other's
    // compute; empty: the plain ones). backwardLayerPaired is a whole backward.
    bool dualPipe = false;
    std::vector<LayerPhase> forwardLayerPaired, backwardLayerPaired;
    double tpLatencyS = 0; // per TP ring pass (an all-reduce is two): time besides its bytes
    // Bytes per edge of the class, split evenly over the stage's layers. Replicated weights:
    // the stage's whole step. Sharded weights: one gather of every layer (per pass), one
    // reduction of every layer's gradients (per micro-batch).
    std::vector<double> gatherBytes, reduceBytes; // per stage
    bool weightsSharded = false;
    int bucketLayers = 1; // replicated weights: consecutive layers per DP collective
    double sendBytes = 0; // one activation (or gradient) send
    // Fixed time per operation (a ring's step latencies), after its bytes.
    double dpLatencyS = 0, sendLatencyS = 0; // DP: per bucket (or sharded layer)
    bool overlapGather = true, overlapReduce = true, overlapSend = true;
    double optimizerS = 0;
    ShareModel* share = nullptr; // needed when any bytes move
};

struct PassRecord {
    double fromS = 0, toS = 0;
    bool forward = true;
    int chunk = 0, micro = 0;
    bool weight = false; // a deferred weight-gradient pass (forward false)
    bool paired = false; // DualPipe: run as a pair with the pass after it (forward) or before
    double sentS = -1;   // when its output left, if later than toS (DualPipe holds some)
};

// One transfer as it ran: what, between which stages, for which chunk, micro-batch and layer
// (a DP bucket: its lowest layer and how many).
struct TransferRecord {
    enum class Kind { Gather, Reduce, SendForward, SendBackward, Tp } kind;
    int stage = 0, target = -1; // target: the stage a send goes to
    int chunk = 0, micro = 0, layer = 0;
    double fromS = 0, toS = 0, bytes = 0; // bytes per edge
    // TP, and sharded weights' gathers: for a forward pass (else a backward)
    bool forward = true;
    int layerCount = 1;
};

// A stretch of time over which a transfer class moved bytes at one rate.
struct RateSegment {
    double fromS = 0, toS = 0, bytesPerS = 0; // per edge of the class
};

struct ScheduleResult {
    ScheduleClasses classes; // the numbering of `rates`
    bool dualPipe = false;   // chunk 1 flows from the last stage to the first
    double stepS = 0;
    double computeEndS = 0;                     // the last backward
    std::vector<std::vector<Interval>> compute; // per stage: its passes, in time order
    std::vector<std::vector<Interval>> busy;    // per stage: compute only, not the exposed TP or CP
    std::vector<std::vector<PassRecord>> passes;  // per stage, in time order
    std::vector<std::vector<Interval>> layers;    // per stage: each pass's layers, in order
    std::vector<std::vector<Interval>> cpExposed; // per stage: the layers' CP phases
    std::vector<std::vector<Interval>> epExposed; // per stage: the layers' EP phases
    std::vector<std::vector<Interval>> hostBound; // per stage: waiting for the host's launches
    std::vector<std::vector<Interval>> gathers, reduces; // per stage
    // per stage: after a pass, waiting for its send to leave (sends that do not overlap)
    std::vector<std::vector<Interval>> blocked;
    std::vector<TransferRecord> transfers;       // in the order they finished
    std::vector<std::vector<RateSegment>> rates; // per class, in time order
    double gatherBusyS = 0, reduceBusyS = 0;     // the busiest stage's DP streams
    double optimizerS = 0;                       // the step's last part, on every stage
    double meanSendS = 0;                        // one send, start to finish
    long long events = 0;   // starts and finishes of passes, layer phases and transfers
    long long reshares = 0; // times the set of running fabric transfers changed
};

ScheduleResult runSchedule(const ScheduleInput& in);

// One step's schedule run from outside, event by event, so that several jobs' steps can run on
// one clock and share the fabric (JointSchedule.h): the caller solves the fabric for the
// classes each stepper reports active and hands each its rates. `in` must outlive it; its
// share answers only fixedRate() (classes that stay on NVLink).
class ScheduleStepper {
public:
    explicit ScheduleStepper(const ScheduleInput& in);
    ~ScheduleStepper();
    ScheduleStepper(const ScheduleStepper&) = delete;
    ScheduleStepper& operator=(const ScheduleStepper&) = delete;
    void startWhatCan();
    // Whether the set of running fabric transfers changed since the last rates, and which
    // they are (classes of the schedule's numbering, ascending).
    bool activeChanged() const;
    void activeClasses(std::vector<int>& out) const;
    void applyRates(std::span<const int> active, std::span<const double> rates);
    void requestReshare(); // another job's transfers changed: rates are asked again
    // The next event of this step (its own clock, from 0); infinity once it has ended.
    double nextEventS();
    void advanceTo(double t);
    double nowS() const;
    ScheduleResult result(); // once nextEventS() is infinite

private:
    class Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace cs
