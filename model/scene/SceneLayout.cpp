#include "SceneLayout.h"

#include <cmath>
#include <unordered_map>

namespace cs {

const Box& SceneLayout::boxOf(Endpoint e) const {
    static const Box none{};
    const auto i = size_t(e.index);
    switch (e.kind) {
    case EntityKind::Rack:
        return i < racks.size() ? racks[i] : none;
    case EntityKind::Host:
        return i < hosts.size() ? hosts[i] : none;
    case EntityKind::Gpu:
        return i < gpus.size() ? gpus[i] : none;
    case EntityKind::Switch:
        return i < switches.size() ? switches[i] : none;
    case EntityKind::Storage:
        return i < storage.size() ? storage[i] : none;
    case EntityKind::Nic:
        return i < nics.size() ? nics[i] : none;
    default:
        return none;
    }
}

namespace {

// Entities of a topology grouped the way both layouts walk them.
struct Groups {
    ChildList rowsOfPod, racksOfRow;
    std::vector<int32_t> siteRows;                 // rows of no cluster
    std::vector<std::vector<int32_t>> clusterRows; // rows of a cluster but of no pod
    Groups(const Topology& t) {
        std::vector<int32_t> podOfRow;
        for (const Row& r : t.rows)
            podOfRow.push_back(r.pod);
        rowsOfPod = ChildList::build(t.pods.size(), podOfRow);
        std::vector<int32_t> rowOfRack;
        for (const Rack& r : t.racks)
            rowOfRack.push_back(r.row);
        racksOfRow = ChildList::build(t.rows.size(), rowOfRack);
        clusterRows.resize(t.clusters.size());
        for (size_t i = 0; i < t.rows.size(); ++i) {
            const Row& r = t.rows[i];
            if (r.pod != kNone) continue;
            if (r.cluster == kNone)
                siteRows.push_back(int32_t(i));
            else
                clusterRows[size_t(r.cluster)].push_back(int32_t(i));
        }
    }
    int32_t rowLength(const Topology& t, int32_t row) const {
        int32_t n = 0;
        for (int32_t r : racksOfRow.of(row))
            n = std::max(n, t.racks[size_t(r)].position + 1);
        return n;
    }
    bool computeRow(const Topology& t, int32_t row) const {
        for (int32_t r : racksOfRow.of(row))
            if (t.racks[size_t(r)].role == RackRole::Compute) return true;
        return false;
    }
};

// Places the members of each rack (hosts, GPUs, switches, storage) once racks stand.
// NVLink switch trays of a rack-wide NVLink domain (GB200 NVL72) stand apart from the rack's
// other switches: the floor draws them between the rack's hosts.
struct RackContents {
    std::vector<std::vector<int32_t>> switches, storage, nvlinkTrays;
    RackContents(const Topology& t)
        : switches(t.racks.size()), storage(t.racks.size()), nvlinkTrays(t.racks.size()) {
        for (size_t s = 0; s < t.switches.size(); ++s) {
            const Switch& w = t.switches[s];
            if (w.rack == kNone) continue;
            if (w.role != SwitchRole::NvSwitch)
                switches[size_t(w.rack)].push_back(int32_t(s));
            else if (w.host == kNone)
                nvlinkTrays[size_t(w.rack)].push_back(int32_t(s));
        }
        for (size_t s = 0; s < t.storage.size(); ++s)
            if (t.storage[s].rack != kNone)
                storage[size_t(t.storage[s].rack)].push_back(int32_t(s));
    }
};

void spreadAlongX(std::vector<Box>& out, const std::vector<int32_t>& items, float x0, float width,
                  float y, float z, Vec3 size, float rowPitch) {
    if (items.empty()) return;
    const int perRow = std::max(1, int(width / (size.x * 1.4f)));
    const int n = int(items.size());
    const int rows = (n + perRow - 1) / perRow;
    for (int k = 0; k < n; ++k) {
        const int row = k / perRow;
        const int inRow = std::min(perRow, n - row * perRow);
        const float x = x0 + width * (float(k % perRow) + 0.5f) / float(inRow);
        out[size_t(items[size_t(k)])] = {{x, y + (float(row) - float(rows - 1) / 2) * rowPitch, z},
                                         size};
    }
}

// ---------------------------------------------------------------- floor
constexpr float kRackW = 0.6f, kRackD = 1.2f, kRackH = 2.2f;
constexpr float kRowPitch = 3.6f; // rack depth + a 2.4 m aisle, wide enough to look into
constexpr float kPodGap = 6.f, kClusterGap = 12.f;

void placeRow(SceneLayout& L, const Topology& t, const Groups& g, int32_t row, float x0, float y) {
    for (int32_t r : g.racksOfRow.of(row))
        L.racks[size_t(r)] = {
            {x0 + (float(t.racks[size_t(r)].position) + 0.5f) * kRackW, y, kRackH / 2},
            {kRackW * 0.92f, kRackD, kRackH}};
}

void floorRackContents(SceneLayout& L, const Topology& t, const TopologyIndex& ix,
                       const RackContents& rc) {
    for (size_t r = 0; r < t.racks.size(); ++r) {
        const Box& rack = L.racks[r];
        const Vec3 c = rack.center;
        const auto hosts = ix.hostsOfRack(int32_t(r));
        // An NVL72 rack: its switch trays between the lower and upper compute trays (8 below,
        // 10 above in NVIDIA's rack).
        const auto& trays = rc.nvlinkTrays[r];
        const size_t lower = trays.empty() ? hosts.size() : hosts.size() * 4 / 9;
        const float slot = 1.6f / float(std::max<size_t>(1, hosts.size() + trays.size()));
        const float hh = std::min(0.6f, slot - 0.05f * std::min(1.0f, slot / 0.2f));
        for (size_t k = 0; k < trays.size(); ++k) {
            L.switches[size_t(trays[k])] = {{c.x, c.y, 0.2f + slot * (float(lower + k) + 0.5f)},
                                            {0.52f, 1.0f, hh}};
        }
        for (size_t k = 0; k < hosts.size(); ++k) {
            const Host& h = t.hosts[size_t(hosts[k])];
            const size_t position = k < lower ? k : k + trays.size();
            const Box hb{{c.x, c.y, 0.2f + slot * (float(position) + 0.5f)}, {0.52f, 1.0f, hh}};
            L.hosts[size_t(hosts[k])] = hb;
            const int cols = std::max(1, (h.gpuCount + 1) / 2);
            for (int gi = 0; gi < h.gpuCount; ++gi) {
                const float gx = c.x - 0.24f + 0.48f * (float(gi % cols) + 0.5f) / float(cols);
                const float gz = hb.center.z + (gi / cols == 0 ? -hh / 4 : hh / 4);
                L.gpus[size_t(h.firstGpu + gi)] = {{gx, c.y - kRackD / 2 - 0.03f, gz},
                                                   {0.4f / float(cols), 0.06f, hh * 0.32f}};
            }
            // The host's NICs in a row along the top of its front, above the GPUs.
            const auto nics = ix.nicsOfHost(hosts[k]);
            for (size_t n = 0; n < nics.size(); ++n) {
                const float w = 0.46f / float(nics.size());
                L.nics[size_t(nics[n])] = {{c.x - 0.23f + w * (float(n) + 0.5f),
                                            c.y - kRackD / 2 - 0.02f, hb.center.z + hh * 0.455f},
                                           {w * 0.8f, 0.04f, hh * 0.08f}};
            }
        }
        const auto& sw = rc.switches[r];
        const bool chassis = t.racks[r].role == RackRole::Network && sw.size() == 1;
        for (size_t k = 0; k < sw.size(); ++k) {
            if (chassis)
                L.switches[size_t(sw[k])] = {{c.x, c.y, 1.0f}, {0.55f, 1.1f, 1.9f}};
            else if (t.racks[r].role == RackRole::Network)
                L.switches[size_t(sw[k])] = {{c.x, c.y, 0.2f + 0.24f * float(k)},
                                             {0.52f, 1.0f, 0.2f}};
            else
                L.switches[size_t(sw[k])] = {{c.x, c.y, 2.1f - 0.12f * float(k)},
                                             {0.52f, 1.0f, 0.09f}};
        }
        const auto& st = rc.storage[r];
        const float sh = 1.8f / float(std::max<size_t>(1, st.size()));
        for (size_t k = 0; k < st.size(); ++k)
            L.storage[size_t(st[k])] = {{c.x, c.y, 0.15f + sh * (float(k) + 0.5f)},
                                        {0.52f, 1.0f, sh * 0.85f}};
    }
}

void floorLayout(SceneLayout& L, const Topology& t, const TopologyIndex& ix, const Groups& g) {
    float clusterX = 0, maxY = 0;
    for (size_t c = 0; c < t.clusters.size(); ++c) {
        const auto pods = ix.podsOfCluster(int32_t(c));
        float podW = 0, podD = 0;
        for (int32_t p : pods) {
            podD = std::max(podD, float(g.rowsOfPod.of(p).size()) * kRowPitch);
            for (int32_t row : g.rowsOfPod.of(p))
                podW = std::max(podW, float(g.rowLength(t, row)) * kRackW);
        }
        const int n = int(pods.size());
        const int cols = n <= 8 ? std::min(n, 4) : int(std::ceil(std::sqrt(double(n))));
        for (int k = 0; k < n; ++k) {
            const float x0 = clusterX + float(k % std::max(1, cols)) * (podW + kPodGap);
            const float y0 = float(k / std::max(1, cols)) * (podD + kPodGap);
            const auto rows = g.rowsOfPod.of(pods[size_t(k)]);
            for (size_t i = 0; i < rows.size(); ++i)
                placeRow(L, t, g, rows[i], x0, y0 + float(i) * kRowPitch);
        }
        const int podRows = cols > 0 ? (n + cols - 1) / cols : 0;
        float y = float(podRows) * (podD + kPodGap);
        for (int32_t row : g.clusterRows[c]) {
            placeRow(L, t, g, row, clusterX, y);
            y += kRowPitch;
        }
        maxY = std::max(maxY, y);
        float width = float(std::max(cols, 1)) * (podW + kPodGap);
        for (int32_t row : g.clusterRows[c])
            width = std::max(width, float(g.rowLength(t, row)) * kRackW);
        clusterX += width + kClusterGap;
    }
    float y = maxY + kClusterGap;
    for (int32_t row : g.siteRows) {
        placeRow(L, t, g, row, 0, y);
        y += kRowPitch;
    }
    floorRackContents(L, t, ix, RackContents(t));
    L.trayHeight = 3.0f;
    L.rackFar.assign(t.racks.size(), 1);
    L.switchFar.assign(t.switches.size(), 0);
    for (size_t s = 0; s < t.switches.size(); ++s) {
        L.rackOfSwitch[s] = t.switches[s].rack;
        if (t.switches[s].rack == kNone) L.switchFar[s] = 1;
    }
}

// ---------------------------------------------------------------- fabric
// Tier heights for a cluster ~220 m wide (8 pods of 192 racks); smaller clusters scale down
// so the picture keeps its proportions.
constexpr float kTier1Z = 14, kTier2Z = 48, kTier3Z = 95, kReferenceWidth = 220;
constexpr float kFrontendBehind = 45; // frontend and storage stand behind the backend tiers
constexpr float kPitchX = 1.2f, kPitchY = 1.6f;

struct Tiers {
    float z1, z2, z3, behind;
};

void fabricRack(SceneLayout& L, const Topology& t, const TopologyIndex& ix, const RackContents& rc,
                int32_t r, Vec3 c, const Tiers& tiers) {
    L.racks[size_t(r)] = {c, {1.0f, 1.3f, 0.25f}};
    const auto hosts = ix.hostsOfRack(r);
    const float hd = 1.3f / float(std::max<size_t>(1, hosts.size()));
    for (size_t k = 0; k < hosts.size(); ++k) {
        const Host& h = t.hosts[size_t(hosts[k])];
        const float hy = c.y - 0.65f + (float(k) + 0.5f) * hd;
        L.hosts[size_t(hosts[k])] = {{c.x, hy, c.z - 0.05f}, {0.95f, hd - 0.05f, 0.12f}};
        const int cols = std::max(1, std::min<int>(h.gpuCount, 4));
        const int rows = std::max(1, (h.gpuCount + cols - 1) / cols);
        for (int gi = 0; gi < h.gpuCount; ++gi)
            L.gpus[size_t(h.firstGpu + gi)] = {
                {c.x - 0.45f + (float(gi % cols) + 0.5f) * 0.9f / float(cols),
                 hy - hd / 2 + (float(gi / cols) + 0.5f) * hd / float(rows), c.z + 0.1f},
                {0.9f / float(cols) * 0.7f, hd / float(rows) * 0.7f, 0.15f}};
    }
    for (int32_t s : rc.switches[size_t(r)]) {
        const Switch& w = t.switches[size_t(s)];
        L.rackOfSwitch[size_t(s)] = r;
        if (networkOf(w.role) == Network::Backend)
            L.switches[size_t(s)] = {{c.x, c.y, tiers.z1}, {0.9f, 0.6f, 0.4f}};
        else
            L.switches[size_t(s)] = {{c.x, c.y + 0.4f, tiers.z1 * 0.5f}, {0.6f, 0.3f, 0.3f}};
    }
    for (size_t k = 0; k < rc.storage[size_t(r)].size(); ++k) {
        const auto& st = rc.storage[size_t(r)];
        const float d = 1.3f / float(st.size());
        L.storage[size_t(st[k])] = {{c.x, c.y - 0.65f + (float(k) + 0.5f) * d, c.z + 0.1f},
                                    {0.9f, d * 0.8f, 0.3f}};
    }
}

// Up to kPodsInLine pods of a cluster stand in one line; more, in a grid of rows of pods with
// about twice as much width as depth, so that a large site is a field and not a strip (64
// pods in a line read as a thread at the overview).
constexpr int kPodsInLine = 16;
struct PodGrid {
    int columns;
};

PodGrid podGrid(size_t pods, float columnW, float rowD) {
    const int n = int(pods);
    if (n <= kPodsInLine) return {std::max(1, n)};
    const double wide = std::sqrt(2.0 * double(n) * double(rowD) / double(std::max(columnW, 1.f)));
    return {std::clamp(int(std::lround(wide)), 1, n)};
}

void fabricLayout(SceneLayout& L, const Topology& t, const TopologyIndex& ix, const Groups& g) {
    const RackContents rc(t);
    std::vector<std::vector<int32_t>> podSpines(t.pods.size()), podFrontend(t.pods.size()),
        clusterCores(t.clusters.size());
    std::vector<int32_t> siteSpines;
    for (size_t s = 0; s < t.switches.size(); ++s) {
        const Switch& w = t.switches[s];
        if (w.role == SwitchRole::NvSwitch) continue;
        const bool inComputeOrStorage =
            w.rack != kNone && t.racks[size_t(w.rack)].role != RackRole::Network;
        if (inComputeOrStorage) continue;
        if (w.pod != kNone)
            (networkOf(w.role) == Network::Backend ? podSpines : podFrontend)[size_t(w.pod)]
                .push_back(int32_t(s));
        else if (w.cluster != kNone)
            clusterCores[size_t(w.cluster)].push_back(int32_t(s));
        else
            siteSpines.push_back(int32_t(s));
    }
    // Each pod's footprint: its longest compute row across, its compute rows deep.
    // (Across every row for the tiers' scale, as the pods' line always was.)
    std::vector<float> podWidth(t.pods.size(), 0), podDepth(t.pods.size(), 0),
        podWidthAllRows(t.pods.size(), 0);
    for (size_t p = 0; p < t.pods.size(); ++p) {
        int rows = 0;
        for (int32_t row : g.rowsOfPod.of(int32_t(p))) {
            const float w = float(g.rowLength(t, row)) * kPitchX;
            podWidthAllRows[p] = std::max(podWidthAllRows[p], w);
            if (!g.computeRow(t, row)) continue;
            podWidth[p] = std::max(podWidth[p], w);
            ++rows;
        }
        podDepth[p] = float(rows) * kPitchY;
    }
    std::vector<PodGrid> grids;
    float widest = 0;
    for (size_t c = 0; c < t.clusters.size(); ++c) {
        const auto pods = ix.podsOfCluster(int32_t(c));
        float w = 0, d = 0;
        for (int32_t p : pods)
            w = std::max(w, podWidth[size_t(p)]), d = std::max(d, podDepth[size_t(p)]);
        grids.push_back(podGrid(pods.size(), w + kPodGap, d + kFrontendBehind + kPodGap));
        // In one line, pods as wide as each is; in a grid, columns as wide as the widest.
        float line = 0;
        for (int32_t p : pods)
            line += podWidthAllRows[size_t(p)] + kPodGap;
        widest = std::max(widest, grids.back().columns < int(pods.size())
                                      ? float(grids.back().columns) * (w + kPodGap)
                                      : line);
    }
    const float scale = std::clamp(widest / kReferenceWidth, 0.25f, 1.0f);
    const Tiers tiers{kTier1Z * scale, kTier2Z * scale, kTier3Z * scale, kFrontendBehind * scale};
    float clusterY = 0, maxX = 0;
    for (size_t c = 0; c < t.clusters.size(); ++c) {
        const auto pods = ix.podsOfCluster(int32_t(c));
        const PodGrid& grid = grids[c];
        float columnW = 0, rowD = 0;
        for (int32_t p : pods)
            columnW = std::max(columnW, podWidth[size_t(p)] + kPodGap),
            rowD = std::max(rowD, podDepth[size_t(p)]);
        const float rowPitch = rowD + tiers.behind + 12 * scale; // frontend switches between
        float x = 0, depth = 0;
        for (size_t i = 0; i < pods.size(); ++i) {
            const int32_t p = pods[i];
            const int column = int(i) % grid.columns, gridRow = int(i) / grid.columns;
            if (grid.columns < int(pods.size())) x = float(column) * columnW;
            const float podY = clusterY + float(gridRow) * rowPitch;
            int ordinal = 0;
            for (int32_t row : g.rowsOfPod.of(p)) {
                if (!g.computeRow(t, row)) continue;
                for (int32_t r : g.racksOfRow.of(row)) {
                    const Vec3 rc3{x + (float(t.racks[size_t(r)].position) + 0.5f) * kPitchX,
                                   podY + (float(ordinal) + 0.5f) * kPitchY, 0};
                    fabricRack(L, t, ix, rc, r, rc3, tiers);
                }
                ++ordinal;
            }
            const float width = podWidth[size_t(p)], pd = podDepth[size_t(p)];
            depth = std::max(depth, podY - clusterY + pd);
            spreadAlongX(L.switches, podSpines[size_t(p)], x, width, podY + pd / 2, tiers.z2,
                         {1.0f, 1.0f, 0.8f}, 1.6f);
            spreadAlongX(L.switches, podFrontend[size_t(p)], x, width, podY + pd + tiers.behind,
                         tiers.z1 + 6 * scale, {0.8f, 0.8f, 0.6f}, 1.2f);
            maxX = std::max(maxX, x + width + kPodGap);
            x += width + kPodGap;
        }
        // Cores above the middle of the cluster, across its width.
        const float clusterW = grid.columns < int(pods.size()) ? float(grid.columns) * columnW : x;
        spreadAlongX(L.switches, clusterCores[c], 0, std::max(1.f, clusterW - kPodGap),
                     clusterY + depth / 2, tiers.z3, {1.0f, 1.0f, 0.8f}, 1.6f);
        clusterY += depth + tiers.behind + 25 * scale;
    }
    spreadAlongX(L.switches, siteSpines, 0, std::max(1.f, maxX - kPodGap), clusterY - 10 * scale,
                 tiers.z1 + 20 * scale, {1.0f, 1.0f, 0.8f}, 1.6f);
    int ordinal = 0;
    for (int32_t row : g.siteRows) {
        bool any = false;
        for (int32_t r : g.racksOfRow.of(row)) {
            if (t.racks[size_t(r)].role != RackRole::Storage) continue;
            fabricRack(L, t, ix, rc, r,
                       {(float(t.racks[size_t(r)].position) + 0.5f) * kPitchX,
                        clusterY + (float(ordinal) + 0.5f) * kPitchY, 0},
                       tiers);
            any = true;
        }
        ordinal += any ? 1 : 0;
    }
    L.rackFar.assign(t.racks.size(), 0);
    for (size_t r = 0; r < t.racks.size(); ++r)
        L.rackFar[r] = L.racks[r].drawn() ? 1 : 0;
    L.switchFar.assign(t.switches.size(), 0);
    for (size_t s = 0; s < t.switches.size(); ++s)
        L.switchFar[s] = L.rackOfSwitch[s] == kNone && L.switches[s].drawn();
    // NVSwitches: a small box above their host, seen only up close.
    for (size_t s = 0; s < t.switches.size(); ++s) {
        const Switch& w = t.switches[s];
        if (w.role != SwitchRole::NvSwitch || w.host == kNone) continue;
        const Box& h = L.hosts[size_t(w.host)];
        L.switches[s] = {{h.center.x, h.center.y, h.center.z + 0.35f}, {0.3f, 0.2f, 0.1f}};
        L.rackOfSwitch[s] = w.rack;
    }
}

// ---------------------------------------------------------------- links and bundles
Vec3 anchorOf(const SceneLayout& L, const Topology& t, Endpoint e) {
    switch (e.kind) {
    case EntityKind::Gpu:
        return L.gpus[size_t(e.index)].center;
    case EntityKind::Nic: {
        const Nic& n = t.nics[size_t(e.index)];
        if (L.kind == LayoutKind::Fabric && n.gpu != kNone) return L.gpus[size_t(n.gpu)].center;
        if (L.nics[size_t(e.index)].drawn()) return L.nics[size_t(e.index)].center;
        const Box& h = L.hosts[size_t(n.host)];
        return {h.center.x, h.center.y + h.size.y / 2, h.center.z};
    }
    case EntityKind::Switch: {
        const Switch& w = t.switches[size_t(e.index)];
        if (L.switches[size_t(e.index)].drawn()) return L.switches[size_t(e.index)].center;
        if (w.host != kNone) return L.hosts[size_t(w.host)].center;
        return w.rack != kNone ? L.racks[size_t(w.rack)].center : Vec3{};
    }
    case EntityKind::Storage:
        return L.storage[size_t(e.index)].center;
    default:
        return {};
    }
}

// Far-detail groups: a row of racks stands for what is in its racks; switches that stand
// alone group by cluster, pod, plane and role (the 6 spines of one InfiniBand plane in a pod
// become one), so a fat tree's thousands of spine-core links become a few hundred bundles.
std::vector<int64_t> switchGroups(const SceneLayout& L, const Topology& t) {
    std::vector<int64_t> group(t.switches.size());
    std::unordered_map<int64_t, int64_t> byKey;
    const auto rows = int64_t(t.rows.size());
    for (size_t s = 0; s < t.switches.size(); ++s) {
        const int32_t r = L.rackOfSwitch[s];
        if (r != kNone) {
            group[s] = t.racks[size_t(r)].row;
            continue;
        }
        const Switch& w = t.switches[s];
        const int64_t key =
            ((int64_t(w.cluster + 1) * 100'003 + (w.pod + 1)) * 40'009 + (w.plane + 1)) * 16 +
            int64_t(w.role);
        group[s] = byKey.emplace(key, rows + int64_t(byKey.size())).first->second;
    }
    return group;
}

int64_t groupOf(const Topology& t, const std::vector<int64_t>& switchGroup, Endpoint e) {
    auto rowOfRack = [&](int32_t r) { return int64_t(t.racks[size_t(r)].row); };
    switch (e.kind) {
    case EntityKind::Gpu:
        return rowOfRack(t.hosts[size_t(t.gpus[size_t(e.index)].host)].rack);
    case EntityKind::Nic:
        return rowOfRack(t.hosts[size_t(t.nics[size_t(e.index)].host)].rack);
    case EntityKind::Storage:
        return t.storage[size_t(e.index)].rack == kNone
                   ? -1
                   : rowOfRack(t.storage[size_t(e.index)].rack);
    case EntityKind::Switch:
        return switchGroup[size_t(e.index)];
    default:
        return -1;
    }
}

// The rack a link's end stands in, where cables run down its rear (kNone: none drawn).
int32_t rackOfEnd(const SceneLayout& L, const Topology& t, Endpoint e) {
    int32_t r = kNone;
    switch (e.kind) {
    case EntityKind::Gpu:
        r = t.hosts[size_t(t.gpus[size_t(e.index)].host)].rack;
        break;
    case EntityKind::Nic:
        r = t.hosts[size_t(t.nics[size_t(e.index)].host)].rack;
        break;
    case EntityKind::Switch:
        r = L.rackOfSwitch[size_t(e.index)];
        if (r == kNone) r = t.switches[size_t(e.index)].rack;
        break;
    case EntityKind::Storage:
        r = t.storage[size_t(e.index)].rack;
        break;
    default:
        break;
    }
    return r != kNone && L.racks[size_t(r)].drawn() ? r : kNone;
}

void placeLinks(SceneLayout& L, const Topology& t) {
    L.linkA.resize(t.links.size());
    L.linkB.resize(t.links.size());
    L.linkRackA.resize(t.links.size());
    L.linkRackB.resize(t.links.size());
    L.linkDrawn.assign(t.links.size(), 0);
    L.bundles.bundleOf.assign(t.links.size(), kNone);
    std::unordered_map<int64_t, int32_t> bundleOfPair;
    std::vector<int32_t> sideSwapped(t.links.size(), 0);
    const std::vector<int64_t> switchGroup = switchGroups(L, t);
    for (size_t i = 0; i < t.links.size(); ++i) {
        const Link& l = t.links[i];
        L.linkA[i] = anchorOf(L, t, l.a);
        L.linkB[i] = anchorOf(L, t, l.b);
        L.linkRackA[i] = rackOfEnd(L, t, l.a);
        L.linkRackB[i] = rackOfEnd(L, t, l.b);
        L.linkDrawn[i] = l.medium != LinkMedium::NvLink && l.medium != LinkMedium::Pcie;
        int64_t ga = groupOf(t, switchGroup, l.a), gb = groupOf(t, switchGroup, l.b);
        if (ga < 0 || gb < 0 || ga == gb || !L.linkDrawn[i]) continue;
        if (ga > gb) {
            std::swap(ga, gb);
            sideSwapped[i] = 1;
        }
        const int64_t key = ga * (int64_t(t.rows.size()) + int64_t(t.switches.size()) + 1) +
                            gb; // groups < rows + switches
        const auto [it, fresh] = bundleOfPair.try_emplace(key, int32_t(bundleOfPair.size()));
        L.bundles.bundleOf[i] = it->second;
    }
    const size_t n = bundleOfPair.size();
    L.bundles.members = ChildList::build(n, L.bundles.bundleOf);
    L.bundles.a.assign(n, {});
    L.bundles.b.assign(n, {});
    for (size_t k = 0; k < n; ++k) {
        const auto links = L.bundles.members.of(int32_t(k));
        Vec3 a, b;
        for (int32_t i : links) {
            a = a + (sideSwapped[size_t(i)] ? L.linkB[size_t(i)] : L.linkA[size_t(i)]);
            b = b + (sideSwapped[size_t(i)] ? L.linkA[size_t(i)] : L.linkB[size_t(i)]);
        }
        const float inv = 1.f / float(std::max<size_t>(1, links.size()));
        L.bundles.a[k] = a * inv;
        L.bundles.b[k] = b * inv;
    }
}

} // namespace

SceneLayout computeLayout(const Topology& t, const TopologyIndex& ix, LayoutKind kind) {
    SceneLayout L;
    L.kind = kind;
    L.racks.assign(t.racks.size(), {});
    L.hosts.assign(t.hosts.size(), {});
    L.gpus.assign(t.gpus.size(), {});
    L.switches.assign(t.switches.size(), {});
    L.storage.assign(t.storage.size(), {});
    L.nics.assign(t.nics.size(), {});
    L.rackOfSwitch.assign(t.switches.size(), kNone);
    const Groups g(t);
    if (kind == LayoutKind::Floor)
        floorLayout(L, t, ix, g);
    else
        fabricLayout(L, t, ix, g);
    placeLinks(L, t);
    for (const auto* v : {&L.racks, &L.switches, &L.storage})
        for (const Box& b : *v)
            L.bounds.add(b);
    L.podBounds.assign(t.pods.size(), {});
    for (size_t r = 0; r < t.racks.size(); ++r) {
        const int32_t pod = t.podOfRack(int32_t(r));
        if (pod != kNone) L.podBounds[size_t(pod)].add(L.racks[r]);
    }
    for (size_t s = 0; s < t.switches.size(); ++s)
        if (t.switches[s].pod != kNone) L.podBounds[size_t(t.switches[s].pod)].add(L.switches[s]);
    return L;
}

} // namespace cs
