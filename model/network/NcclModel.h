#pragma once
// NCCL's side of one collective: which algorithm and protocol it runs at a size, and how long
// that takes, given what the fabric and NVLink give its channels. A collective of S bytes takes
// alpha + S / algbw: alpha from NCCL's own latency model (src/graph/tuning.cc: a base latency
// per algorithm and protocol plus a latency per step inside a host and per step across hosts,
// the steps counted as NCCL counts them), with its per-step latencies taken as nccl-tests
// measures them; algbw from the bus bandwidth the algorithm reaches on the network and NVLink,
// less what each protocol loses (LL half its bytes, LL128 8 of 128), within NCCL's caps per
// channel. The algorithm and protocol are the fastest by that time, as NCCL's tuner takes the
// fastest by its own model. Inside one host, the measured nccl-tests curve (CollectiveSize.h).
// Sources: docs/reference/collectives.md.
#include <string>
#include <vector>

namespace cs {

enum class NcclOp { AllReduce, AllGather, ReduceScatter, Broadcast, Reduce, AllToAll, SendRecv };
enum class NcclAlgo { Ring, Tree, Nvls, NvlsTree, CollNet, Pat };
enum class NcclProto { LL, LL128, Simple };
const char* toString(NcclAlgo a);
const char* toString(NcclProto p);

// What the collective runs on.
struct NcclGroup {
    int ranks = 1, nodes = 1, perNode = 1; // nodes: NVLink domains spanned; perNode: the most
    std::string family = "hopper";         // the GPUs' family
    // Bus bandwidth (bytes per second) a ring reaches on the network alone: the ranks of a node
    // times what each rail's edge gets of the fabric (its NIC, shared links, NCCL's channels).
    double netBusBps = 0;
    // Per GPU and direction over NVLink (a ring inside the node), and what NVLink SHARP
    // (NVSwitch multicast) reaches as all-reduce bus bandwidth inside a node; 0: none.
    double nvlinkBps = 0, nvlsBusBps = 0;
    int channels = 16;  // NCCL's ring channels (LL128's per-channel cap)
    bool sharp = false; // the switches reduce (CollNet)
};

struct NcclChoice {
    NcclAlgo algo = NcclAlgo::Ring;
    NcclProto proto = NcclProto::Simple;
    double seconds = 0;
};

// The algorithms NCCL may run for the op on the group ("auto"), or the one asked for (no
// choice: nothing when it cannot run the op there, e.g. a tree for an all-gather).
struct NcclAlgoFilter {
    bool any = true;
    NcclAlgo only = NcclAlgo::Ring;
};
// Empty when no algorithm the filter allows runs the op on the group; else the fastest.
std::vector<NcclChoice> ncclCandidates(NcclOp op, const NcclGroup& g, double bytes,
                                       NcclAlgoFilter filter = {});
NcclChoice ncclFastest(NcclOp op, const NcclGroup& g, double bytes, NcclAlgoFilter filter = {});
// nccl-tests' bus bandwidth factor: busbw = algbw x this.
double ncclBusFactor(NcclOp op, int ranks);

} // namespace cs
