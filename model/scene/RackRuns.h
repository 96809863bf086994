#pragma once
// Far racks drawn by the run. Racks that stand side by side in a row, with one size and one
// pitch, make one box (a run) whose faces read their colours from one texture atlas: each
// rack's colour on the run's sides, each GPU's cell (RackCells.h) on its top; between two
// racks one texel that no rack paints stands where the gap is. A software rasteriser pays for every
// triangle: a run of 20 racks is 12 triangles where boxes and cell quads were 280, so the
// overview of 49,152 GPUs draws in a few milliseconds (bench_render). A frame of values
// rewrites texels only; the geometry changes when racks open or close.
#include "SceneGeometry.h"
#include "SceneLayout.h"
#include "Topology.h"
#include "TopologyIndex.h"

#include <array>
#include <cstdint>
#include <vector>

namespace cs {

// Texel columns x0 .. x0 + w - 1 and rows y0 .. y0 + h - 1 of the atlas.
struct TexelRect {
    int x0 = 0, y0 = 0, w = 0, h = 0;
};

// Front faces -y, back +y, left -x, right +x (the floor layout's racks face -y).
enum class RunFace : uint8_t { Top, Front, Back, Left, Right, Bottom };
constexpr int kRunFaces = 6;

struct RackRun {
    Box box; // from the first rack's left side to the last rack's right side
    std::array<TexelRect, kRunFaces> faces;
    // One row of the racks' colours, unshaded: the top reads it instead of the cells where
    // cells would be too small to see (SceneDetail::cells), so that a frame need not fill
    // every rack's cell grid with one colour.
    TexelRect plainTop;
};

// One rack of a run: where its colours go.
struct RackRunSlot {
    int32_t rack = kNone;
    int32_t run = 0;
    int bodyX = 0, bodyW = 0;         // its columns on the top, front and back rows
    int topY = 0, topRows = 0;        // the rows of its top (its cells' grid)
    int frontY = 0, backY = 0;        // one row each
    int endsY = 0;                    // the row of the run's two end texels
    int plainTopY = 0;                // its columns there: the top without cells
    int leftX = -1, rightX = -1;      // its end texel where it ends the run; -1: none
    int32_t firstCell = 0, cells = 0; // into RackRunAtlas::cellGpu
    int cellW = 1;                    // texels across one cell
};

struct RackRunAtlas {
    int width = 2, height = 1; // texels
    std::vector<RackRun> runs;
    std::vector<RackRunSlot> rackSlots; // one per rack given, in runs' order
    std::vector<int32_t> cellGpu;       // per cell: the GPU it shows
    std::vector<uint32_t> cellTexel;    // per cell: its first texel (row-major); cellW along x
    size_t texelIndex(int x, int y) const { return size_t(y) * size_t(width) + size_t(x); }
};

// The runs of the given racks (far, closed, drawn ones; others are skipped). Every rack is
// in exactly one slot. Texel (0, 0) is never written by a rack: the bottoms read it. Runs
// longer than the atlas is wide are cut; only a rack with more cells across than that widens
// the atlas.
constexpr int kRackAtlasWidth = 2048;
RackRunAtlas buildRackRuns(const Topology& t, const TopologyIndex& ix, const SceneLayout& L,
                           const std::vector<int32_t>& racks, int atlasWidth = kRackAtlasWidth);

} // namespace cs
