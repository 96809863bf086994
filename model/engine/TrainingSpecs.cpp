#include "TrainingSpecs.h"

#include <algorithm>
#include <cctype>

namespace cs {

std::vector<Projection> ModelSpec::attentionProjections() const {
    const double d = modelDim;
    const AttentionSpec& a = attention;
    if (!a.latent()) return {{d, qDim() + 2 * kvDim()}, {qDim(), d, Projection::Row}};
    const double qHead = headDim() + a.ropeHeadDim;
    std::vector<Projection> out;
    if (a.qLoraRank > 0)
        out.insert(out.end(), {{d, double(a.qLoraRank), Projection::Replicated},
                               {double(a.qLoraRank), heads * qHead}});
    else
        out.push_back({d, heads * qHead});
    out.insert(out.end(),
               {{d, double(a.kvLoraRank + a.ropeHeadDim), Projection::Replicated}, // latent
                {double(a.kvLoraRank), heads * (headDim() + headDim())}, // keys and values
                {vCoreDim(), d, Projection::Row}});
    return out;
}

double ModelSpec::attentionParameters() const {
    double sum = 0;
    for (const Projection& p : attentionProjections())
        sum += p.in * p.out;
    return sum;
}

double ModelSpec::denseParametersPerLayer(bool moeLayer) const {
    const double d = modelDim;
    // Llama: two RMSNorm weight vectors (MLA: and the norms of its two latents). GPT: two
    // LayerNorms (weight and bias) and the biases of QKV, O, up and down.
    const double latentNorms = attention.latent() ? attention.qLoraRank + attention.kvLoraRank : 0;
    const double small = ffn == FfnKind::SwiGlu ? 2 * d + latentNorms
                                                : 4 * d + (qDim() + 2 * kvDim()) + d + ffnDim + d;
    if (!moeLayer) return attentionParameters() + ffnMatrices() * d * ffnDim + small;
    // The router (d x experts) and the shared experts.
    return attentionParameters() + d * moe.experts + moe.sharedExperts * expertParameters() + small;
}

double ModelSpec::parametersPerLayer() const {
    if (!moe.present()) return denseParametersPerLayer(false);
    const double moeSum = moeLayers() * (denseParametersPerLayer(true) + routedExpertParameters());
    return (moe.firstDenseLayers * denseParametersPerLayer(false) + moeSum) / pipelineLayers();
}

double ModelSpec::mtpParameters() const {
    const double layer = moe.present() ? denseParametersPerLayer(true) + routedExpertParameters()
                                       : denseParametersPerLayer(false);
    return mtpDepth * (layer + 2.0 * modelDim * modelDim + 2.0 * modelDim);
}

double ModelSpec::activeParametersPerLayer(bool moeLayer) const {
    return denseParametersPerLayer(moeLayer) +
           (moeLayer ? moe.activeExperts * expertParameters() : 0);
}

double ModelSpec::activeParameters() const {
    const double embeddings = (tiedEmbeddings ? 1.0 : 2.0) * vocab * modelDim;
    double sum = 0;
    for (int l = 0; l < layers; ++l)
        sum += activeParametersPerLayer(moeLayer(l));
    return sum + embeddings + modelDim;
}

double ModelSpec::parameters() const {
    const double embeddings = (tiedEmbeddings ? 1.0 : 2.0) * vocab * modelDim;
    // The pipeline's layers, embedding and head, the final norm, the modules' projections.
    return pipelineLayers() * parametersPerLayer() + embeddings + modelDim +
           mtpDepth * (2.0 * modelDim * modelDim + 2.0 * modelDim);
}

namespace {

ModelSpec moe(const char* name, int layers, int hidden, int heads, int kvHeads, int vocab,
              AttentionSpec attention, MoeSpec experts, int denseFfn = 0, int mtpDepth = 0) {
    ModelSpec m{name, layers, hidden, denseFfn, heads, kvHeads, vocab};
    m.attention = attention;
    m.moe = experts;
    m.mtpDepth = mtpDepth;
    return m;
}

} // namespace

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
        // Mixtures of experts (docs/reference/models.md, "Mixtures of experts").
        // GPT-OSS-120B: OpenAI's reference model; 64 query heads of 64 (width 4,096) over a
        // hidden of 2,880, a 128-token window on every other layer.
        moe("gpt-oss-120b", 36, 2880, 64, 8, 201088, {64, 0, 0, 0, 128, 0.5},
            {128, 4, 0, 2880, 0, 0}),
        // Qwen3-235B-A22B: 64 query heads of 128 (width 8,192) over a hidden of 4,096.
        moe("qwen3-235b-a22b", 94, 4096, 64, 4, 151936, {128}, {128, 8, 0, 1536, 0, 0}),
        // DeepSeek-V3 (technical report 4.2): MLA, 256 routed experts and one shared, the
        // first 3 layers dense (FFN 18,432), a token's experts on at most 4 nodes (its router:
        // 8 groups of 32 experts, a token's in the top 4), one multi-token prediction module.
        moe("deepseek-v3", 61, 7168, 128, 128, 129280, {128, 1536, 512, 64},
            {256, 8, 1, 2048, 3, 4, 1, 8, 4}, 18432, 1),
        // Mixtral-8x22B: 8 experts of 16,384, two per token.
        moe("mixtral-8x22b", 56, 6144, 48, 8, 32768, {128}, {8, 2, 0, 16384, 0, 0}),
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
        // figures), 180 GB HBM3e at 8 TB/s, NVLink 5 1.8 TB/s, 1,000 W; 148 SMs. Blackwell's
        // tensor cores take MXFP8 (block-scaled FP8) at the FP8 rate, as do GB200's and GB300's.
        {"b200", {}, "blackwell", 2250, 4500, 167.6, 8000, 900, 1000, 148, true},
        // GB200 NVL72 data sheet, per GPU (the rack's figures / 72): BF16 2.5 PF, FP8 5 PF dense
        // (half the sparse figures), 186 GB HBM3e at 8 TB/s, NVLink 5 1.8 TB/s; 1,200 W per
        // GPU (ml-engineering's power table); the B200's 148 SMs.
        {"gb200", {}, "blackwell", 2500, 5000, 173.2, 8000, 900, 1200, 148, true},
        // GB300 (Blackwell Ultra) in a GB300 NVL72 rack, per GPU: BF16 2.5 PF, FP8 5 PF dense
        // (the rack's 360 PF FP8 / 72), 279 GB of its 288 GB HBM3e usable, 8 TB/s, NVLink 5
        // 1.8 TB/s, 1,400 W; 160 SMs. Secondary sources (docs/reference/gpus.md).
        {"gb300", {}, "blackwell", 2500, 5000, 259.8, 8000, 900, 1400, 160, true},
    };
    return list;
}

std::optional<ModelSpec> findModel(const std::string& name) {
    for (const ModelSpec& m : modelPresets())
        if (m.name == name) return m;
    return std::nullopt;
}

std::optional<GpuSpec> findGpuOfTopology(const std::string& gpuModel) {
    std::string lower = gpuModel;
    for (char& c : lower)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    if (auto g = findGpu(lower)) return g;
    std::optional<GpuSpec> best;
    for (const GpuSpec& g : gpuPresets())
        if (lower.rfind(g.name, 0) == 0 && (!best || g.name.size() > best->name.size())) best = g;
    return best;
}

std::optional<GpuSpec> findGpu(const std::string& name) {
    for (const GpuSpec& g : gpuPresets())
        if (g.name == name || std::count(g.aliases.begin(), g.aliases.end(), name)) return g;
    return std::nullopt;
}

} // namespace cs
