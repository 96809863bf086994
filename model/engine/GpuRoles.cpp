#include "GpuRoles.h"

#include "RunSpecJson.h"
#include "StepBreakdown.h"

#include <QJsonArray>

#include <algorithm>
#include <cstdio>
#include <limits>

namespace cs {

std::optional<GpuRoles> GpuRoles::ofSummary(const Topology& t, const TopologyIndex& ix,
                                            const QJsonObject& summary) {
    if (!summary.value("config").isObject()) return std::nullopt;
    try {
        const RunSpec spec = runSpecOfJson(summary.value("config"), JsonPath{});
        GpuRoles roles;
        roles.c_ = spec.parallel;
        roles.summary_ = summary;
        const std::vector<int32_t> gpuOfRank = placeRanks(t, ix, spec.parallel);
        roles.rank_.assign(t.gpus.size(), -1);
        for (size_t r = 0; r < gpuOfRank.size(); ++r)
            if (size_t(gpuOfRank[r]) < roles.rank_.size())
                roles.rank_[size_t(gpuOfRank[r])] = int(r);
        return roles;
    } catch (const std::exception&) {
        return std::nullopt; // settings this build cannot read, or a job that does not fit
    }
}

std::optional<RankCoord> GpuRoles::of(int32_t gpu) const {
    const int r = rankOf(gpu);
    if (r < 0) return std::nullopt;
    return coordOf(c_, r);
}

int GpuRoles::count(Axis axis) const {
    return axis == Axis::Stage ? c_.pp : axis == Axis::DpReplica ? c_.dp : c_.tp;
}

std::vector<float> GpuRoles::fractions(Axis axis) const {
    std::vector<float> out(rank_.size(), std::numeric_limits<float>::quiet_NaN());
    const double last = std::max(1, count(axis) - 1);
    for (size_t g = 0; g < rank_.size(); ++g) {
        if (rank_[g] < 0) continue;
        const RankCoord x = coordOf(c_, rank_[g]);
        const int i = axis == Axis::Stage ? x.p : axis == Axis::DpReplica ? x.d : x.t;
        out[g] = float(i / last);
    }
    return out;
}

std::vector<std::pair<std::string, std::string>> GpuRoles::lines(int32_t gpu) const {
    std::vector<std::pair<std::string, std::string>> out;
    const auto x = of(gpu);
    if (!x) {
        out.emplace_back("rank", "not in the job");
        return out;
    }
    auto ofN = [](long long i, long long n) {
        return std::to_string(i) + " of " + std::to_string(n);
    };
    out.emplace_back("rank", ofN(rankOf(gpu), c_.gpus()));
    out.emplace_back("pipeline stage", ofN(x->p, c_.pp));
    out.emplace_back("DP replica", ofN(x->d, c_.dp));
    out.emplace_back("TP rank", ofN(x->t, c_.tp));
    if (c_.cp > 1) out.emplace_back("CP rank", ofN(x->c, c_.cp));
    // Its stage's step, as the breakdown measured it.
    const QJsonObject parts = summary_.value("stages").toArray().at(x->p).toObject();
    const double stepS = summary_.value("stepTimeS").toDouble();
    for (const StepPartName& n : stepPartNames()) {
        const double s =
            parts.value(QLatin1String(n.key.data(), qsizetype(n.key.size()))).toDouble();
        if (!(s >= 0.0005)) continue;
        char value[64];
        std::snprintf(value, sizeof value, "%.3f s (%.0f%%)", s, stepS > 0 ? s / stepS * 100 : 0);
        out.emplace_back("stage " + std::to_string(x->p) + ": " + std::string(n.label), value);
    }
    return out;
}

} // namespace cs
