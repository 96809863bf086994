#pragma once
// A pipeline layout in Megatron-LM's own syntax (--pipeline-model-parallel-layout): which
// pipeline chunk holds the embedding (E), which decoder layers (t), multi-token-prediction
// layers (m) and the loss (L). Chunks are split by '|', "X*N" and "(...)*N" repeat, commas and
// spaces are cosmetic, and a chunk may be empty. Chunk k runs on pipeline stage k % PP as its
// virtual stage k / PP. Bridge's DeepSeek-V3 layout over 16 chunks: "Et*4|(t*4|)*14tmL".
// Source: Megatron-LM docs/api-guide/pipeline_parallel_layout.md
// (docs/reference/llama3-training.md, "Pipeline layouts").
#include <string>
#include <vector>

namespace cs {

struct LayoutChunk {
    int decoderLayers = 0; // t
    int mtpLayers = 0;     // m
    bool embedding = false;
    bool loss = false;
    int layers() const { return decoderLayers + mtpLayers; }
};

struct PipelineLayout {
    std::vector<LayoutChunk> chunks;
};

// Parses `text` (bounded: at most 4,096 characters, repeats up to 1,024, nesting 8 deep,
// 65,536 symbols once expanded); throws std::invalid_argument saying where and what was
// expected. Checks the syntax only; checkPipelineLayout holds it to a model.
PipelineLayout parsePipelineLayout(const std::string& text);

// What is wrong with the layout for `chunks` chunks of a model of `decoderLayers` layers and
// `mtpLayers` prediction layers (Megatron's rules: one E, in the first chunk; one L, in the
// last; every layer once); empty when it fits.
std::string pipelineLayoutProblem(const PipelineLayout& layout, int chunks, int decoderLayers,
                                  int mtpLayers);

// The layout parsed once per text (the engine asks for its chunks in loops).
const PipelineLayout& cachedPipelineLayout(const std::string& text);

} // namespace cs
