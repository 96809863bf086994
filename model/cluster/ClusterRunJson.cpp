#include "ClusterRunJson.h"

#include "Duration.h"
#include "StepTimeDistribution.h"

#include <QJsonArray>

#include <cstdio>

namespace cs {
namespace {

QString text(std::string_view s) {
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

QJsonObject jobJson(const ClusterJobResult& j, const Topology& t) {
    QJsonObject o{{"name", text(j.name)},
                  {"model", text(j.model)},
                  {"gpus", double(j.gpus)},
                  {"priority", j.priority},
                  {"state", text(kClusterJobStateNames.name(j.state))},
                  {"submitS", j.submitS},
                  {"waitS", j.waitS},
                  {"steps", j.steps},
                  {"restarts", j.restarts},
                  {"lostSteps", j.lostSteps}};
    if (j.startS >= 0) o.insert("startS", j.startS);
    if (j.hostsFromS >= 0) o.insert("hostsFromS", j.hostsFromS);
    if (j.endS >= 0) o.insert("endS", j.endS);
    if (!j.error.empty()) o.insert("error", text(j.error));
    if (j.aloneStepS > 0 && j.startS >= 0) {
        o.insert("stepTimeS", j.stepS);
        o.insert("aloneStepTimeS", j.aloneStepS);
        o.insert("slowdown", j.slowdown());
        const StepTimeDistribution d = distributionOfSteps(j.stepsAt);
        if (d.steps > 0)
            o.insert(
                "stepTimeDistribution",
                QJsonObject{{"p50", d.p50S}, {"p99", d.p99S}, {"max", d.maxS}, {"meanS", d.meanS}});
        o.insert("pods", j.pods);
        o.insert("racks", j.racks);
        o.insert("checkpoints", j.checkpoints);
        o.insert("checkpointS", j.checkpointS());
        o.insert("aloneCheckpointS", j.aloneCheckpointS);
        o.insert("checkpointsShared", j.checkpointsShared);
        QJsonArray with;
        for (const std::string& n : j.checkpointMet)
            with.append(text(n));
        o.insert("checkpointedWith", with);
    }
    QJsonArray hosts;
    for (int32_t h : j.hosts)
        hosts.append(text(t.hosts[size_t(h)].name));
    o.insert("hosts", hosts);
    QJsonArray timeline;
    for (const auto& [at, step] : j.stepTimeline)
        timeline.append(QJsonArray{at, step});
    o.insert("stepTimeline", timeline);
    QJsonArray met;
    for (const ClusterJobResult::Meeting& m : j.meetings) {
        QJsonArray jobs;
        for (const std::string& n : m.jobs)
            jobs.append(text(n));
        met.append(QJsonObject{{"link", text(t.nameOf({EntityKind::Link, m.link}))},
                               {"othersBusy", m.othersBusy},
                               {"jobs", jobs}});
    }
    o.insert("metOthersOn", met);
    return o;
}

std::string seconds(double s) {
    return s < 0 ? "-" : formatElapsed(int64_t(s * 1e9));
}

} // namespace

QJsonObject clusterRunJson(const ClusterRunResult& r, const Topology& t) {
    QJsonArray jobs;
    for (const ClusterJobResult& j : r.jobs)
        jobs.append(jobJson(j, t));
    QJsonArray fragmentation;
    for (const FragmentationSample& s : r.fragmentation) {
        QJsonArray perPod;
        for (long long n : s.freeGpusPerPod)
            perPod.append(double(n));
        fragmentation.append(QJsonObject{{"atS", s.atS},
                                         {"freeGpus", double(s.freeGpus)},
                                         {"largestFreeBlock", double(s.largestFreeBlock)},
                                         {"idleWhileWaiting", double(s.idleWhileWaiting)},
                                         {"queued", s.queued},
                                         {"running", s.running},
                                         {"freeGpusPerPod", perPod}});
    }
    return {{"scheduler", text(kSchedulerPolicyNames.name(r.scheduler))},
            {"simulatedS", r.simulatedS},
            {"gpus", double(r.totalGpus)},
            {"stepEstimates", double(r.stepEstimates)},
            {"jobs", jobs},
            {"fragmentation", fragmentation}};
}

std::string clusterRunText(const ClusterRunResult& r, const Topology& t) {
    std::string out;
    char line[512];
    std::snprintf(line, sizeof line, "%s scheduler, %lld GPUs, %s simulated\n",
                  std::string(kSchedulerPolicyNames.name(r.scheduler)).c_str(), r.totalGpus,
                  seconds(r.simulatedS).c_str());
    out += line;
    std::snprintf(line, sizeof line, "%-16s %-12s %6s %-8s %14s %14s %9s %9s %8s %5s %6s  %s\n",
                  "job", "model", "GPUs", "state", "waited", "started", "alone s", "step s",
                  "slowdown", "pods", "racks", "met on the fabric");
    out += line;
    for (const ClusterJobResult& j : r.jobs) {
        std::string met;
        if (!j.meetings.empty()) {
            const auto& m = j.meetings.front();
            met = t.nameOf({EntityKind::Link, m.link}) + " (";
            for (size_t k = 0; k < m.jobs.size() && k < 3; ++k)
                met += (k ? ", " : "") + m.jobs[k];
            met += m.jobs.size() > 3 ? ", ...)" : ")";
        }
        if (j.restarts > 0)
            met = std::to_string(j.restarts) + " restart(s) on fabric failures" +
                  (met.empty() ? "" : "; " + met);
        if (!j.error.empty()) met = j.error;
        // A job that never started has no step and no slowdown: its wait is what it shows.
        const bool started = j.startS >= 0;
        auto figure = [&](double v) {
            char cell[32];
            std::snprintf(cell, sizeof cell, "%.3f", v);
            return started ? std::string(cell) : std::string("-");
        };
        std::snprintf(
            line, sizeof line, "%-16.16s %-12.12s %6lld %-8s %14s %14s %9s %9s %8s %5d %6d  ",
            j.name.c_str(), j.model.c_str(), j.gpus,
            std::string(kClusterJobStateNames.name(j.state)).c_str(), seconds(j.waitS).c_str(),
            seconds(j.startS).c_str(), figure(j.aloneStepS).c_str(), figure(j.stepS).c_str(),
            figure(j.slowdown()).c_str(), j.pods, j.racks);
        out += line + met + "\n"; // the last column as long as it is
    }
    long long mostIdle = 0;
    double idleGpuS = 0;
    for (size_t k = 0; k + 1 < r.fragmentation.size(); ++k) {
        const FragmentationSample& s = r.fragmentation[k];
        mostIdle = std::max(mostIdle, s.idleWhileWaiting);
        idleGpuS += double(s.idleWhileWaiting) * (r.fragmentation[k + 1].atS - s.atS);
    }
    std::snprintf(line, sizeof line,
                  "GPUs idle while jobs waited: at most %lld, %.0f GPU-hours in all\n", mostIdle,
                  idleGpuS / 3600);
    out += line;
    return out;
}

} // namespace cs
