#include "PipelineLayers.h"

#include "PipelineLayout.h"

#include <algorithm>

namespace cs {

namespace {
// The layout's chunk k (model order): stage k % PP, its virtual stage k / PP.
const LayoutChunk& chunkOfLayout(const ParallelConfig& c, int stage, int chunk) {
    return cachedPipelineLayout(c.pipelineLayout).chunks.at(size_t(chunk * c.pp + stage));
}
} // namespace

bool unevenStages(const ModelSpec& m, const ParallelConfig& c) {
    return c.pipelineLayout.empty() && c.pp > 1 &&
           (m.pipelineLayers() + 2) % (c.pp * c.virtualStages) == 0;
}

int layersOfStage(const ModelSpec& m, const ParallelConfig& c, int s) {
    if (!c.pipelineLayout.empty()) {
        int layers = 0;
        for (int ch = 0; ch < std::max(1, c.virtualStages); ++ch)
            layers += chunkOfLayout(c, s, ch).layers();
        return layers;
    }
    if (!unevenStages(m, c)) return m.pipelineLayers() / c.pp;
    const int middle = (m.pipelineLayers() + 2) / c.pp;
    return (s == 0 || s == c.pp - 1) ? middle - 1 : middle;
}

int layersOfChunk(const ModelSpec& m, const ParallelConfig& c, int stage, int chunk) {
    if (!c.pipelineLayout.empty()) return chunkOfLayout(c, stage, chunk).layers();
    if (!unevenStages(m, c)) return m.pipelineLayers() / (c.pp * c.virtualStages);
    const int slot = (m.pipelineLayers() + 2) / (c.pp * c.virtualStages);
    const bool first = stage == 0 && chunk == 0;
    const bool last = stage == c.pp - 1 && chunk == c.virtualStages - 1;
    return slot - (first ? 1 : 0) - (last ? 1 : 0);
}

double fullyRecomputedShare(const ModelSpec& m, const ParallelConfig& c) {
    if (c.recompute != Recompute::Full) return 0;
    if (c.recomputeLayers <= 0) return 1;
    ParallelConfig chunked = c; // an unresolved V (0) counts as one chunk a stage
    chunked.virtualStages = std::max(1, c.virtualStages);
    double all = 0, rerun = 0;
    for (int s = 0; s < c.pp; ++s)
        for (int ch = 0; ch < chunked.virtualStages; ++ch) {
            const int layers = layersOfChunk(m, chunked, s, ch);
            all += layers;
            rerun += std::min(layers, c.recomputeLayers);
        }
    return all > 0 ? rerun / all : 1;
}

int StageLayers::layersOfChunkOnStage(int st, int ch) const {
    return dualPipe() ? layersOfStage(m_, c_, modelStageOf(st, ch)) : layersOfChunk(m_, c_, st, ch);
}

int StageLayers::moeLayersOfStage(int st) const {
    if (!m_.moe.present()) return 0;
    int before = 0, moe = 0; // model layers ahead of the chunk
    for (int ch = 0; ch < c_.virtualStages; ++ch)
        for (int s = 0; s < c_.pp; ++s) {
            const int n = layersOfChunk(m_, c_, s, ch);
            if (s == st) moe += n - std::clamp(m_.moe.firstDenseLayers - before, 0, n);
            before += n;
        }
    return moe;
}

double StageLayers::layerPassesOfStage(int st, bool moeOnly, double microBatches) const {
    auto layers = [&](int s) {
        return double(moeOnly ? moeLayersOfStage(s) : layersOfStage(m_, c_, s));
    };
    return dualPipe() ? (layers(st) + layers(c_.pp - 1 - st)) * microBatches / 2
                      : layers(st) * microBatches;
}

int StageLayers::layersHeldByStage(int st) const {
    return dualPipe() ? layersOfStage(m_, c_, st) + layersOfStage(m_, c_, c_.pp - 1 - st)
                      : layersOfStage(m_, c_, st);
}

} // namespace cs
