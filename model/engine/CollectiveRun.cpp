#include "CollectiveRun.h"

#include "InputError.h"
#include "KernelModel.h"
#include "TrainingSpecs.h"

namespace cs {

BenchResult runCollective(const Topology& t, const TopologyIndex& ix, const CollectiveRequest& r) {
    const std::optional<GpuSpec> g = findGpuOfTopology(t.gpuModel);
    if (!g)
        throw InputException(
            {{},
             0,
             0,
             "gpuModel",
             "the topology's GPU model \"" + t.gpuModel + "\" is not one the simulator knows"});
    int hostGpus = 0;
    for (const Host& h : t.hosts)
        hostGpus = std::max(hostGpus, int(h.gpuCount));
    const int perHost = r.perHost > 0 ? r.perHost : hostGpus;
    if (perHost > hostGpus)
        throw InputException({{},
                              0,
                              0,
                              "--gpus-per-host",
                              "expected at most " + std::to_string(hostGpus) +
                                  " (the most GPUs a host of this topology has), got " +
                                  std::to_string(perHost)});
    if (r.gpus < 2)
        throw InputException(
            {{}, 0, 0, "--gpus", "expected 2 or more GPUs, got " + std::to_string(r.gpus)});
    BenchSetup s;
    s.op = r.op;
    s.gpus = collectiveGpus(t, r.gpus, perHost, r.placement, r.seed);
    s.family = g->family;
    s.nvlinkBps = nvlinkBytesPerS(*g);
    // NVSwitch multicast (NVLS): Hopper and later.
    s.nvlsBusBps = g->family == "ampere" ? 0 : g->nvlinkGBpsPerDirection * 1e9 * kNvlsBusPerNvlink;
    s.algo = r.algo;
    s.channelsPerNic = r.channelsPerNic;
    s.qpsOverride = r.qpsOverride;
    s.seed = r.seed;
    s.sizes = r.sizes;
    BenchResult out = runCollectiveBench(t, ix, s);
    if (out.rows.empty() && !s.sizes.empty())
        throw InputException({{},
                              0,
                              0,
                              "--algo",
                              std::string(toString(r.algo.only)) + " cannot run " + toString(r.op) +
                                  " on this group (" + std::to_string(out.nodes) +
                                  " hosts of up to " + std::to_string(out.perNode) + " GPUs)"});
    return out;
}

} // namespace cs
