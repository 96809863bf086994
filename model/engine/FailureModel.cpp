#include "FailureModel.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace cs {

const std::vector<FailureCause>& failureCauses() {
    // Llama 3 paper, Table 5: 419 unexpected interruptions in 54 days; 47 planned.
    static const std::vector<FailureCause> list{
        {"faulty GPU", 148, FailureTarget::Gpu},
        {"GPU HBM3 memory", 72, FailureTarget::Gpu},
        {"software bug", 54, FailureTarget::Job},
        {"network switch/cable", 35, FailureTarget::Switch},
        {"host maintenance", 32, FailureTarget::Host},
        {"GPU SRAM memory", 19, FailureTarget::Gpu},
        {"GPU system processor", 17, FailureTarget::Gpu},
        {"NIC", 7, FailureTarget::Nic},
        {"NCCL watchdog timeout", 7, FailureTarget::Job},
        {"silent data corruption", 6, FailureTarget::Gpu},
        {"GPU thermal interface + sensor", 6, FailureTarget::Gpu},
        {"SSD", 3, FailureTarget::Host},
        {"power supply", 3, FailureTarget::Host},
        {"server chassis", 2, FailureTarget::Host},
        {"IO expansion board", 2, FailureTarget::Host},
        {"dependency", 2, FailureTarget::Job},
        {"CPU", 2, FailureTarget::Host},
        {"system memory", 2, FailureTarget::Host},
        {"planned maintenance", 47, FailureTarget::Job, true},
    };
    return list;
}

std::vector<Interruption> drawInterruptions(const Topology& t, const std::vector<int32_t>& jobGpus,
                                            double spanS, double checkpointIntervalS, uint64_t seed,
                                            const FailureParams& p,
                                            const std::vector<double>* linkBytes) {
    constexpr double kSnapshotS = 54.0 * 24 * 3600;
    constexpr double kSnapshotGpus = 16384;
    std::mt19937_64 rng(seed);
    std::vector<Interruption> out;
    if (jobGpus.empty() || spanS <= 0) return out;
    // What the job touches: its GPUs, their hosts and NICs, the backend links and switches.
    std::set<int32_t> hostSet;
    for (int32_t g : jobGpus)
        hostSet.insert(t.gpus[size_t(g)].host);
    const std::vector<int32_t> hosts(hostSet.begin(), hostSet.end());
    std::vector<int32_t> nics, switches, links;
    for (size_t n = 0; n < t.nics.size(); ++n)
        if (t.nics[n].role == NicRole::Backend && hostSet.count(t.nics[n].host))
            nics.push_back(int32_t(n));
    if (linkBytes && linkBytes->size() == 2 * t.links.size()) {
        std::set<int32_t> crossed;
        for (size_t l = 0; l < t.links.size(); ++l) {
            if ((*linkBytes)[2 * l] + (*linkBytes)[2 * l + 1] <= 0) continue;
            links.push_back(int32_t(l));
            for (const Endpoint e : {t.links[l].a, t.links[l].b})
                if (e.kind == EntityKind::Switch) crossed.insert(e.index);
        }
        switches.assign(crossed.begin(), crossed.end());
    } else {
        for (size_t s = 0; s < t.switches.size(); ++s)
            if (networkOf(t.switches[s].role) == Network::Backend) switches.push_back(int32_t(s));
        for (size_t l = 0; l < t.links.size(); ++l)
            if (t.links[l].medium == LinkMedium::Fibre) links.push_back(int32_t(l));
    }
    auto pick = [&](const std::vector<int32_t>& v) {
        return v[std::uniform_int_distribution<size_t>(0, v.size() - 1)(rng)];
    };

    const auto& causes = failureCauses();
    for (size_t c = 0; c < causes.size(); ++c) {
        const double scale = causes[c].planned
                                 ? spanS / kSnapshotS
                                 : spanS / kSnapshotS * double(jobGpus.size()) / kSnapshotGpus;
        std::poisson_distribution<int> count(causes[c].countIn54Days * scale);
        const int n = count(rng);
        for (int k = 0; k < n; ++k) {
            Interruption x;
            x.atS = std::uniform_real_distribution<double>(0, spanS)(rng);
            x.cause = int(c);
            switch (causes[c].target) {
            case FailureTarget::Gpu:
                x.entity = {EntityKind::Gpu, pick(jobGpus)};
                break;
            case FailureTarget::Host:
            case FailureTarget::Job:
                x.entity = {EntityKind::Host, pick(hosts)};
                break;
            case FailureTarget::Nic:
                x.entity = nics.empty() ? Endpoint{EntityKind::Host, pick(hosts)}
                                        : Endpoint{EntityKind::Nic, pick(nics)};
                break;
            case FailureTarget::Switch:
            case FailureTarget::Link:
                // Table 5 lumps switches and cables together: half each.
                if (!links.empty() && (switches.empty() || std::bernoulli_distribution(0.5)(rng)))
                    x.entity = {EntityKind::Link, pick(links)};
                else
                    x.entity = {EntityKind::Switch, pick(switches)};
                break;
            }
            const double sinceCheckpoint =
                checkpointIntervalS > 0 ? std::fmod(x.atS, checkpointIntervalS) : x.atS;
            x.lostS = causes[c].planned ? p.restartS : p.detectionS + p.restartS + sinceCheckpoint;
            out.push_back(x);
        }
    }
    std::sort(out.begin(), out.end(),
              [](const Interruption& a, const Interruption& b) { return a.atS < b.atS; });
    return out;
}

} // namespace cs
