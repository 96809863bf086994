#include "SharedFabric.h"

#include <algorithm>
#include <unordered_map>

namespace cs {

double busyFraction(double bytesPerStep, double stepS, double capacityBps) {
    if (bytesPerStep <= 0) return 0;
    if (stepS <= 0 || capacityBps <= 0) return 1;
    return std::min(1.0, bytesPerStep / (stepS * capacityBps));
}

std::vector<CapacityLeft> capacityLeft(std::span<const JobLinkLoad* const> jobs,
                                       const std::vector<double>& capacityBps) {
    // Per direction loaded by more than one job: the sum of busy fractions and the jobs.
    struct Shared {
        double busy = 0;
        std::vector<std::pair<int, double>> jobs; // job, its busy fraction
    };
    std::unordered_map<int32_t, int> users;
    for (const JobLinkLoad* j : jobs)
        for (const auto& [r, bytes] : j->bytesPerStep)
            if (bytes > 0) ++users[r];
    std::unordered_map<int32_t, Shared> shared;
    for (size_t k = 0; k < jobs.size(); ++k)
        for (const auto& [r, bytes] : jobs[k]->bytesPerStep) {
            if (bytes <= 0 || users[r] < 2) continue;
            const double d = busyFraction(bytes, jobs[k]->stepS, capacityBps[size_t(r)]);
            Shared& s = shared[r];
            s.busy += d;
            s.jobs.emplace_back(int(k), d);
        }
    std::vector<CapacityLeft> out(jobs.size());
    for (size_t k = 0; k < jobs.size(); ++k) {
        CapacityLeft& c = out[k];
        for (const auto& [r, bytes] : jobs[k]->bytesPerStep) {
            const auto it = shared.find(r);
            if (bytes <= 0 || it == shared.end()) continue;
            double own = 0;
            CapacityLeft::Meeting m;
            m.direction = r;
            for (const auto& [other, d] : it->second.jobs)
                if (other == int(k))
                    own = d;
                else
                    m.jobs.push_back(other);
            m.othersBusy = it->second.busy - own;
            const double fairShare = 1.0 / double(1 + m.jobs.size());
            c.fraction.emplace_back(r, std::max(1.0 - m.othersBusy, fairShare));
            c.meetings.push_back(std::move(m));
        }
        std::stable_sort(c.meetings.begin(), c.meetings.end(),
                         [](const auto& a, const auto& b) { return a.othersBusy > b.othersBusy; });
        if (c.meetings.size() > kMaxMeetings) c.meetings.resize(kMaxMeetings);
    }
    return out;
}

} // namespace cs
