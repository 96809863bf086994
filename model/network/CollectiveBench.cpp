#include "CollectiveBench.h"

#include "FabricShare.h"
#include "FlowSimulation.h"
#include "InputError.h"
#include "NcclConstants.h"
#include "NearestRank.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <unordered_map>

namespace cs {
namespace {

struct OpName {
    BenchOp op;
    const char* name;
};
constexpr OpName kOps[] = {
    {BenchOp::AllReduce, "all_reduce"},
    {BenchOp::AllGather, "all_gather"},
    {BenchOp::ReduceScatter, "reduce_scatter"},
    {BenchOp::AllToAll, "alltoall"},
    {BenchOp::SendRecv, "sendrecv"},
    {BenchOp::Broadcast, "broadcast"},
    {BenchOp::Reduce, "reduce"},
    {BenchOp::Permutation, "permutation"},
    {BenchOp::Incast, "incast"},
};

constexpr double kWordBytes = 4; // nccl-tests' default type, float
constexpr size_t kMaxFlowsReshared = 5'000;

// The NCCL collective an op runs, where it is one.
std::optional<NcclOp> ncclOpOf(BenchOp op) {
    switch (op) {
    case BenchOp::AllReduce:
        return NcclOp::AllReduce;
    case BenchOp::AllGather:
        return NcclOp::AllGather;
    case BenchOp::ReduceScatter:
        return NcclOp::ReduceScatter;
    case BenchOp::Broadcast:
        return NcclOp::Broadcast;
    case BenchOp::Reduce:
        return NcclOp::Reduce;
    default:
        return std::nullopt;
    }
}

// nccl-tests' count column: elements per rank for the gathers, scatters and all-to-all.
double countOf(BenchOp op, double bytes, int ranks) {
    const bool perRank =
        op == BenchOp::AllGather || op == BenchOp::ReduceScatter || op == BenchOp::AllToAll;
    return std::floor(bytes / kWordBytes / (perRank ? std::max(1, ranks) : 1));
}

double busFactor(BenchOp op, int ranks) {
    if (const auto n = ncclOpOf(op)) return ncclBusFactor(*n, ranks);
    return op == BenchOp::AllToAll ? ncclBusFactor(NcclOp::AllToAll, ranks) : 1.0;
}

// The group's NVLink domains in rank order, each with its ranks' GPUs.
std::vector<std::vector<int32_t>> domainsOf(const Topology& t, const std::vector<int32_t>& gpus) {
    std::vector<std::vector<int32_t>> out;
    std::unordered_map<int32_t, size_t> slot;
    for (int32_t g : gpus) {
        const int32_t host = t.gpus[size_t(g)].host;
        const int32_t domain = host == kNone ? -2 - g : t.nvlinkDomainOf(host);
        const auto [it, fresh] = slot.try_emplace(domain, out.size());
        if (fresh) out.emplace_back();
        out[it->second].push_back(g);
    }
    return out;
}

// What each rail's ring edge gets of the fabric when every rail moves at once: the slowest
// rail's per-edge rate (NCCL splits the data evenly over its channels), within what NCCL's
// channels on a NIC move.
double perNicBps(const Topology& t, FabricRouter& router, const BenchSetup& s,
                 const std::vector<std::vector<int32_t>>& domains, size_t perNode) {
    FabricShare share(t, router, s.nvlinkBps);
    std::vector<int> classes;
    for (size_t r = 0; r < perNode; ++r) {
        std::vector<int32_t> rail;
        for (const auto& d : domains)
            if (d.size() > r) rail.push_back(d[r]);
        if (rail.size() < 2) continue;
        std::vector<Edge> edges;
        for (size_t k = 0; k < rail.size(); ++k)
            edges.push_back({rail[k], rail[(k + 1) % rail.size()]});
        classes.push_back(share.addClass(edges, s.qpsOverride));
    }
    if (classes.empty()) return 0;
    std::vector<double> rate;
    share.rates(classes, rate);
    const double slowest = *std::min_element(rate.begin(), rate.end());
    const int channels = s.channelsPerNic > 0 ? s.channelsPerNic : nccl::kChannelsPerNic;
    return std::min(slowest, channels * nccl::kChannelNetBytesPerS);
}

} // namespace

const char* toString(BenchOp op) {
    for (const OpName& o : kOps)
        if (o.op == op) return o.name;
    return "?";
}

std::optional<BenchOp> parseBenchOp(const std::string& s) {
    for (const OpName& o : kOps)
        if (s == o.name) return o.op;
    return std::nullopt;
}

std::string benchOpChoices() {
    std::string out;
    for (const OpName& o : kOps)
        out += (out.empty() ? "" : "|") + std::string(o.name);
    return out;
}

std::optional<BenchOp> benchOpOfLog(const std::string& logOp) {
    std::string op = logOp;
    if (op.size() > 5 && op.ends_with("_perf")) op.resize(op.size() - 5);
    return parseBenchOp(op);
}

std::vector<int32_t> collectiveGpus(const Topology& t, int gpus, int perHost,
                                    GroupPlacement placement, uint64_t seed) {
    std::vector<int32_t> hosts;
    if (placement == GroupPlacement::Fragmented) {
        std::vector<std::vector<int32_t>> racks(t.racks.size() + 1);
        for (size_t h = 0; h < t.hosts.size(); ++h) {
            const int32_t rack = t.hosts[h].rack;
            racks[rack == kNone ? t.racks.size() : size_t(rack)].push_back(int32_t(h));
        }
        std::erase_if(racks, [](const auto& r) { return r.empty(); });
        std::mt19937_64 rng(seed);
        std::shuffle(racks.begin(), racks.end(), rng);
        for (const auto& r : racks)
            hosts.insert(hosts.end(), r.begin(), r.end());
    } else {
        for (size_t h = 0; h < t.hosts.size(); ++h)
            hosts.push_back(int32_t(h));
    }
    std::vector<int32_t> out;
    for (int32_t h : hosts) {
        const Host& host = t.hosts[size_t(h)];
        if (host.gpuCount < perHost) continue;
        for (int k = 0; k < perHost && int(out.size()) < gpus; ++k)
            out.push_back(host.firstGpu + k);
        if (int(out.size()) == gpus) return out;
    }
    throw InputException({{},
                          0,
                          0,
                          "--gpus",
                          "expected at most " + std::to_string(out.size()) + " GPUs at " +
                              std::to_string(perHost) + " per host on this topology, got " +
                              std::to_string(gpus)});
}

std::vector<double> benchSizes(double minBytes, double maxBytes, double factor) {
    std::vector<double> out;
    for (double b = minBytes; b <= maxBytes * (1 + 1e-12) && out.size() < 4096; b *= factor) {
        const double whole = std::floor(b / kWordBytes) * kWordBytes;
        if (out.empty() || whole > out.back()) out.push_back(whole);
        if (factor <= 1) break;
    }
    return out;
}

BenchResult runCollectiveBench(const Topology& t, const TopologyIndex& ix, const BenchSetup& s) {
    BenchResult out;
    out.op = s.op;
    out.ranks = int(s.gpus.size());
    const auto domains = domainsOf(t, s.gpus);
    out.nodes = int(domains.size());
    for (const auto& d : domains)
        out.perNode = std::max(out.perNode, int(d.size()));
    FabricRouter router(t, ix);
    const int n = out.ranks;
    double busSum = 0;
    if (const auto nop = ncclOpOf(s.op)) {
        NcclGroup g;
        g.ranks = n, g.nodes = out.nodes, g.perNode = out.perNode;
        g.family = s.family;
        g.nvlinkBps = s.nvlinkBps;
        g.nvlsBusBps = s.nvlsBusBps;
        const int channelsPerNic = s.channelsPerNic > 0 ? s.channelsPerNic : nccl::kChannelsPerNic;
        g.channels = channelsPerNic * out.perNode;
        g.sharp = out.nodes > 1 && FabricTransports(t).ofGpu(s.gpus.front()).sharp;
        if (out.nodes > 1) {
            const double nic = perNicBps(t, router, s, domains, size_t(out.perNode));
            out.perNicGBs = nic / 1e9;
            g.netBusBps = nic * out.perNode;
            out.netBusGBs = g.netBusBps / 1e9;
        }
        for (double bytes : s.sizes) {
            BenchRow row;
            row.bytes = bytes;
            row.count = countOf(s.op, bytes, n);
            const NcclChoice c = ncclFastest(*nop, g, bytes, s.algo);
            if (!std::isfinite(c.seconds)) {
                out.rows.clear();
                return out; // the algorithm asked for cannot run the op here
            }
            row.timeUs = c.seconds * 1e6;
            row.algorithm = toString(c.algo);
            row.protocol = toString(c.proto);
            row.algbwGBs = c.seconds > 0 ? bytes / c.seconds / 1e9 : 0;
            row.busbwGBs = row.algbwGBs * busFactor(s.op, n);
            busSum += row.busbwGBs;
            out.rows.push_back(row);
        }
        out.avgBusbwGBs = out.rows.empty() ? 0 : busSum / double(out.rows.size());
        return out;
    }
    // Point-to-point patterns: flows of a reference size, their fluid part scaled per size
    // (every flow starts at once, so a flow's time at rate-limited share grows with bytes).
    constexpr double kRefBytes = 1 << 20;
    std::vector<FlowSpec> flows;
    // Bytes of one size that cross NVLink per GPU (all-to-all: to host peers and PXN's
    // forwarding), per reference byte.
    double nvlinkBytesPerRef = 0;
    switch (s.op) {
    case BenchOp::SendRecv:
        for (int i = 0; i < n; ++i)
            flows.push_back({s.gpus[size_t(i)], s.gpus[size_t((i + 1) % n)], kRefBytes});
        break;
    case BenchOp::Incast:
        for (int i = 1; i < n; ++i)
            flows.push_back({s.gpus[size_t(i)], s.gpus.front(), kRefBytes});
        break;
    case BenchOp::Permutation: {
        // A seeded derangement: each GPU to a distinct other.
        std::vector<int> to(static_cast<size_t>(n), 0);
        for (int i = 0; i < n; ++i)
            to[size_t(i)] = i;
        std::mt19937_64 rng(s.seed);
        for (int tries = 0; tries < 1000; ++tries) {
            std::shuffle(to.begin(), to.end(), rng);
            bool fixed = false;
            for (int i = 0; i < n && !fixed; ++i)
                fixed = to[size_t(i)] == i;
            if (!fixed) break;
        }
        for (int i = 0; i < n; ++i)
            if (to[size_t(i)] != i)
                flows.push_back({s.gpus[size_t(i)], s.gpus[size_t(to[size_t(i)])], kRefBytes});
        break;
    }
    case BenchOp::AllToAll: {
        // Each rank sends size / ranks to every rank. Across hosts NCCL's PXN gathers a host's
        // data for a GPU on the host's GPU of the same rail and sends it once (one flow per
        // host and destination GPU); inside a host, NVLink.
        const double perPeer = kRefBytes / n;
        for (const auto& from : domains)
            for (const auto& to : domains) {
                if (&from == &to) continue;
                for (size_t k = 0; k < to.size(); ++k)
                    flows.push_back({from[k % from.size()], to[k], perPeer * double(from.size())});
            }
        const double local = double(out.perNode - 1);
        const double remote = double(n - out.perNode);
        nvlinkBytesPerRef = perPeer * (local + remote * local / std::max(1.0, double(out.perNode)));
        break;
    }
    default:
        break;
    }
    out.flows = int(flows.size());
    // An all-to-all's many pairs spread over the ECMP paths by themselves: one flow a pair, as
    // the engine's expert all-to-all (unless asked otherwise).
    const int flowsPerPair = s.qpsOverride > 0 ? s.qpsOverride : s.op == BenchOp::AllToAll ? 1 : 0;
    FlowSimulation sim(t, router, s.nvlinkBps, flowsPerPair);
    // Flow by flow, each size on its own (what a buffer absorbs depends on the bytes), up to
    // the flows one core follows in a second or two; beyond, one solve at a reference size
    // scaled to every size (a fluid share's time grows with the bytes).
    const bool bySize = flows.size() <= kMaxFlowsReshared;
    FlowRun run = bySize ? FlowRun{} : sim.run(flows, false);
    // NCCL's all-to-all across three or more hosts reaches 0.74 of each GPU's NIC.
    double nicFloorPerRef = 0;
    if (s.op == BenchOp::AllToAll && out.nodes >= 3) {
        const double perGpuFabricBytes = kRefBytes * double(n - out.perNode) / n;
        double nicBps = 0;
        for (const Nic& nic : t.nics)
            if (nic.gpu == s.gpus.front()) nicBps = nic.gbps * 1e9 / 8;
        if (nicBps > 0)
            nicFloorPerRef = perGpuFabricBytes / (nicBps * nccl::kNcclAllToAllManyHostsGoodput);
    }
    // NCCL's operations pay its latency; the patterns are raw flows.
    const bool nccl = s.op == BenchOp::AllToAll || s.op == BenchOp::SendRecv;
    const double p2pLatencyS = !nccl           ? 0.0
                               : out.nodes > 1 ? nccl::kP2pNetLatencyS
                                               : nccl::kP2pNvlinkLatencyS;
    std::vector<double> finish(flows.size());
    for (double bytes : s.sizes) {
        double scale = bytes / kRefBytes;
        if (bySize) {
            std::vector<FlowSpec> sized = flows;
            for (FlowSpec& f : sized)
                f.bytes *= scale;
            run = sim.run(sized);
            scale = 1;
        }
        double slowest = 0;
        for (size_t f = 0; f < flows.size(); ++f) {
            const double fluid = run.finishS[f] - run.startS[f];
            finish[f] = p2pLatencyS + run.startS[f] + fluid * scale;
            slowest = std::max(slowest, finish[f]);
        }
        slowest = std::max({slowest, p2pLatencyS + nvlinkBytesPerRef * scale / s.nvlinkBps,
                            p2pLatencyS + nicFloorPerRef * scale});
        BenchRow row;
        row.bytes = bytes;
        row.count = countOf(s.op, bytes, n);
        row.timeUs = slowest * 1e6;
        row.algorithm = "flows";
        row.protocol = "-";
        row.algbwGBs = slowest > 0 ? bytes / slowest / 1e9 : 0;
        row.busbwGBs = row.algbwGBs * busFactor(s.op, n);
        std::sort(finish.begin(), finish.end()); // once, for the three percentiles
        row.p50Us = nearestRankOfSorted(finish, 0.50) * 1e6;
        row.p99Us = nearestRankOfSorted(finish, 0.99) * 1e6;
        row.maxUs = nearestRankOfSorted(finish, 1.0) * 1e6;
        busSum += row.busbwGBs;
        out.rows.push_back(row);
    }
    out.avgBusbwGBs = out.rows.empty() ? 0 : busSum / double(out.rows.size());
    return out;
}

LogComparison compareWithLog(const NcclTestsLog& log, const BenchResult& simulated,
                             double fromBytes) {
    LogComparison c;
    c.fromBytes = fromBytes;
    std::map<double, const BenchRow*> byBytes;
    for (const BenchRow& r : simulated.rows)
        byBytes[r.bytes] = &r;
    double sum = 0;
    for (const NcclTestsRow& m : log.rows) {
        const auto it = byBytes.find(m.bytes);
        if (it == byBytes.end()) continue;
        LogComparisonRow r;
        r.bytes = m.bytes;
        r.measuredBusbwGBs = m.busbwGBs;
        r.simulatedBusbwGBs = it->second->busbwGBs;
        r.measuredTimeUs = m.timeUs;
        r.simulatedTimeUs = it->second->timeUs;
        r.errorPct = m.busbwGBs > 0 ? 100 * (r.simulatedBusbwGBs / m.busbwGBs - 1) : 0;
        if (m.bytes >= fromBytes && m.busbwGBs > 0) {
            sum += std::fabs(r.errorPct);
            c.maxAbsErrorPct = std::max(c.maxAbsErrorPct, std::fabs(r.errorPct));
            ++c.compared;
        }
        c.rows.push_back(r);
    }
    c.meanAbsErrorPct = c.compared > 0 ? sum / c.compared : 0;
    return c;
}

} // namespace cs
