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
    void add(std::span<const std::pair<int32_t, double>> loads, double cap);
    size_t transfers() const { return offsets.size() - 1; }
};

// Max-min fair rates of such transfers, by progressive filling in rounds: all unfrozen
// transfers rise together until a resource (or a transfer's cap) saturates, and the
// transfers on it freeze. Rounds are few (one per distinct bottleneck level), each a pass
// over the transfers' loads. `scratch` is sized to the resources and left zeroed.
std::vector<double> maxMinFairTransferRates(const std::vector<double>& capacity,
                                            const TransferLoads& loads,
                                            std::vector<double>& scratchLoad,
                                            std::vector<double>& scratchWeight);

} // namespace cs
