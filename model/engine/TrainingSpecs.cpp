#include "TrainingSpecs.h"

#include <algorithm>

namespace cs {

double ModelSpec::parametersPerLayer() const {
    const double d = modelDim;
    const double attention = d * d * 2 + d * kvDim() * 2; // Q and O: d x d; K and V: d x kvDim
    const double mlp = ffnMatrices() * d * ffnDim;
    // Llama: two RMSNorm weight vectors. GPT: two LayerNorms (weight and bias) and the biases
    // of QKV, O, up and down.
    const double small =
        ffn == FfnKind::SwiGlu ? 2 * d : 4 * d + (d + 2 * kvDim()) + d + ffnDim + d;
    return attention + mlp + small;
}

double ModelSpec::parameters() const {
    const double embeddings = (tiedEmbeddings ? 1.0 : 2.0) * vocab * modelDim;
    return layers * parametersPerLayer() + embeddings + modelDim; // and the final norm
}

const std::vector<ModelSpec>& modelPresets() {
    static const std::vector<ModelSpec> list{
        // Llama 3 paper, Table 3; vocabulary 128,256; SwiGLU, grouped-query attention.
        {"llama3-8b", 32, 4096, 14336, 32, 8, 128256},
        {"llama3-70b", 80, 8192, 28672, 64, 8, 128256},
        {"llama3-405b", 126, 16384, 53248, 128, 8, 128256},
        // GPT shapes of Korthikanti et al. 2022 (Table 5) and Narayanan et al. 2021: multi-head
        // attention, 4h GELU MLP, vocabulary 51,200, untied embeddings.
        {"gpt-22b", 48, 6144, 4 * 6144, 64, 64, 51200, FfnKind::Gelu},
        {"gpt-175b", 96, 12288, 4 * 12288, 96, 96, 51200, FfnKind::Gelu},
        {"gpt-530b", 105, 20480, 4 * 20480, 128, 128, 51200, FfnKind::Gelu},
        {"gpt-1t", 128, 25600, 4 * 25600, 160, 160, 51200, FfnKind::Gelu},
    };
    return list;
}

const std::vector<GpuSpec>& gpuPresets() {
    // NVIDIA data sheets: dense tensor throughput (without sparsity), HBM size and bandwidth,
    // NVLink per direction (half the bidirectional figure), TDP, SM count.
    static const std::vector<GpuSpec> list{
        // A100 Tensor Core GPU data sheet (SXM4 80 GB): BF16 312 TF, HBM2e 2,039 GB/s, NVLink 3
        // 600 GB/s, 400 W; 108 SMs (A100 whitepaper). 80 GB = 79.2 GiB usable.
        {"a100-sxm-80gb", {"a100"}, "ampere", 312, 0, 79.2, 2039, 300, 400, 108},
        // H100 Tensor Core GPU data sheet (SXM5): BF16 989 TF, FP8 1,979 TF, 80 GB HBM3 3.35 TB/s,
        // NVLink 4 900 GB/s, 700 W; 132 SMs (H100 whitepaper). 81,559 MiB usable.
        {"h100-sxm", {"h100"}, "hopper", 989, 1979, 79.6, 3350, 450, 700, 132},
        // H800 SXM5 (the H100 made for export to China): H100's compute, HBM and power with
        // NVLink cut to 400 GB/s (DeepSeek, ISCA 2025).
        {"h800", {}, "hopper", 989, 1979, 79.6, 3350, 200, 700, 132},
        // H200 Tensor Core GPU data sheet (SXM): as H100 with 141 GB HBM3e at 4.8 TB/s.
        {"h200", {}, "hopper", 989, 1979, 131.0, 4800, 450, 700, 132},
        // HGX B200 data sheet, per GPU: BF16 2.25 PF, FP8 4.5 PF dense (half the sparse
        // figures), 180 GB HBM3e at 8 TB/s, NVLink 5 1.8 TB/s, 1,000 W; 148 SMs.
        {"b200", {}, "blackwell", 2250, 4500, 167.6, 8000, 900, 1000, 148},
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
        if (g.name == name || std::count(g.aliases.begin(), g.aliases.end(), name)) return g;
    return std::nullopt;
}

} // namespace cs
