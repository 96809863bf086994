#include "ClusterRunRecorder.h"

#include "ClusterRunJson.h"
#include "RunWriter.h"

#include <QJsonDocument>

#include <algorithm>
#include <cmath>

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
    std::vector<float> busy(t_.gpus.size()), perDirection(2 * t_.links.size()),
        perLink(t_.links.size());
    for (const auto& [atS, running] : frames_) {
        const int64_t offsetNs = int64_t(std::llround(atS * 1e9));
        if (offsetNs >= endNs) break;
        std::fill(busy.begin(), busy.end(), 0.0f);
        std::fill(perDirection.begin(), perDirection.end(), 0.0f);
        for (const ClusterFrameJob& j : running) {
            if (j.gpus)
                for (int32_t g : *j.gpus)
                    busy[size_t(g)] = float(j.computeFraction);
            if (j.bytesPerStep && j.stepS > 0)
                for (const auto& [r, bytes] : *j.bytesPerStep)
                    perDirection[size_t(r)] += float(bytes / j.stepS);
        }
        for (size_t l = 0; l < perLink.size(); ++l)
            perLink[l] = std::max(perDirection[2 * l], perDirection[2 * l + 1]);
        w.addFrame(pattern, Metric::GpuBusy, offsetNs, busy);
        w.addFrame(pattern, Metric::LinkBytesPerS, offsetNs, perLink);
    }
    w.addSegment(0, endNs, pattern, 0);
    const QByteArray summary =
        QJsonDocument(clusterRunJson(result, t_)).toJson(QJsonDocument::Compact);
    w.finish(endNs, summary.toStdString());
    return w.run();
}

} // namespace cs
