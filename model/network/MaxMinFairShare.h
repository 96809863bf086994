#pragma once
// Max-min fair rates of flows sharing capacitated resources (directed links), by
// progressive filling: the resource with the smallest fair share saturates first, its flows
// freeze at that share, the others' shares grow. A heap keeps the next resource to saturate,
// so a solve costs O(sum of path lengths x log resources).
#include <cstdint>
#include <span>
#include <vector>

namespace cs {

// The resources each flow crosses, as compressed rows.
struct FlowPaths {
    std::vector<int32_t> offsets{0};
    std::vector<int32_t> resources;
    void add(std::span<const int32_t> path);
    size_t flows() const { return offsets.size() - 1; }
    std::span<const int32_t> of(size_t f) const {
        return {resources.data() + offsets[f], size_t(offsets[f + 1] - offsets[f])};
    }
};

// Rates per flow (capacity units); flows crossing no resource get +infinity.
std::vector<double> maxMinFairRates(const std::vector<double>& capacity, const FlowPaths& paths);
// The textbook version, rescanning every resource each round: the baseline for benchmarks
// and the reference for tests.
std::vector<double> maxMinFairRatesNaive(const std::vector<double>& capacity,
                                         const FlowPaths& paths);

} // namespace cs

namespace cs {

// Transfers whose flows advance together (a ring step waits for its slowest edge, and NCCL
// splits a transfer evenly over its channels): transfer k at rate x puts load
// coefficient * x on each of its resources, and may not exceed its own cap.
struct TransferLoads {
    std::vector<int32_t> offsets{0};
    std::vector<int32_t> resources;
    std::vector<double> coefficients;
    std::vector<double> caps; // per transfer; +infinity for none
    // The transfers on each resource (the transpose), built by index() after the last add:
    // a solve finds what a saturated resource freezes there. Loads without it are indexed
    // per solve.
    std::vector<int32_t> onOffsets, on;
    void add(std::span<const std::pair<int32_t, double>> loads, double cap);
    void index(size_t nResources);
    size_t transfers() const { return offsets.size() - 1; }
};

// Working memory of a transfer solve, sized to the resources on first use and left zeroed,
// so that solves allocate nothing of the resources' size.
struct TransferSolveScratch {
    std::vector<double> frozenLoad, weight; // per resource
    std::vector<int32_t> unfrozenOn;        // per resource
    std::vector<int32_t> used;              // the resources with unfrozen transfers
    std::vector<int32_t> positionOf;        // per transfer of the loads: its place in `which`
    std::vector<uint8_t> state;             // per transfer solved: rising, freezing, frozen
    std::vector<size_t> freezing;
    // contendedTransferRates: per resource, its load and transfers at the first solve.
    std::vector<double> load;
    std::vector<int32_t> transfersOn;
    std::vector<int32_t> touched;
    std::vector<double> lowered; // the capacities of the second solve
    std::vector<double> queued;  // per resource: bytes its held transfers still send
    std::vector<int32_t> held;   // the transfers held inside the fabric (buffered solves)
    // After a buffered contended solve: seconds at these rates until the first lowered link's
    // queue fits its buffer (infinite when none will).
    double bufferDrainS = 0;
};

// Max-min fair rates of the transfers `which` (indices into `loads`; all of them when
// empty), by progressive filling in rounds: all unfrozen transfers rise together until a
// resource (or a transfer's cap) saturates, and the transfers on it freeze. Rounds are few
// (one per distinct bottleneck level), each a pass over the resources still in use; a
// resource's weight is kept as transfers freeze, and the transpose (TransferLoads::index)
// finds the transfers a saturated resource freezes.
// rate[i] belongs to which[i].
std::vector<double> maxMinFairTransferRates(const std::vector<double>& capacity,
                                            const TransferLoads& loads, std::span<const int> which,
                                            TransferSolveScratch& scratch);

// What a fabric's congestion control loses where flows collide (DCQCN's rate cuts, PFC's
// pauses): per link direction the fraction of its capacity it keeps then, and which
// directions carry a NIC's own sending into the fabric.
struct Contention {
    const std::vector<double>* efficiency = nullptr; // null: none lost
    const std::vector<uint8_t>* injection = nullptr; // per direction: from a NIC to a switch
    // Per transfer solved (`which`'s order): its bytes still to send; and per direction the
    // switch buffer before it. Where given, a link loses nothing while the bytes its held
    // transfers still send fit in its buffer: the burst is absorbed before pauses or marks.
    const std::vector<double>* remainingBytes = nullptr;
    const std::vector<double>* bufferBytes = nullptr;
};
// The same where a link that two or more transfers saturate, each held back there rather
// than at its own NIC (a sender at its line rate queues nothing), delivers only efficiency[r] of
// its capacity (FlowSimulation.h has the measured fractions). Solved once, and again with
// those links lowered when there are any.
std::vector<double> contendedTransferRates(const std::vector<double>& capacity,
                                           Contention contention, const TransferLoads& loads,
                                           std::span<const int> which,
                                           TransferSolveScratch& scratch);

} // namespace cs
