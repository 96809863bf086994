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

} // namespace cs
