#pragma once
// nccl-tests on a design: one collective over a group of GPUs at a sweep of sizes, timed by
// the network model (NcclModel.h for NCCL's algorithms over the bus bandwidth the fabric
// gives the group's rails; FlowSimulation.h for point-to-point patterns), with nccl-tests'
// columns: size, count, type, time, algbw and busbw.
#include "FabricRouter.h"
#include "NcclModel.h"
#include "NcclTestsLog.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cs {

// The collectives of nccl-tests, and two patterns a fabric is judged by: a permutation (each
// GPU sends to a distinct other, seeded) and an incast (every GPU but the first sends to it).
enum class BenchOp {
    AllReduce,
    AllGather,
    ReduceScatter,
    AllToAll,
    SendRecv,
    Broadcast,
    Reduce,
    Permutation,
    Incast
};
const char* toString(BenchOp op);
std::optional<BenchOp> parseBenchOp(const std::string& s);
std::string benchOpChoices();
// "all_reduce" from a log's "all_reduce_perf".
std::optional<BenchOp> benchOpOfLog(const std::string& logOp);

enum class GroupPlacement { Packed, Fragmented };

// The group's GPUs in rank order: `perHost` GPUs (the first of each host) from hosts taken in
// index order (packed: pod by pod, rack by rack) or from whole racks in a seeded random order
// (fragmented, as a busy scheduler hands them out). Throws InputException naming the field
// ("--gpus") when the topology has too few.
std::vector<int32_t> collectiveGpus(const Topology& t, int gpus, int perHost,
                                    GroupPlacement placement, uint64_t seed);

struct BenchSetup {
    BenchOp op = BenchOp::AllReduce;
    std::vector<int32_t> gpus;     // rank order
    std::string family = "hopper"; // the GPUs' family
    double nvlinkBps = 0;          // per GPU and direction, as NCCL reaches it
    double nvlsBusBps = 0;         // NVLink SHARP's all-reduce bus bandwidth; 0: none
    NcclAlgoFilter algo;           // auto, or the algorithm asked for
    int channelsPerNic = 0;        // NCCL's channels per NIC; 0: its default (2)
    int qpsOverride = 0;           // > 0: flows per GPU pair instead of the transport's
    uint64_t seed = 1;             // the permutation's
    std::vector<double> sizes;     // bytes, ascending
};

struct BenchRow {
    double bytes = 0, count = 0;
    double timeUs = 0, algbwGBs = 0, busbwGBs = 0;
    std::string algorithm, protocol; // what NCCL runs at the size ("flows" for patterns)
    // Permutation, incast, all-to-all and send/recv: per-flow completion.
    double p50Us = -1, p99Us = -1, maxUs = -1;
};

struct BenchResult {
    BenchOp op = BenchOp::AllReduce;
    int ranks = 0, nodes = 0, perNode = 0;
    double netBusGBs = 0; // the rails' bus bandwidth on the network (0: one node)
    double perNicGBs = 0; // what each rail's edge gets of the fabric and NCCL's channels
    std::vector<BenchRow> rows;
    double avgBusbwGBs = 0; // over the rows, as nccl-tests prints it
    int flows = 0;          // point-to-point patterns: the flows of one size
};

// Sizes from `minBytes` to `maxBytes`, each `factor` times the one before (nccl-tests' -b, -e,
// -f), rounded down to whole elements of 4 bytes.
std::vector<double> benchSizes(double minBytes, double maxBytes, double factor);

BenchResult runCollectiveBench(const Topology& t, const TopologyIndex& ix, const BenchSetup& s);

// A measured log held against the simulated rows of the same sizes.
struct LogComparisonRow {
    double bytes = 0, measuredBusbwGBs = 0, simulatedBusbwGBs = 0, errorPct = 0;
    double measuredTimeUs = 0, simulatedTimeUs = 0;
};
struct LogComparison {
    std::vector<LogComparisonRow> rows;
    // From `fromBytes` up (1 MiB): the mean and largest |error| of busbw, percent.
    double meanAbsErrorPct = 0, maxAbsErrorPct = 0;
    double fromBytes = 1 << 20;
    int compared = 0;
};
LogComparison compareWithLog(const NcclTestsLog& log, const BenchResult& simulated,
                             double fromBytes = 1 << 20);

} // namespace cs
