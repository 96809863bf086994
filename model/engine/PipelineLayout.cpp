#include "PipelineLayout.h"

#include <cctype>
#include <stdexcept>

namespace cs {
namespace {

constexpr size_t kMaxText = 4096;
constexpr long kMaxRepeat = 1024;
constexpr int kMaxDepth = 8;
constexpr size_t kMaxSymbols = 65536;

// Recursive descent over the text, expanding repeats into a flat string of E, t, m, L and |.
class LayoutReader {
public:
    explicit LayoutReader(const std::string& text) : s_(text) {}

    std::string expanded() {
        std::string out = sequence(0);
        skipCosmetic();
        if (at_ < s_.size()) fail("a symbol (E, t, m, L), '|' or '('");
        return out;
    }

private:
    [[noreturn]] void fail(const std::string& expected) const {
        const std::string got = at_ < s_.size() ? "'" + std::string(1, s_[at_]) + "'" : "the end";
        throw std::invalid_argument("at character " + std::to_string(at_ + 1) + ": expected " +
                                    expected + ", got " + got);
    }
    void skipCosmetic() {
        while (at_ < s_.size() &&
               (s_[at_] == ',' || std::isspace(static_cast<unsigned char>(s_[at_]))))
            ++at_;
    }
    std::string sequence(int depth) {
        if (depth > kMaxDepth) fail("at most " + std::to_string(kMaxDepth) + " nested groups");
        std::string out;
        for (;;) {
            skipCosmetic();
            if (at_ >= s_.size() || s_[at_] == ')') return out;
            std::string unit;
            const char c = s_[at_];
            if (c == 'E' || c == 't' || c == 'm' || c == 'L' || c == '|') {
                unit = std::string(1, c);
                ++at_;
            } else if (c == '(') {
                ++at_;
                unit = sequence(depth + 1);
                skipCosmetic();
                if (at_ >= s_.size() || s_[at_] != ')') fail("')'");
                ++at_;
            } else {
                fail("a symbol (E, t, m, L), '|' or '('");
            }
            const long times = repeat();
            if (unit.size() * size_t(times) + out.size() > kMaxSymbols)
                fail("at most " + std::to_string(kMaxSymbols) + " symbols once expanded");
            for (long k = 0; k < times; ++k)
                out += unit;
        }
    }
    long repeat() {
        skipCosmetic();
        if (at_ >= s_.size() || s_[at_] != '*') return 1;
        ++at_;
        skipCosmetic();
        long n = 0;
        const size_t first = at_;
        while (at_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[at_])) &&
               n <= kMaxRepeat)
            n = n * 10 + (s_[at_++] - '0');
        if (at_ == first || n < 1 || n > kMaxRepeat)
            fail("a repeat count from 1 to " + std::to_string(kMaxRepeat) + " after '*'");
        return n;
    }

    const std::string& s_;
    size_t at_ = 0;
};

} // namespace

PipelineLayout parsePipelineLayout(const std::string& text) {
    if (text.size() > kMaxText)
        throw std::invalid_argument("expected at most " + std::to_string(kMaxText) +
                                    " characters, got " + std::to_string(text.size()));
    const std::string symbols = LayoutReader(text).expanded();
    PipelineLayout layout;
    layout.chunks.emplace_back();
    for (char c : symbols) {
        LayoutChunk& chunk = layout.chunks.back();
        switch (c) {
        case '|':
            layout.chunks.emplace_back();
            break;
        case 't':
            ++chunk.decoderLayers;
            break;
        case 'm':
            ++chunk.mtpLayers;
            break;
        case 'E':
            if (chunk.embedding) throw std::invalid_argument("the embedding (E) appears twice");
            chunk.embedding = true;
            break;
        case 'L':
            if (chunk.loss) throw std::invalid_argument("the loss (L) appears twice");
            chunk.loss = true;
            break;
        }
    }
    return layout;
}

std::string pipelineLayoutProblem(const PipelineLayout& layout, int chunks, int decoderLayers,
                                  int mtpLayers) {
    const int n = int(layout.chunks.size());
    if (n != chunks)
        return "has " + std::to_string(n) +
               " chunks ('|' splits them); expected PP x V = " + std::to_string(chunks);
    int t = 0, m = 0, e = 0, l = 0;
    for (const LayoutChunk& c : layout.chunks)
        t += c.decoderLayers, m += c.mtpLayers, e += c.embedding, l += c.loss;
    if (t != decoderLayers)
        return "places " + std::to_string(t) + " decoder layers (t); the model has " +
               std::to_string(decoderLayers);
    if (m != mtpLayers)
        return "places " + std::to_string(m) +
               " multi-token-prediction layers (m); the model has " + std::to_string(mtpLayers);
    if (e != 1 || !layout.chunks.front().embedding)
        return "expected the embedding (E) once, in the first chunk";
    if (l != 1 || !layout.chunks.back().loss)
        return "expected the loss (L) once, in the last chunk";
    return {};
}

const PipelineLayout& cachedPipelineLayout(const std::string& text) {
    // One entry per thread: a run asks for one layout over and over.
    thread_local std::string lastText;
    thread_local PipelineLayout last;
    thread_local bool any = false;
    if (!any || text != lastText) {
        last = parsePipelineLayout(text);
        lastText = text;
        any = true;
    }
    return last;
}

} // namespace cs
