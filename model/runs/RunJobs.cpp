#include "RunJobs.h"

#include <QJsonArray>

#include <algorithm>

namespace cs {
namespace {

double finiteOr(const QJsonValue& v, double fallback) {
    return v.isDouble() && std::isfinite(v.toDouble()) ? v.toDouble() : fallback;
}

} // namespace

std::vector<RunJob> runJobsOf(const QJsonObject& summary, const Topology& t,
                              const TopologyIndex& ix) {
    std::vector<RunJob> out;
    const QJsonArray jobs = summary.value("jobs").toArray();
    for (const QJsonValue& v : jobs) {
        if (out.size() >= kMaxRunJobs) break;
        const QJsonObject o = v.toObject();
        if (!o.value("name").isString()) continue;
        RunJob j;
        j.name = o.value("name").toString().left(256).toStdString();
        j.state = o.value("state").toString().left(32).toStdString();
        j.model = o.value("model").toString().left(64).toStdString();
        j.gpus = (long long)std::clamp(finiteOr(o.value("gpus"), 0), 0.0, 1e9);
        for (const QJsonValue& h : o.value("hosts").toArray()) {
            if (j.hosts.size() >= t.hosts.size()) break;
            const auto e = ix.find(h.toString().toStdString());
            if (e && e->kind == EntityKind::Host) j.hosts.push_back(e->index);
        }
        std::sort(j.hosts.begin(), j.hosts.end());
        j.hosts.erase(std::unique(j.hosts.begin(), j.hosts.end()), j.hosts.end());
        j.submitS = finiteOr(o.value("submitS"), NAN);
        j.startS = finiteOr(o.value("startS"), NAN);
        j.endS = finiteOr(o.value("endS"), NAN);
        j.waitS = finiteOr(o.value("waitS"), NAN);
        j.slowdown = finiteOr(o.value("slowdown"), NAN);
        out.push_back(std::move(j));
    }
    return out;
}

double jobColourFraction(size_t k) {
    const double golden = 0.6180339887498949;
    return std::fmod(double(k + 1) * golden, 1.0);
}

std::vector<float> jobFractionsAt(const std::vector<RunJob>& jobs, const Topology& t, double tS) {
    std::vector<float> out(t.gpus.size(), std::nanf(""));
    for (size_t k = 0; k < jobs.size(); ++k) {
        if (!jobs[k].runsAt(tS)) continue;
        for (int32_t h : jobs[k].hosts) {
            const Host& host = t.hosts[size_t(h)];
            for (int g = 0; g < host.gpuCount; ++g)
                out[size_t(host.firstGpu + g)] = float(jobColourFraction(k));
        }
    }
    return out;
}

} // namespace cs
