#include "DesignFields.h"

#include "InputError.h"
#include "ValueText.h"

#include <algorithm>
#include <cmath>
#include <type_traits>

namespace cs {
namespace {

using T = FieldType;

// The object a member belongs to, inside a site (const when the site is).
template <typename Owner, typename Site> auto& ownerIn(Site& p, int cluster) {
    if constexpr (std::is_same_v<Owner, ClusterParams>)
        return p.clusters[size_t(cluster)];
    else if constexpr (std::is_same_v<Owner, StorageParams>)
        return p.storage;
    else
        return p;
}

// Accessors of one member, and the scope and type its C++ declaration implies.
template <auto M> struct Member;
template <typename Owner, typename V, V Owner::*M> struct Member<M> {
    static constexpr DesignScope scope = std::is_same_v<Owner, ClusterParams> ? DesignScope::Cluster
                                         : std::is_same_v<Owner, StorageParams>
                                             ? DesignScope::Storage
                                             : DesignScope::Site;
    static constexpr T type = std::is_same_v<V, int>      ? T::Integer
                              : std::is_same_v<V, double> ? T::Number
                              : std::is_enum_v<V>         ? T::Choice
                                                          : T::Text;
    static FieldValue get(const SiteParams& p, int cluster) {
        const V& v = ownerIn<Owner>(p, cluster).*M;
        if constexpr (std::is_same_v<V, int>)
            return (long long)v;
        else if constexpr (std::is_enum_v<V>)
            return std::string(namesOf(v).name(v));
        else
            return v;
    }
    static void set(SiteParams& p, int cluster, const FieldValue& value) {
        V& v = ownerIn<Owner>(p, cluster).*M;
        if constexpr (std::is_same_v<V, int>)
            v = int(std::get<long long>(value));
        else if constexpr (std::is_same_v<V, double>)
            v = std::get<double>(value);
        else if constexpr (std::is_enum_v<V>) {
            if (const auto e = namesOf(v).parse(std::get<std::string>(value))) v = *e;
        } else
            v = std::get<std::string>(value);
    }
    static std::vector<std::string> choices() {
        if constexpr (std::is_enum_v<V>)
            return namesOf(V{}).names();
        else
            return {};
    }
};

template <auto M> DesignField bind(FieldInfo info) {
    using F = Member<M>;
    DesignField f{std::move(info)};
    f.scope = F::scope;
    f.type = F::type;
    f.choices = F::choices();
    f.get = F::get;
    f.set = F::set;
    return f;
}

// The limits SiteParams.h states: more than memory holds is refused before generating.
constexpr double kMaxRadix = 65535;
constexpr double kMaxGbps = 1e6;
constexpr double kMaxLatencyNs = 1e9;
constexpr double kMaxTextLength = 4096; // what the JSON reader takes for any string

// The fields of one type of value, with their common range, unit and wording.
FieldInfo name(std::string n, std::string label, std::string help, std::string source) {
    return {.key = std::move(n),
            .label = std::move(label),
            .min = 1,
            .max = kMaxTextLength,
            .identifier = true,
            .help = std::move(help),
            .source = std::move(source)};
}
FieldInfo count(std::string n, std::string label, double lo, double hi, std::string unit,
                std::string help, std::string source) {
    return {.key = std::move(n),
            .label = std::move(label),
            .min = lo,
            .max = hi,
            .unit = std::move(unit),
            .help = std::move(help),
            .source = std::move(source)};
}
FieldInfo radix(std::string n, std::string label, std::string help, std::string source) {
    return count(std::move(n), std::move(label), 2, kMaxRadix, "ports", std::move(help),
                 std::move(source));
}
FieldInfo speed(std::string n, std::string label, std::string help, std::string source) {
    return {.key = std::move(n),
            .label = std::move(label),
            .min = 0,
            .max = kMaxGbps,
            .aboveMin = true,
            .unit = "Gb/s",
            .help = std::move(help),
            .source = std::move(source)};
}
FieldInfo latency(std::string n, std::string label, std::string help, std::string source) {
    return {.key = std::move(n),
            .label = std::move(label),
            .min = 0,
            .max = kMaxLatencyNs,
            .unit = "ns",
            .help = std::move(help),
            .source = std::move(source)};
}

std::vector<DesignField> buildTable() {
    using C = ClusterParams;
    using S = StorageParams;
    std::vector<DesignField> t{
        bind<&SiteParams::name>(
            name("name", "Site name", "prefix of the site's shared entities", "[assumption]")),
        bind<&SiteParams::gpuModel>({.key = "gpuModel",
                                     .label = "GPU model",
                                     .min = 1,
                                     .max = kMaxTextLength,
                                     .help = "the GPUs' model, as the simulator's GPU names it",
                                     .source = "[paper] H100 SXM 80 GB HBM3, 700 W"}),
        // A cluster.
        bind<&C::name>(name("name", "Cluster name", "prefix of every entity id in this cluster",
                            "[assumption]")),
        bind<&C::fabric>({.key = "fabric",
                          .label = "Backend fabric",
                          .help = "the GPUs' backend network technology",
                          .source = "[paper] cluster A RoCEv2, cluster B InfiniBand"}),
        bind<&C::loadBalancing>(
            {.key = "loadBalancing",
             .label = "Load balancing",
             .help = "how flows spread over equal-cost paths: ecmp hashes each queue pair onto one "
                     "path; adaptive sends to the least loaded port; spray spreads packets "
                     "evenly; auto: ecmp on roce, adaptive on infiniband",
             .source = "[paper] Meta RoCE: ECMP hashed on the queue pair (E-ECMP); [2nd] "
                       "InfiniBand Quantum-2: adaptive routing"}),
        bind<&C::qpsPerConnection>(count(
            "qpsPerConnection", "Queue pairs per connection", 0, kMaxQpsPerConnection, "QPs",
            "queue pairs on each connection (NCCL_IB_QPS_PER_CONNECTION, data split over them), "
            "each hashed on its own; NCCL opens a connection on each of its 2 channels of a "
            "NIC; 0: 8 on roce, 1 on infiniband",
            "[paper] Llama 3 3.3.1: 16 flows per GPU pair (8 x 2 channels); NCCL's default 1")),
        bind<&C::congestionControl>(
            {.key = "congestionControl",
             .label = "Congestion control",
             .help = "how senders meet congestion: dcqcn (ECN rate control over PFC), pfc (pause "
                     "frames only), credit (InfiniBand), none (lossy); auto: pfc on roce, credit "
                     "on infiniband",
             .source = "[2nd] Meta's 400G RoCE fabric runs PFC without DCQCN (SIGCOMM 2024)"}),
        bind<&C::switchBufferMiB>({.key = "switchBufferMiB",
                                   .label = "Leaf buffer per port",
                                   .min = 0,
                                   .max = kMaxSwitchBufferMiB,
                                   .unit = "MiB",
                                   .help = "a leaf switch's packet buffer per port: how much of "
                                           "an incast it absorbs before pausing senders; 0: 1 MiB",
                                   .source = "[2nd] Tomahawk 4: 64 MB shared by 64 ports"}),
        bind<&C::inNetworkReduction>(
            {.key = "inNetworkReduction",
             .label = "In-network reduction",
             .help = "sharp: InfiniBand switches reduce all-reduces (NCCL CollNet); auto and off: "
                     "the GPUs do",
             .source = "[assumption] off: NCCL reduces in the switches only with the SHARP plugin; "
                       "Meta's InfiniBand cluster's use is not published"}),
        bind<&C::pods>(count("pods", "Pods", 1, 4096, "pods", "pods (AI zones) of the cluster",
                             "[paper] 8 pods of 3,072 GPUs")),
        bind<&C::racksPerPod>(count("racksPerPod", "Racks per pod", 1, 60000, "racks",
                                    "GPU racks in each pod", "[paper] 192 racks per pod")),
        bind<&C::hostsPerRack>(count("hostsPerRack", "Hosts per rack", 1, 64, "hosts",
                                     "servers in each GPU rack",
                                     "[paper] 2 Grand Teton servers under one rack switch")),
        bind<&C::gpusPerHost>(count("gpusPerHost", "GPUs per host", 1, 16, "GPUs",
                                    "GPUs in each server, on NVLink", "[paper] 8 x H100")),
        bind<&C::scaleUp>({.key = "scaleUp",
                           .label = "NVLink domain",
                           .help = "which GPUs share NVLink: each host's own (NVSwitch inside the "
                                   "host), or the whole rack's through NVLink switch trays "
                                   "(GB200 NVL72)",
                           .source = "[paper] Grand Teton: 8 GPUs on NVSwitch per server"}),
        bind<&C::nvlinkSwitchTrays>(
            count("nvlinkSwitchTrays", "NVLink switch trays", 1, 64, "trays",
                  "with a rack-wide NVLink domain: the switch trays every GPU of the rack is "
                  "wired to, an equal share of its NVLink to each",
                  "[paper] NVIDIA DGX GB200 user guide: 9 NVLink switch trays per 72-GPU rack")),
        bind<&C::cpusPerHost>(count("cpusPerHost", "CPUs per host", 0, 16, "CPUs",
                                    "CPU sockets in each server", "[paper] 2 CPUs per server")),
        bind<&C::racksPerRow>(count("racksPerRow", "Racks per row", 1, 1000, "racks",
                                    "GPU racks in one row of the floor",
                                    "[assumption] 12 rows of 16 racks per pod")),
        bind<&C::planes>(count("planes", "Planes", 1, 1024, "planes",
                               "backend planes: each leaf has one uplink group per plane",
                               "[2nd] 16 rack-switch uplinks: full bisection in the pod")),
        bind<&C::spinesPerPlane>(
            count("spinesPerPlane", "Spines per plane and pod", 1, 4096, "switches",
                  "spine switches of each plane in each pod, each for a block of the racks",
                  "[assumption] one CTSW per plane and pod reaches all 192 rack switches")),
        bind<&C::leafRadix>(radix("leafRadix", "Leaf radix", "ports of a leaf (rack) switch",
                                  "[2nd] Minipack2 / Wedge400 class: 64 x 400G")),
        bind<&C::spineRadix>(radix("spineRadix", "Spine radix", "ports of a spine switch",
                                   "[paper] Arista 7800 CTSW: up to 576 x 400G")),
        bind<&C::coresPerPlane>(
            count("coresPerPlane", "Cores per plane", 0, 4096, "switches",
                  "core switches of each plane joining the pods; 0: as many as the pods' uplinks "
                  "need (none for a single pod)",
                  "[assumption] as the uplinks need: one ATSW per plane at 1:7")),
        bind<&C::leafUplinksPerPlane>(
            count("leafUplinksPerPlane", "Leaf uplinks per plane", 1, 64, "links",
                  "parallel links from a leaf to its spine of each plane", "[assumption] one")),
        bind<&C::railGroupRacks>(
            count("railGroupRacks", "Rail group (racks)", 0, 60000, "racks",
                  "0: one leaf per rack takes its NICs; N: N racks form a rail-optimised unit",
                  "[paper] Meta wires one rack switch per rack (0)")),
        bind<&C::planesPerRail>(
            count("planesPerRail", "Planes per rail", 0, 1024, "planes",
                  "0: every leaf reaches every plane; N: rail k's leaves reach only its N planes "
                  "(a multi-plane fabric; needs rail wiring and planes = N x GPUs per host)",
                  "[paper] Meta: every rack switch reaches every plane (0)")),
        bind<&C::coreRadix>(radix("coreRadix", "Core radix", "ports of a core switch",
                                  "[assumption] an Arista 7800 class chassis too")),
        bind<&C::oversubscription>({.key = "oversubscription",
                                    .label = "Oversubscription",
                                    .min = 0.01,
                                    .max = 1000,
                                    .help = "pod injection : pod uplink bandwidth (7 means 1:7)",
                                    .source = "[paper] 7 : 1"}),
        bind<&C::spinesPerNetworkRack>(count("spinesPerNetworkRack", "Spines per network rack", 1,
                                             64, "switches",
                                             "spine or core switches one network rack holds",
                                             "[assumption] a chassis fills a rack; 1U pack 8")),
        bind<&C::nicGbps>(
            speed("nicGbps", "NIC speed", "one backend RDMA NIC per GPU", "[paper] 400G")),
        bind<&C::fabricGbps>(speed("fabricGbps", "Fabric link speed",
                                   "links leaf-spine and spine-core", "[paper] 400G")),
        bind<&C::nvlinkGbps>(speed("nvlinkGbps", "NVLink speed",
                                   "per GPU and direction inside a host",
                                   "[2nd] NVLink 4: 450 GB/s per direction")),
        bind<&C::pcieGbps>(speed("pcieGbps", "PCIe speed", "GPU to NIC, per direction",
                                 "[2nd] PCIe Gen5 x16: 64 GB/s")),
        bind<&C::nvlinkLatencyNs>(latency("nvlinkLatencyNs", "NVLink latency",
                                          "one way, without queueing", "[assumption]")),
        bind<&C::pcieLatencyNs>(
            latency("pcieLatencyNs", "PCIe latency", "one way, without queueing", "[assumption]")),
        bind<&C::dacLatencyNs>(latency("dacLatencyNs", "Copper cable latency",
                                       "in-rack DAC, one way", "[assumption] ~3 m at 5 ns/m")),
        bind<&C::podFibreLatencyNs>(latency("podFibreLatencyNs", "Pod fibre latency",
                                            "leaf to spine, one way",
                                            "[assumption] ~100 m of fibre")),
        bind<&C::coreFibreLatencyNs>(latency("coreFibreLatencyNs", "Core fibre latency",
                                             "spine to core, one way",
                                             "[assumption] ~300 m of fibre")),
        bind<&C::frontendNicGbps>(speed("frontendNicGbps", "Frontend NIC speed",
                                        "one frontend NIC per host (ingest, checkpoints)",
                                        "[assumption]")),
        bind<&C::frontendFabricPerPod>(
            count("frontendFabricPerPod", "Frontend fabric switches per pod", 1, 64, "switches",
                  "each rack's frontend ToR has one uplink to each", "[assumption]")),
        bind<&C::frontendUplinkGbps>(speed("frontendUplinkGbps", "Frontend uplink speed",
                                           "frontend ToR to fabric switch", "[assumption]")),
        bind<&C::frontendSpineGbps>(speed("frontendSpineGbps", "Frontend spine link speed",
                                          "fabric switch to the site's frontend spine",
                                          "[assumption]")),
        // The site's storage.
        bind<&S::tectonicServers>(count(
            "tectonicServers", "Tectonic servers", 0, double(kMaxStorageServers), "servers",
            "flash servers of the distributed file system", "[paper] 240 PB on 7,500 SSD servers")),
        bind<&S::hammerspaceServers>(count(
            "hammerspaceServers", "Hammerspace servers", 0, double(kMaxStorageServers), "servers",
            "NFS servers for interactive work", "[assumption] size not published")),
        bind<&S::serversPerRack>(count("serversPerRack", "Storage servers per rack", 1, 1000,
                                       "servers", "servers in one storage rack",
                                       "[assumption] YV3 Sierra Point sleds")),
        bind<&S::racksPerRow>(count("racksPerRow", "Storage racks per row", 1, 1000, "racks",
                                    "storage racks in one row of the floor", "[assumption]")),
        bind<&S::tectonicServerGbps>(speed("tectonicServerGbps", "Tectonic server speed",
                                           "network of one Tectonic server",
                                           "[assumption] 7,500 x 25G > 7 TB/s peak [paper]")),
        bind<&S::hammerspaceServerGbps>(speed("hammerspaceServerGbps", "Hammerspace server speed",
                                              "network of one Hammerspace server", "[assumption]")),
        bind<&S::frontendSpines>(count("frontendSpines", "Frontend spines", 1, 1024, "switches",
                                       "the site's frontend spine switches", "[assumption]")),
        bind<&S::storageTorUplinks>(count("storageTorUplinks", "Storage ToR uplinks", 1, 1024,
                                          "links", "from each storage ToR to the spines",
                                          "[assumption] 4")),
        bind<&S::storageUplinkGbps>(speed("storageUplinkGbps", "Storage uplink speed",
                                          "storage ToR to spine", "[assumption] 400G")),
        bind<&S::storageLatencyNs>(latency("storageLatencyNs", "Storage rack latency",
                                           "DAC in the storage rack, one way", "[assumption]")),
        bind<&S::spineFibreLatencyNs>(latency("spineFibreLatencyNs", "Spine fibre latency",
                                              "to the frontend spine, one way", "[assumption]")),
    };
    const SiteParams defaults = defaultDesign();
    for (DesignField& f : t)
        f.defaultText = designFieldText(defaults, f).toStdString();
    return t;
}

constexpr const char* kGenerator = "generator";

} // namespace

SiteParams defaultDesign() {
    SiteParams p;
    p.clusters = {ClusterParams{}};
    return p;
}

const std::vector<DesignField>& designFields() {
    static const std::vector<DesignField> table = buildTable();
    return table;
}

const DesignField* findDesignField(DesignScope scope, const std::string& name) {
    for (const DesignField& f : designFields())
        if (f.scope == scope && f.key == name) return &f;
    return nullptr;
}

std::string designFieldKey(const DesignField& f, int cluster) {
    switch (f.scope) {
    case DesignScope::Site:
        return std::string(kGenerator) + "." + f.key;
    case DesignScope::Cluster:
        return std::string(kGenerator) + ".clusters[" + std::to_string(cluster) + "]." + f.key;
    case DesignScope::Storage:
        return std::string(kGenerator) + ".storage." + f.key;
    }
    return {};
}

std::optional<DesignFieldRef> parseDesignFieldKey(const std::string& key) {
    const std::string site = std::string(kGenerator) + ".";
    if (key.rfind(site, 0) != 0) return std::nullopt;
    const std::string rest = key.substr(site.size());
    const std::string storage = "storage.", clusters = "clusters[";
    if (rest.rfind(storage, 0) == 0) {
        const DesignField* f = findDesignField(DesignScope::Storage, rest.substr(storage.size()));
        if (!f) return std::nullopt;
        return DesignFieldRef{f, 0};
    }
    if (rest.rfind(clusters, 0) == 0) {
        const size_t close = rest.find("].", clusters.size());
        if (close == std::string::npos) return std::nullopt;
        const auto index = parseStrictInteger(
            QString::fromStdString(rest.substr(clusters.size(), close - clusters.size())));
        if (!index || *index < 0 || *index >= kMaxClusters) return std::nullopt;
        const DesignField* f = findDesignField(DesignScope::Cluster, rest.substr(close + 2));
        if (!f) return std::nullopt;
        return DesignFieldRef{f, int(*index)};
    }
    const DesignField* f = findDesignField(DesignScope::Site, rest);
    if (!f) return std::nullopt;
    return DesignFieldRef{f, 0};
}

std::vector<DesignFieldRef> designFieldRefs(const SiteParams& p) {
    std::vector<DesignFieldRef> refs;
    for (const DesignField& f : designFields()) {
        if (f.scope != DesignScope::Cluster)
            refs.push_back({&f, 0});
        else
            for (size_t c = 0; c < p.clusters.size(); ++c)
                refs.push_back({&f, int(c)});
    }
    return refs;
}

QString designFieldText(const SiteParams& p, const DesignField& f, int cluster) {
    return fieldValueText(f, f.get(p, cluster));
}

void setDesignField(SiteParams& p, const DesignField& f, int cluster, const QString& text) {
    f.set(p, cluster, fieldValueOrThrow(f, designFieldKey(f, cluster), text));
}

} // namespace cs
