#pragma once
// How a model's layers split over the pipeline: per stage, and per chunk (virtual stage) of a
// stage, with the first and last stages one layer short where the layers split that way.
#include "TrainingSpecs.h"

namespace cs {

// Whether the first and last stages hold one fewer layer (Llama 3, 3.3.2: it balances
// memory); used when the layers split that way, else they split evenly.
bool unevenStages(const ModelSpec& m, const ParallelConfig& c);
int layersOfStage(const ModelSpec& m, const ParallelConfig& c, int s);
// Layers of one chunk of a stage: the first chunk of the first stage holds the embedding in
// place of a layer, the last chunk of the last stage the head.
int layersOfChunk(const ModelSpec& m, const ParallelConfig& c, int stage, int chunk);
// The share of the layers full recomputation reruns: 1 for every layer, the first
// recomputeLayers of each chunk with the block method, 0 without full recomputation.
double fullyRecomputedShare(const ModelSpec& m, const ParallelConfig& c);

// What each pipeline stage runs, the schedule included: a stage's V chunks, or DualPipe's two
// model stages (stage st holds model stages st and PP - 1 - st, each fed half the
// micro-batches). `c` is resolved (withResolvedDefaults) and outlives this.
class StageLayers {
public:
    StageLayers(const ModelSpec& m, const ParallelConfig& c) : m_(m), c_(c) {}
    bool dualPipe() const { return c_.schedule == PipelineSchedule::DualPipe; }
    int chunksPerStage() const { return dualPipe() ? 2 : c_.virtualStages; }
    // The model stage that chunk ch of stage st runs: DualPipe's chunk 1 runs the stages in
    // reverse.
    int modelStageOf(int st, int ch) const { return dualPipe() && ch == 1 ? c_.pp - 1 - st : st; }
    int layersOfChunkOnStage(int st, int ch) const;
    // MoE layers of a stage: its chunks' layers but the dense first ones of the model, which
    // fill the chunks in model order (chunk 0 of every stage, then chunk 1, ...).
    int moeLayersOfStage(int st) const;
    // Layer passes (forward and backward each) a stage runs per step of `microBatches`, of
    // every layer or of the MoE ones.
    double layerPassesOfStage(int st, bool moeOnly, double microBatches) const;
    // The layers whose weights a stage holds.
    int layersHeldByStage(int st) const;

private:
    const ModelSpec& m_;
    const ParallelConfig& c_;
};

} // namespace cs
