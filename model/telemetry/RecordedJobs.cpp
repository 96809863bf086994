#include "RecordedJobs.h"

#include <QJsonObject>

#include <algorithm>
#include <cctype>
#include <cmath>

namespace cs {
namespace {

const char* const kJobLabels[] = {"hpc_job", "slurm_job_id", "slurm_job", "jobid", "job_id"};
constexpr size_t kMaxJobs = 100000; // a hostile file cannot make millions

const std::string* labelValue(const Labels& labels, const std::string& name) {
    const auto it =
        std::lower_bound(labels.begin(), labels.end(), name,
                         [](const auto& l, const std::string& n) { return l.first < n; });
    return it != labels.end() && it->first == name && !it->second.empty() ? &it->second : nullptr;
}

bool slurmLike(const std::string& s) {
    // 12345, 12345_7 (an array task), 12345.0 (a step)
    return !s.empty() && std::isdigit(static_cast<unsigned char>(s.front())) &&
           std::all_of(s.begin(), s.end(), [](char c) {
               return std::isdigit(static_cast<unsigned char>(c)) || c == '_' || c == '.';
           });
}

} // namespace

void RecordedJobs::note(Seen& s, int32_t gpu,
                        const std::vector<std::pair<int64_t, double>>& samples) {
    s.gpus.insert(gpu);
    for (const auto& [ts, v] : samples) {
        s.firstNs = std::min(s.firstNs, ts);
        s.lastNs = std::max(s.lastNs, ts);
    }
}

void RecordedJobs::add(const Labels& labels, int32_t gpu,
                       const std::vector<std::pair<int64_t, double>>& samples) {
    if (samples.empty()) return;
    for (const char* name : kJobLabels)
        if (const std::string* v = labelValue(labels, name)) {
            if (named_.size() < kMaxJobs || named_.count(*v)) note(named_[*v], gpu, samples);
            return;
        }
    if (const std::string* v = labelValue(labels, "job"))
        if (scrapeJob_.size() < kMaxJobs || scrapeJob_.count(*v))
            note(scrapeJob_[*v], gpu, samples);
}

std::vector<RecordedJob> RecordedJobs::jobs(const Topology& t, int64_t originNs) const {
    const std::map<std::string, Seen>* from = &named_;
    if (named_.empty()) {
        // `job` names jobs where its values are Slurm ids or split the GPUs between them.
        const bool slurm = std::all_of(scrapeJob_.begin(), scrapeJob_.end(),
                                       [](const auto& j) { return slurmLike(j.first); });
        if (!scrapeJob_.empty() && (slurm || scrapeJob_.size() > 1)) from = &scrapeJob_;
    }
    std::vector<RecordedJob> out;
    for (const auto& [name, seen] : *from) {
        RecordedJob j;
        j.name = name;
        j.gpus.assign(seen.gpus.begin(), seen.gpus.end());
        std::set<int32_t> hosts;
        for (int32_t g : j.gpus)
            if (size_t(g) < t.gpus.size()) hosts.insert(t.gpus[size_t(g)].host);
        for (int32_t h : hosts)
            if (h != kNone) j.hosts.push_back(t.hosts[size_t(h)].name);
        j.startS = double(seen.firstNs - originNs) / 1e9;
        j.endS = double(seen.lastNs - originNs) / 1e9;
        out.push_back(std::move(j));
    }
    return out;
}

QJsonArray recordedJobsJson(const std::vector<RecordedJob>& jobs) {
    QJsonArray out;
    for (const RecordedJob& j : jobs) {
        QJsonArray hosts;
        for (const std::string& h : j.hosts)
            hosts.append(QString::fromStdString(h));
        QJsonObject o{{"name", QString::fromStdString(j.name)},
                      {"gpus", double(j.gpus.size())},
                      {"hosts", hosts},
                      {"startS", j.startS}};
        if (std::isfinite(j.endS)) o.insert("endS", j.endS); // none: still running
        out.append(o);
    }
    return out;
}

} // namespace cs
