#include "Presets.h"

#include "SiteGenerator.h"

namespace cs {

ClusterParams metaRoceCluster() {
    return ClusterParams{}; // the defaults are the RoCE cluster; see SiteParams.h
}

ClusterParams metaInfiniBandCluster() {
    ClusterParams c;
    c.name = "ib";
    c.fabric = Fabric::InfiniBand;
    // [paper] Quantum-2 switches, 64 x 400G ports. Fabric internals were not published:
    // [assumption] a non-blocking 3-level fat tree keeping the 8 x 3,072 pod split. Each rack
    // leaf has 16 GPUs down and 16 uplinks (one per plane); 6 spines per plane and pod serve 32
    // leaves each with 32 ports down and 32 up; the cores per plane are as many as the uplinks
    // need: at 1:1, 32 taking one link from each of the plane's 48 spines.
    c.leafRadix = 64;
    c.spinesPerPlane = 6;
    c.spineRadix = 64;
    c.coreRadix = 64;
    c.oversubscription = 1.0;
    c.spinesPerNetworkRack = 8; // 1U switches
    return c;
}

namespace {

ClusterParams smallCluster(const std::string& name, Fabric fabric) {
    ClusterParams c;
    c.name = name;
    c.fabric = fabric;
    c.pods = 2;
    c.racksPerPod = 8;
    c.racksPerRow = 4;
    c.spineRadix = 64;
    c.coreRadix = 64;
    c.oversubscription = fabric == Fabric::Roce ? 2.0 : 1.0;
    c.spinesPerNetworkRack = 8;
    c.frontendFabricPerPod = 2;
    return c;
}

StorageParams smallStorage() {
    StorageParams s;
    s.tectonicServers = 40;
    s.hammerspaceServers = 4;
    s.frontendSpines = 2;
    s.storageTorUplinks = 2;
    return s;
}

// A DGX A100 SuperPOD-like cluster, as Selene trained Megatron-LM's GPT models (Korthikanti
// et al. 2022): DGX A100 nodes of 8 A100 SXM 80 GB on NVSwitch (NVLink 3: 300 GB/s per
// direction), 8 x 200 Gb/s HDR InfiniBand HCAs per node, a non-blocking fat tree [paper].
// 128 nodes (1,024 GPUs), 4 nodes per rack and 16 racks per pod [assumption].
ClusterParams dgxA100Cluster() {
    ClusterParams c;
    c.name = "selene";
    c.fabric = Fabric::InfiniBand;
    c.pods = 2;
    c.racksPerPod = 16;
    c.hostsPerRack = 4;
    c.racksPerRow = 8;
    c.planes = 32; // 32 GPUs under a leaf at 200G: 32 uplinks at 200G, non-blocking
    c.leafRadix = 64;
    c.spinesPerPlane = 1;
    c.spineRadix = 64;
    c.coresPerPlane = 1;
    c.coreRadix = 64;
    c.oversubscription = 1.0;
    c.spinesPerNetworkRack = 8;
    c.nicGbps = 200;
    c.fabricGbps = 200;
    c.nvlinkGbps = 2400;
    c.pcieGbps = 256; // PCIe Gen4 x16
    c.frontendFabricPerPod = 2;
    return c;
}

// Rail-optimised DGX SuperPODs: leaf k of a scalable unit (SU) takes NIC k of every node
// of the SU, so rail traffic inside an SU is one leaf away; between rails and SUs it crosses
// the spines. One pod without a core tier: a two-level fat tree, 4 nodes per rack
// [assumption]. `units` SUs of `racksPerUnit` racks; every leaf has `uplinks` links up,
// `perSpine` to each spine.
ClusterParams railSuperPod(ClusterParams c, int units, int racksPerUnit, int uplinks, int perSpine,
                           int leafRadix, int spineRadix) {
    c.name = "superpod";
    c.pods = 1;
    c.hostsPerRack = 4;
    c.racksPerPod = units * racksPerUnit;
    c.racksPerRow = racksPerUnit;
    c.railGroupRacks = racksPerUnit;
    c.planes = uplinks / perSpine; // a plane per spine
    c.leafUplinksPerPlane = perSpine;
    c.spinesPerPlane = 1;
    c.leafRadix = leafRadix;
    c.spineRadix = spineRadix;
    c.coresPerPlane = 0;
    return c;
}

// DGX H100 SuperPOD [paper: NVIDIA DGX SuperPOD reference architecture with DGX H100,
// RA-11333-001, "Network Fabrics", docs.nvidia.com/dgx-superpod/
// reference-architecture-scalable-infrastructure-h100/latest/network-fabrics.html]: SUs of 32
// DGX H100 (8 H100 SXM, NVLink 4, 8 x 400G NDR), 4 SUs, Quantum-2 QM9700 switches of 64 NDR
// ports; 32 leaves and 16 spines, 1,024 leaf-spine cables, rail-aligned SUs. The RA fields
// 127 nodes (one SU slot holds the fabric manager); here all 128 [derived]. 32 leaf uplinks
// to 16 spines: 2 per spine [derived].
ClusterParams dgxH100SuperPodCluster() {
    ClusterParams c = dgxA100Cluster(); // the same non-blocking InfiniBand, at NDR speeds
    c.nicGbps = c.fabricGbps = 400;
    c.nvlinkGbps = ClusterParams{}.nvlinkGbps; // NVLink 4, PCIe Gen5 as in the H100 defaults
    c.pcieGbps = ClusterParams{}.pcieGbps;
    return railSuperPod(c, 4, 8, 32, 2, 64, 64);
}

// DGX A100 SuperPOD [paper: NVIDIA DGX SuperPOD reference architecture with DGX A100,
// RA-09950-001, 2020]: SUs of 20 DGX A100 (8 A100 SXM, NVLink 3, 8 x 200G HDR), 7 SUs, 140
// nodes, Quantum QM8790 switches of 40 HDR ports, leaves 20 down and 20 up [derived:
// non-blocking]. The RA's 140-node fabric has a third tier; here the 56 leaves reach 20
// spines of 112 ports directly, a two-level fat tree with the same bisection [assumption].
ClusterParams dgxA100SuperPodCluster() {
    return railSuperPod(dgxA100Cluster(), 7, 5, 20, 1, 40, 112);
}

// DeepSeek's 2,048-GPU fabrics [paper: DeepSeek-AI, "Insights into DeepSeek-V3: Scaling
// Challenges and Reflections on Hardware for AI Architectures", ISCA 2025, section 5;
// docs/reference/dgx-superpods.md]: 256 nodes of 8 H800, one 400G InfiniBand NIC (CX7) per
// GPU, 64-port 400G switches, two layers. Rail wiring: units of 32 nodes (8 racks of 4
// [assumption]), leaf k of a unit takes NIC k of its 32 nodes and has 32 uplinks [derived].
// Multi-rail (MRFT): one plane, every leaf one uplink to each of 32 spines. Multi-plane
// (MPFT): eight planes, NIC k of every node in plane k: rail k's 8 leaves reach only plane
// k's 4 spines, 8 uplinks to each [derived: 8 leaves x 8 = 64 spine ports]. The generator's
// "plane" is one spine: DeepSeek's plane k is the generator's planes 4k to 4k + 3.
ClusterParams deepSeekCluster(bool multiPlane) {
    ClusterParams c = dgxH100SuperPodCluster();
    c.name = multiPlane ? "mpft" : "mrft";
    c.racksPerPod = 64;
    c.racksPerRow = 8;
    c.railGroupRacks = 8;
    c.planes = 32;
    c.planesPerRail = multiPlane ? 4 : 0;
    c.leafUplinksPerPlane = multiPlane ? 8 : 1;
    c.nvlinkGbps = 1600; // H800: NVLink 400 GB/s bidirectional, 200 per direction
    return c;
}

// One scalable unit of GB200 NVL72 racks, after NVIDIA's GB200 SuperPOD [paper: NVIDIA DGX
// GB200 user guide, "Hardware": a 72-GPU rack holds 18 compute trays of 2 Grace CPUs and 4
// Blackwell GPUs with 4 ConnectX-7 400G NICs each, and 9 NVLink switch trays joining the
// 72 GPUs in one NVLink domain; docs/reference/dgx-superpods.md]. 8 racks, 576 GPUs
// [2nd: the SuperPOD's scalable unit]. The compute fabric [assumption: the RA's wiring was not
// read]: a rail-optimised, non-blocking two-level InfiniBand fat tree of 64-port NDR switches,
// as the DGX H100 SuperPOD: leaf k of a rack takes NIC k of its 18 trays and has 18 uplinks,
// one to each of 18 spines.
ClusterParams gb200Nvl72Cluster() {
    ClusterParams c = railSuperPod(dgxH100SuperPodCluster(), 8, 1, 18, 1, 64, 64);
    c.name = "nvl72";
    c.scaleUp = ScaleUp::Rack;
    c.nvlinkSwitchTrays = 9;
    c.hostsPerRack = 18;
    c.gpusPerHost = 4;
    c.cpusPerHost = 2;
    c.racksPerRow = 8;
    c.nvlinkGbps = 7200; // NVLink 5: 900 GB/s per direction per GPU
    return c;
}

} // namespace

const std::vector<PresetInfo>& presets() {
    static const std::vector<PresetInfo> list{
        {"meta-roce-24k", "Meta Llama 3 RoCEv2 cluster: 24,576 H100, 8 pods, 1:7 between pods"},
        {"meta-ib-24k", "Meta Llama 3 InfiniBand cluster: 24,576 H100, Quantum-2 fat tree"},
        {"meta-both", "Both Meta 24K clusters side by side: 49,152 H100, shared storage"},
        {"small-256", "Demo: 256 GPUs, RoCE-style, 2 pods, 1:2 between pods"},
        {"small-ib-256", "Demo: 256 GPUs on an InfiniBand fat tree"},
        {"dgx-a100-1k", "DGX A100 SuperPOD-like: 1,024 A100 on 8 x 200G HDR per node, fat tree"},
        {"dgx-a100-superpod", "DGX A100 SuperPOD: 140 nodes, 1,120 A100, rail-optimised HDR"},
        {"dgx-h100-superpod", "DGX H100 SuperPOD: 128 nodes, 1,024 H100, rail-optimised NDR"},
        {"deepseek-mpft-2k",
         "DeepSeek's multi-plane fat tree: 2,048 H800, 8 planes of 64-port 400G IB, 2 layers"},
        {"deepseek-mrft-2k",
         "DeepSeek's multi-rail fat tree: the same 2,048 H800 on one plane of 64-port 400G IB"},
        {"gb200-nvl72-su",
         "GB200 NVL72 scalable unit: 8 racks of 72 GPUs, each rack one NVLink domain, NDR rails"},
    };
    return list;
}

std::optional<SiteParams> presetParams(const std::string& name) {
    SiteParams p;
    if (name == "meta-roce-24k") {
        p.clusters = {metaRoceCluster()};
    } else if (name == "meta-ib-24k") {
        p.clusters = {metaInfiniBandCluster()};
    } else if (name == "meta-both") {
        p.clusters = {metaRoceCluster(), metaInfiniBandCluster()};
    } else if (name == "small-256") {
        p.clusters = {smallCluster("demo", Fabric::Roce)};
        p.storage = smallStorage();
    } else if (name == "dgx-a100-1k") {
        p.name = "dgx-a100-1k";
        p.gpuModel = "A100-SXM-80GB";
        p.clusters = {dgxA100Cluster()};
        p.storage = smallStorage();
    } else if (name == "dgx-a100-superpod" || name == "dgx-h100-superpod") {
        const bool a100 = name == "dgx-a100-superpod";
        p.name = name;
        p.gpuModel = a100 ? "A100-SXM-80GB" : "H100-SXM-80GB";
        p.clusters = {a100 ? dgxA100SuperPodCluster() : dgxH100SuperPodCluster()};
        p.storage = smallStorage();
    } else if (name == "deepseek-mpft-2k" || name == "deepseek-mrft-2k") {
        p.name = name;
        // H800 boards: an H100 SXM's compute, HBM and power (the power and price tables' H100
        // row); runs on it take gpu "h800" for the NVLink.
        p.gpuModel = "H100-SXM-80GB";
        p.clusters = {deepSeekCluster(name == "deepseek-mpft-2k")};
        p.storage = smallStorage();
    } else if (name == "gb200-nvl72-su") {
        p.name = name;
        p.gpuModel = "GB200-186GB";
        p.clusters = {gb200Nvl72Cluster()};
        p.storage = smallStorage();
    } else if (name == "small-ib-256") {
        p.clusters = {smallCluster("demo-ib", Fabric::InfiniBand)};
        p.storage = smallStorage();
    } else {
        return std::nullopt;
    }
    return p;
}

std::string presetNamesJoined() {
    std::string s;
    for (const PresetInfo& p : presets())
        s += (s.empty() ? "" : ", ") + p.name;
    return s;
}

Topology generatePreset(const std::string& name) {
    const std::optional<SiteParams> p = presetParams(name);
    if (!p)
        throw InputException(
            {{},
             0,
             0,
             "--preset",
             "unknown preset \"" + name + "\"; expected one of: " + presetNamesJoined()});
    Topology t = generateSite(*p);
    t.name = name;
    for (const PresetInfo& i : presets())
        if (i.name == name) t.description = i.description;
    return t;
}

} // namespace cs
