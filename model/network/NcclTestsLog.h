#pragma once
// The text nccl-tests prints (all_reduce_perf, all_gather_perf, ...): its header (the ranks and
// the hosts they ran on, the GPU, NCCL's version) and its table of sizes with the out-of-place
// and in-place time, algorithm bandwidth and bus bandwidth. Lines may carry the prefix an MPI
// launcher or srun adds ("[1,0]<stdout>:", "0: ", "node1: "). The columns are found by the
// table's own header line, so older layouts (without `root`, `error` for `#wrong`) read too.
#include <cstdint>
#include <string>
#include <vector>

namespace cs {

struct NcclTestsRow {
    double bytes = 0;
    double count = 0;
    std::string type, redop;
    int root = -1; // broadcast and reduce: the root; -1 where the log has none
    // Out of place, and in place (negative where the log has no in-place half).
    double timeUs = 0, algbwGBs = 0, busbwGBs = 0;
    double inPlaceTimeUs = -1, inPlaceAlgbwGBs = -1, inPlaceBusbwGBs = -1;
    int line = 0; // in the file, from 1
};

struct NcclTestsLog {
    std::string file;
    // "all_reduce": from "Collective test starting: all_reduce_perf", else from the command
    // line that ran it, else from the table (the reduction, root and count columns).
    std::string op;
    int ranks = 0;                  // the "#  Rank  N ..." lines
    std::vector<std::string> hosts; // distinct, in order of first rank
    std::string gpu;                // the first rank's device name
    std::string ncclVersion;        // "2.24.3+cuda12.6"
    std::vector<NcclTestsRow> rows;
    double avgBusbwGBs = -1; // "# Avg bus bandwidth", where printed
    int gpusPerHost() const { return hosts.empty() ? 0 : ranks / int(hosts.size()); }
};

// Logs larger than this are refused (a sweep is a few KiB; a log with every rank's lines of
// thousands of GPUs is a few MiB).
constexpr long long kMaxNcclTestsLogBytes = 64LL << 20;

// Throws InputException naming the file and line: no table, a row whose columns do not read
// as numbers where the header says they should, sizes out of order.
NcclTestsLog parseNcclTestsLog(const std::string& text, const std::string& file);
NcclTestsLog readNcclTestsLog(const std::string& path);
// The log's sizes, ascending, each once: where to simulate it (the command, the Collectives
// dock and the fuzz target alike).
std::vector<double> logSizes(const NcclTestsLog& log);

} // namespace cs
