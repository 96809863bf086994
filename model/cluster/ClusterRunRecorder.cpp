#include "ClusterRunRecorder.h"

#include "ClusterRunJson.h"
#include "RunWriter.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

namespace cs {

ClusterRunRecorder::ClusterRunRecorder(const Topology& t, std::string name)
    : t_(t), name_(std::move(name)) {}

void ClusterRunRecorder::frame(double atS, const std::vector<ClusterFrameJob>& running) {
    // Events at one moment: the last one stands.
    if (!frames_.empty() && std::abs(frames_.back().first - atS) < 1e-9) frames_.pop_back();
    frames_.emplace_back(atS, running);
}

int64_t ClusterRunRecorder::write(RunStore& store, const ClusterRunResult& result) const {
    RunHeader h;
    h.name = name_;
    h.paramsJson = R"({"cluster": true})";
    RunWriter w(store, t_, h);
    const int64_t endNs = std::max<int64_t>(1, int64_t(std::llround(result.simulatedS * 1e9)));
    const int32_t pattern = w.addPattern("cluster", endNs);
    // Link traffic as one source per job and route (a restart may route it anew), each at its
    // bytes per step over its step when first seen, weighted per frame by that step over its
    // step then: the link's transfer list names the jobs on it.
    ComposedTraffic traffic;
    std::map<const void*, size_t> sourceOf;
    std::vector<double> baseStepS;
    std::vector<std::array<double, kTierCount>> tierBpsOf; // per source, by network tier
    QJsonArray sourceNames;
    std::map<int, int> routesOfJob;
    for (const auto& [atS, running] : frames_)
        for (const ClusterFrameJob& j : running) {
            if (!j.bytesPerStep || j.stepS <= 0 || sourceOf.count(j.bytesPerStep.get())) continue;
            sourceOf.emplace(j.bytesPerStep.get(), traffic.sources.size());
            baseStepS.push_back(j.stepS);
            TrafficSource src;
            std::array<double, kTierCount> tiers{};
            for (const auto& [r, bytes] : *j.bytesPerStep) {
                src.rates.emplace_back(uint32_t(r), float(bytes / j.stepS));
                const int tier = tierOfLink(t_, r / 2);
                if (tier >= 0) tiers[size_t(tier)] += bytes / j.stepS;
            }
            tierBpsOf.push_back(tiers);
            traffic.sources.push_back(std::move(src));
            const std::string& job = result.jobs[size_t(j.job)].name;
            const int route = ++routesOfJob[j.job];
            sourceNames.append(QJsonObject{
                {"kind", "job"},
                {"name",
                 QString::fromStdString(
                     "job " + job + (route > 1 ? " (route " + std::to_string(route) + ")" : ""))}});
        }
    w.setComposedTraffic(pattern, Metric::LinkBytesPerS, traffic);
    std::vector<float> busy(t_.gpus.size()), weights(traffic.sources.size()),
        storage(t_.storage.size());
    for (const auto& [atS, running] : frames_) {
        const int64_t offsetNs = int64_t(std::llround(atS * 1e9));
        if (offsetNs >= endNs) break;
        std::fill(busy.begin(), busy.end(), 0.0f);
        std::fill(weights.begin(), weights.end(), 0.0f);
        std::fill(storage.begin(), storage.end(), 0.0f);
        for (const ClusterFrameJob& j : running) {
            if (j.checkpointServerBps && j.checkpointServerBps->size() == storage.size())
                for (size_t s = 0; s < storage.size(); ++s)
                    storage[s] += float(j.checkpointWeight) * (*j.checkpointServerBps)[s];
            if (j.gpus)
                for (int32_t g : *j.gpus)
                    busy[size_t(g)] = float(j.computeFraction);
            if (!j.bytesPerStep || j.stepS <= 0) continue;
            const size_t k = sourceOf.at(j.bytesPerStep.get());
            weights[k] = float(baseStepS[k] / j.stepS);
        }
        w.addFrame(pattern, Metric::GpuBusy, offsetNs, busy);
        w.addComposedFrame(pattern, Metric::LinkBytesPerS, offsetNs, weights);
        std::vector<float> tiers(kTierCount, 0.f);
        for (size_t k = 0; k < weights.size(); ++k)
            for (int q = 0; q < kTierCount; ++q)
                tiers[size_t(q)] += float(weights[k] * tierBpsOf[k][size_t(q)]);
        w.addFrame(pattern, Metric::TierBytesPerS, offsetNs, tiers);
        if (!storage.empty()) w.addFrame(pattern, Metric::StorageBytesPerS, offsetNs, storage);
    }
    w.addSegment(0, endNs, pattern, 0);
    QJsonObject summary = clusterRunJson(result, t_);
    summary.insert("trafficSources", sourceNames);
    w.finish(endNs, QJsonDocument(summary).toJson(QJsonDocument::Compact).toStdString());
    return w.run();
}

} // namespace cs
