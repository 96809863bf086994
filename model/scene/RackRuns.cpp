#include "RackRuns.h"

#include "RackCells.h"

#include <algorithm>
#include <cmath>
#include <tuple>

namespace cs {
namespace {

constexpr size_t kMaxRunRacks = 64; // keeps a run's block well inside the atlas width
constexpr float kSameMetres = 1e-3f;
constexpr int kMaxTexelsPerCell = 4;

// Millimetres, for grouping boxes that stand in one line with one size.
long mm(float metres) {
    return std::lround(double(metres) * 1000.0);
}

auto lineKey(const Topology& t, const Box& b, int32_t rack) {
    return std::make_tuple(t.racks[size_t(rack)].row, mm(b.center.y), mm(b.center.z), mm(b.size.x),
                           mm(b.size.y), mm(b.size.z));
}

struct Run {
    std::vector<int32_t> racks;
    std::vector<RackCellGrid> grids;
    int cols = 1, rows = 1, cellW = 1, gapW = 0;
    int bodyW() const { return cols * cellW; }
    int across() const { return int(racks.size()) * (bodyW() + gapW) - gapW; } // its racks
    int width() const { return std::max(2, across()); } // the ends' row holds two texels
    // Top rows, front, back, the two ends, the racks' colours unshaded (the top without cells).
    int height() const { return rows + 4; }
};

// Consecutive racks of one line, one pitch apart, form a run.
std::vector<Run> groupRuns(const Topology& t, const SceneLayout& L, std::vector<int32_t> racks) {
    std::erase_if(racks, [&](int32_t r) {
        return r < 0 || size_t(r) >= L.racks.size() || !L.racks[size_t(r)].drawn();
    });
    std::sort(racks.begin(), racks.end(), [&](int32_t a, int32_t b) {
        const Box &A = L.racks[size_t(a)], &B = L.racks[size_t(b)];
        return std::make_tuple(lineKey(t, A, a), A.center.x, a) <
               std::make_tuple(lineKey(t, B, b), B.center.x, b);
    });
    std::vector<Run> runs;
    float pitch = 0;
    for (size_t i = 0; i < racks.size(); ++i) {
        const Box& b = L.racks[size_t(racks[i])];
        bool extends = false;
        if (i > 0 && !runs.back().racks.empty() && runs.back().racks.size() < kMaxRunRacks) {
            const int32_t prev = runs.back().racks.back();
            const Box& p = L.racks[size_t(prev)];
            const float dx = b.center.x - p.center.x;
            const bool sameLine = lineKey(t, b, racks[i]) == lineKey(t, p, prev);
            // Never overlapping; less than half a rack apart, so an empty place or an open
            // rack between two racks ends the run; then one pitch on.
            const bool neighbours = dx >= b.size.x - kSameMetres && dx < b.size.x * 1.5f;
            extends = sameLine && neighbours &&
                      (runs.back().racks.size() == 1 || std::fabs(dx - pitch) < kSameMetres);
            if (extends && runs.back().racks.size() == 1) pitch = dx;
        }
        if (!extends) runs.emplace_back();
        runs.back().racks.push_back(racks[i]);
    }
    return runs;
}

// The run's cell grid is its fullest rack's, so every rack's cells fit; the texels per cell
// make the gap between two racks one texel about as wide as it stands.
void sizeRun(const Topology& t, const TopologyIndex& ix, const SceneLayout& L, Run& run) {
    size_t fullest = 0;
    for (int32_t r : run.racks) {
        run.grids.push_back(rackCellGrid(t, ix, L.racks[size_t(r)], r));
        if (run.grids.back().gpus.size() > fullest) {
            fullest = run.grids.back().gpus.size();
            run.cols = run.grids.back().cols;
            run.rows = run.grids.back().rows;
        }
    }
    if (run.racks.size() < 2) return;
    const Box& first = L.racks[size_t(run.racks[0])];
    const float gap = L.racks[size_t(run.racks[1])].center.x - first.center.x - first.size.x;
    if (gap <= kSameMetres) return;
    run.gapW = 1;
    run.cellW =
        std::clamp(int(std::lround(first.size.x / gap / float(run.cols))), 1, kMaxTexelsPerCell);
}

RackRun placeRun(const SceneLayout& L, const Run& run, int bx, int by) {
    const Box& first = L.racks[size_t(run.racks.front())];
    const Box& last = L.racks[size_t(run.racks.back())];
    const float x0 = first.center.x - first.size.x / 2, x1 = last.center.x + last.size.x / 2;
    RackRun out;
    out.box = {{(x0 + x1) / 2, first.center.y, first.center.z},
               {x1 - x0, first.size.y, first.size.z}};
    const int w = run.across();
    auto face = [&](RunFace f) -> TexelRect& { return out.faces[size_t(f)]; };
    face(RunFace::Top) = {bx, by, w, run.rows};
    face(RunFace::Front) = {bx, by + run.rows, w, 1};
    face(RunFace::Back) = {bx, by + run.rows + 1, w, 1};
    face(RunFace::Left) = {bx, by + run.rows + 2, 1, 1};
    face(RunFace::Right) = {bx + 1, by + run.rows + 2, 1, 1};
    face(RunFace::Bottom) = {0, 0, 1, 1};
    out.plainTop = {bx, by + run.rows + 3, w, 1};
    return out;
}

// A run wider than the atlas is cut into runs that fit.
std::vector<Run> fitAtlas(std::vector<Run> runs, int atlasWidth) {
    std::vector<Run> out;
    for (Run& run : runs) {
        if (run.width() + 3 <= atlasWidth) {
            out.push_back(std::move(run));
            continue;
        }
        const size_t fit =
            size_t(std::max(1, (atlasWidth - 3 + run.gapW) / (run.bodyW() + run.gapW)));
        for (size_t i = 0; i < run.racks.size(); i += fit) {
            Run part = run;
            const size_t end = std::min(run.racks.size(), i + fit);
            part.racks.assign(run.racks.begin() + long(i), run.racks.begin() + long(end));
            part.grids.assign(run.grids.begin() + long(i), run.grids.begin() + long(end));
            out.push_back(std::move(part));
        }
    }
    return out;
}

} // namespace

RackRunAtlas buildRackRuns(const Topology& t, const TopologyIndex& ix, const SceneLayout& L,
                           const std::vector<int32_t>& racks, int maxWidth) {
    RackRunAtlas A;
    std::vector<Run> runs = groupRuns(t, L, racks);
    for (Run& run : runs)
        sizeRun(t, ix, L, run);
    maxWidth = std::max(maxWidth, 8);
    runs = fitAtlas(std::move(runs), maxWidth);
    // Only a single rack with more cells across than the atlas is wide widens it.
    int atlasWidth = maxWidth;
    for (const Run& run : runs)
        atlasWidth = std::max(atlasWidth, run.width() + 3);
    // Shelf packing with a texel between blocks; texel (0, 0) belongs to no rack.
    int x = 2, y = 0, shelf = 1, width = 2;
    for (size_t k = 0; k < runs.size(); ++k) {
        const Run& run = runs[k];
        if (x + run.width() + 1 > atlasWidth) {
            x = 0;
            y += shelf;
            shelf = 0;
        }
        A.runs.push_back(placeRun(L, run, x, y));
        const RackRun& placed = A.runs.back();
        for (size_t i = 0; i < run.racks.size(); ++i) {
            RackRunSlot s;
            s.rack = run.racks[i];
            s.run = int32_t(k);
            s.bodyX = x + int(i) * (run.bodyW() + run.gapW);
            s.bodyW = run.bodyW();
            s.topY = y;
            s.topRows = run.rows;
            s.frontY = placed.faces[size_t(RunFace::Front)].y0;
            s.backY = placed.faces[size_t(RunFace::Back)].y0;
            s.endsY = placed.faces[size_t(RunFace::Left)].y0;
            s.plainTopY = placed.plainTop.y0;
            if (i == 0) s.leftX = placed.faces[size_t(RunFace::Left)].x0;
            if (i + 1 == run.racks.size()) s.rightX = placed.faces[size_t(RunFace::Right)].x0;
            s.cellW = run.cellW;
            s.firstCell = int32_t(A.cellGpu.size());
            const RackCellGrid& g = run.grids[i];
            s.cells = int32_t(g.gpus.size());
            A.rackSlots.push_back(s);
            for (size_t c = 0; c < g.gpus.size(); ++c) {
                A.cellGpu.push_back(g.gpus[c]);
                const int cx = s.bodyX + int(c % size_t(run.cols)) * run.cellW;
                const int cy = y + int(c / size_t(run.cols));
                A.cellTexel.push_back(uint32_t(cy) * uint32_t(atlasWidth) + uint32_t(cx));
            }
        }
        x += run.width() + 1;
        width = std::max(width, x);
        shelf = std::max(shelf, run.height() + 1);
    }
    A.height = std::max(1, y + shelf);
    // Texel indices were taken on the packing width; the atlas is as wide as its widest
    // shelf, so they are re-indexed on that width.
    A.width = width;
    auto reindex = [&](uint32_t& texel) {
        texel = texel / uint32_t(atlasWidth) * uint32_t(width) + texel % uint32_t(atlasWidth);
    };
    for (uint32_t& texel : A.cellTexel)
        reindex(texel);
    return A;
}

} // namespace cs
