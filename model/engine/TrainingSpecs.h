#pragma once
// What is trained, on what, and how it is split: model shapes (Llama 3, Table 3), GPU data
// sheets, and the parallelism of a run (Llama 3, Table 4). Data, not code: presets are
// tables below, and any GPT-style decoder can be described by the same numbers.
#include <optional>
#include <string>
#include <vector>

namespace cs {

struct ModelSpec {
    std::string name;
    int layers = 0;
    int modelDim = 0;
    int ffnDim = 0;
    int heads = 0;
    int kvHeads = 0;
    int vocab = 128256;

    double kvDim() const { return double(modelDim) * kvHeads / heads; }
    // Parameters: attention (Q, K, V, O), SwiGLU MLP (3 matrices), norms, embedding and head.
    double parameters() const;
    double parametersPerLayer() const;
};

struct GpuSpec {
    std::string name;
    double peakBf16Tflops = 0; // dense
    double hbmGiB = 0;
    double hbmGBps = 0;
    double nvlinkGBpsPerDirection = 0;
    double tdpWatts = 0;
};

enum class Placement { TopologyAware, Linear };

struct ParallelConfig {
    int tp = 8, cp = 1, pp = 16, dp = 64;
    int virtualStages = 4; // V of the interleaved schedule [assumption: not published]
    int seqLen = 8192;
    double batchTokens = 16.0 * 1024 * 1024;
    int microBatchSeqs = 1; // sequences per micro-batch
    int flowsPerPair = 16;  // [paper] the collective library opens 16 flows per GPU pair
    Placement placement = Placement::TopologyAware;

    long long gpus() const { return 1LL * tp * cp * pp * dp; }
    // Micro-batches per DP replica and step.
    double microBatches() const { return batchTokens / seqLen / dp / microBatchSeqs; }
};

const std::vector<ModelSpec>& modelPresets();
const std::vector<GpuSpec>& gpuPresets();
std::optional<ModelSpec> findModel(const std::string& name);
std::optional<GpuSpec> findGpu(const std::string& name);

} // namespace cs
