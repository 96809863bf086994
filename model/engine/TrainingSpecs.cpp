#include "TrainingSpecs.h"

namespace cs {

double ModelSpec::parametersPerLayer() const {
    const double d = modelDim;
    const double attention = d * d * 2 + d * kvDim() * 2; // Q and O: d x d; K and V: d x kvDim
    const double mlp = 3.0 * d * ffnDim;                  // SwiGLU: gate, up, down
    return attention + mlp + 2 * d;                       // two RMSNorm weight vectors
}

double ModelSpec::parameters() const {
    // Untied input embedding and output head, plus the final norm.
    return layers * parametersPerLayer() + 2.0 * vocab * modelDim + modelDim;
}

const std::vector<ModelSpec>& modelPresets() {
    // Llama 3 paper, Table 3; vocabulary 128,256.
    static const std::vector<ModelSpec> list{
        {"llama3-8b", 32, 4096, 14336, 32, 8, 128256},
        {"llama3-70b", 80, 8192, 28672, 64, 8, 128256},
        {"llama3-405b", 126, 16384, 53248, 128, 8, 128256},
    };
    return list;
}

const std::vector<GpuSpec>& gpuPresets() {
    // NVIDIA data sheets: dense BF16 tensor throughput (without sparsity), HBM size and
    // bandwidth, NVLink bandwidth per direction (half the bidirectional figure), TDP.
    static const std::vector<GpuSpec> list{
        {"h100", 989, 79.6, 3350, 450, 700},  // H100 SXM5 80 GB HBM3 (81,559 MiB usable)
        {"h200", 989, 131.0, 4800, 450, 700}, // H200 SXM 141 GB HBM3e
        {"a100", 312, 79.2, 2039, 300, 400},  // A100 SXM4 80 GB HBM2e, NVLink 3 600 GB/s
    };
    return list;
}

std::optional<ModelSpec> findModel(const std::string& name) {
    for (const ModelSpec& m : modelPresets())
        if (m.name == name) return m;
    return std::nullopt;
}

std::optional<GpuSpec> findGpu(const std::string& name) {
    for (const GpuSpec& g : gpuPresets())
        if (g.name == name) return g;
    return std::nullopt;
}

} // namespace cs
