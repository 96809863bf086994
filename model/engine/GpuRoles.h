#pragma once
// The ranks a simulated run gave each GPU: its TP, CP and DP rank and pipeline stage, placed as
// the run placed them (the run's own settings, kept in its summary's "config"), and the rows
// the inspector shows for a GPU: its ranks and its stage's step, part by part.
#include "RankPlacement.h"

#include <QJsonObject>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cs {

class GpuRoles {
public:
    // None: the summary holds no run settings (a recorded run) or they do not place on `t`.
    static std::optional<GpuRoles> ofSummary(const Topology& t, const TopologyIndex& ix,
                                             const QJsonObject& summary);
    std::optional<RankCoord> of(int32_t gpu) const;
    int rankOf(int32_t gpu) const { return size_t(gpu) < rank_.size() ? rank_[size_t(gpu)] : -1; }
    const ParallelConfig& config() const { return c_; }
    // ("rank", "1234 of 24,576"), ("pipeline stage", "5 of 16"), ... then the stage's step:
    // ("stage 5: compute", "4.102 s (67%)"), ... for the parts that take time.
    std::vector<std::pair<std::string, std::string>> lines(int32_t gpu) const;
    // Per GPU, its pipeline stage (DP replica, TP rank) from 0 to 1, first to last; NaN for a
    // GPU outside the job. count(): how many there are.
    enum class Axis { Stage, DpReplica, TpRank };
    std::vector<float> fractions(Axis axis) const;
    int count(Axis axis) const;

private:
    ParallelConfig c_;
    std::vector<int> rank_; // per GPU; -1: not in the job
    QJsonObject summary_;
};

} // namespace cs
