#include "RunJobs.h"

#include <QJsonArray>

#include <algorithm>
#include <map>
#include <optional>

namespace cs {
namespace {

double finiteOr(const QJsonValue& v, double fallback) {
    return v.isDouble() && std::isfinite(v.toDouble()) ? v.toDouble() : fallback;
}

// A link by its name, "<end a> -- <end b>", among the links of its first end.
std::optional<int32_t> linkNamed(const QString& name, const Topology& t, const TopologyIndex& ix) {
    const qsizetype dash = name.indexOf(" -- ");
    if (dash < 0) return std::nullopt;
    const auto a = ix.find(name.left(dash).toStdString());
    const auto b = ix.find(name.mid(dash + 4).toStdString());
    if (!a || !b) return std::nullopt;
    for (int32_t l : ix.linksOf(*a)) {
        const Link& k = t.links[size_t(l)];
        if ((k.a == *a && k.b == *b) || (k.a == *b && k.b == *a)) return l;
    }
    return std::nullopt;
}

} // namespace

std::vector<RunJob> runJobsOf(const QJsonObject& summary, const Topology& t,
                              const TopologyIndex& ix) {
    std::vector<RunJob> out;
    const QJsonArray jobs = summary.value("jobs").toArray();
    // The traffic sources named after jobs, by the job's name.
    std::map<std::string, std::vector<int32_t>> sourcesOf;
    const QJsonArray sources = summary.value("trafficSources").toArray();
    for (qsizetype k = 0; k < sources.size() && k < qsizetype(kMaxRunJobs) * 8; ++k) {
        const QJsonObject o = sources[k].toObject();
        if (o.value("kind").toString() != "job") continue;
        QString name = o.value("name").toString().left(300);
        if (!name.startsWith("job ")) continue;
        name = name.mid(4);
        if (const qsizetype after = name.indexOf(" (route "); after >= 0) name = name.left(after);
        sourcesOf[name.toStdString()].push_back(int32_t(k));
    }
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
        for (const QJsonValue& m : o.value("metOthersOn").toArray()) {
            if (j.metLinks.size() >= kMaxRunJobMetLinks) break;
            const QString name = m.toObject().value("link").toString().left(1024);
            if (const auto link = linkNamed(name, t, ix)) j.metLinks.push_back(*link);
        }
        if (const auto it = sourcesOf.find(j.name); it != sourcesOf.end())
            j.trafficSources = it->second;
        j.submitS = finiteOr(o.value("submitS"), NAN);
        j.startS = finiteOr(o.value("startS"), NAN);
        j.endS = finiteOr(o.value("endS"), NAN);
        j.hostsFromS = finiteOr(o.value("hostsFromS"), NAN);
        j.waitS = finiteOr(o.value("waitS"), NAN);
        j.slowdown = finiteOr(o.value("slowdown"), NAN);
        out.push_back(std::move(j));
    }
    return out;
}

std::vector<Endpoint> jobEntities(const RunJob& job, const Topology& t) {
    std::vector<Endpoint> out;
    std::vector<int32_t> links = job.metLinks;
    std::vector<uint8_t> ofJob(t.hosts.size(), 0);
    for (int32_t h : job.hosts)
        ofJob[size_t(h)] = 1;
    // Per rack: its GPU hosts, and how many are the job's.
    std::vector<int32_t> hostsIn(t.racks.size(), 0), jobsIn(t.racks.size(), 0);
    for (size_t h = 0; h < t.hosts.size(); ++h) {
        const Host& host = t.hosts[h];
        if (host.rack == kNone || size_t(host.rack) >= t.racks.size() || host.gpuCount <= 0)
            continue;
        ++hostsIn[size_t(host.rack)];
        jobsIn[size_t(host.rack)] += ofJob[h];
    }
    for (size_t r = 0; r < t.racks.size(); ++r)
        if (jobsIn[r] > 0 && jobsIn[r] == hostsIn[r]) out.push_back({EntityKind::Rack, int32_t(r)});
    for (int32_t h : job.hosts) {
        const int32_t rack = t.hosts[size_t(h)].rack;
        if (rack == kNone || size_t(rack) >= t.racks.size() ||
            jobsIn[size_t(rack)] != hostsIn[size_t(rack)])
            out.push_back({EntityKind::Host, h});
    }
    std::sort(links.begin(), links.end());
    links.erase(std::unique(links.begin(), links.end()), links.end());
    for (int32_t l : links)
        out.push_back({EntityKind::Link, l});
    return out;
}

std::vector<int32_t> jobGpus(const RunJob& job, const Topology& t) {
    return t.gpusOfHosts(job.hosts);
}

double jobColourFraction(size_t k) {
    const double golden = 0.6180339887498949;
    return std::fmod(double(k + 1) * golden, 1.0);
}

std::vector<float> jobFractionsAt(const std::vector<RunJob>& jobs, const Topology& t, double tS) {
    std::vector<float> out(t.gpus.size(), std::nanf(""));
    for (size_t k = 0; k < jobs.size(); ++k) {
        if (!jobs[k].holdsHostsAt(tS)) continue;
        for (int32_t h : jobs[k].hosts) {
            const Host& host = t.hosts[size_t(h)];
            for (int g = 0; g < host.gpuCount; ++g)
                out[size_t(host.firstGpu + g)] = float(jobColourFraction(k));
        }
    }
    return out;
}

} // namespace cs
