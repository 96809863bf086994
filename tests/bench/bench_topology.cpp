// Time and memory to build, export and load the reference clusters, beside a naive
// baseline that holds the same graph as one heap object per entity with a name map
// (the shape a first attempt often takes).
#include "BenchUtil.h"

#include "BackendFabric.h"
#include "DesignFields.h"
#include "FabricWriters.h"
#include "Presets.h"
#include "SceneLayout.h"
#include "SiteGenerator.h"
#include "TopologyDocument.h"
#include "TopologyFile.h"
#include "TopologyIndex.h"
#include "TopologyStats.h"

#include <malloc.h>

#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

using namespace cs;

namespace {

struct NaiveNode {
    std::string name;
    EntityKind kind;
    std::vector<NaiveNode*> neighbours;
    std::map<std::string, std::string> properties;
};

struct NaiveGraph {
    std::vector<std::unique_ptr<NaiveNode>> nodes;
    std::map<std::string, NaiveNode*> byName;
};

NaiveGraph buildNaive(const Topology& t) {
    NaiveGraph g;
    auto add = [&](const std::string& name, EntityKind k) {
        g.nodes.push_back(std::make_unique<NaiveNode>(NaiveNode{name, k, {}, {}}));
        g.nodes.back()->properties["kind"] = std::string(toString(k));
        g.byName[name] = g.nodes.back().get();
    };
    for (const Host& h : t.hosts)
        add(h.name, EntityKind::Host);
    for (size_t i = 0; i < t.gpus.size(); ++i)
        add(t.gpuName(int32_t(i)), EntityKind::Gpu);
    for (const Nic& n : t.nics)
        add(n.name, EntityKind::Nic);
    for (const Switch& s : t.switches)
        add(s.name, EntityKind::Switch);
    for (const StorageServer& s : t.storage)
        add(s.name, EntityKind::Storage);
    for (const Link& l : t.links) {
        NaiveNode* a = g.byName[t.nameOf(l.a)];
        NaiveNode* b = g.byName[t.nameOf(l.b)];
        a->neighbours.push_back(b);
        b->neighbours.push_back(a);
    }
    return g;
}

void row(const char* preset, const char* what, double seconds, double mib,
         const std::string& note) {
    std::printf("| %-14s | %-34s | %9.3f | %9.1f | %s\n", preset, what, seconds, mib, note.c_str());
}

} // namespace

int main() {
    std::printf("| %-14s | %-34s | %9s | %9s | notes\n", "preset", "step", "seconds", "MiB");
    std::printf("|%s|%s|%s|%s|------\n", std::string(16, '-').c_str(), std::string(36, '-').c_str(),
                std::string(11, '-').c_str(), std::string(11, '-').c_str());
    for (const char* preset : {"meta-roce-24k", "meta-both"}) {
        malloc_trim(0);
        double base = bench::rssMiB();
        Topology t;
        const double gen = bench::timeSeconds([&] { t = generatePreset(preset); });
        row(preset, "generate (flat arrays)", gen, bench::rssMiB() - base,
            std::to_string(t.gpus.size()) + " GPUs, " + std::to_string(t.links.size()) +
                " links; arrays " + std::to_string(t.memoryBytes() >> 20) + " MiB");

        base = bench::rssMiB();
        std::unique_ptr<TopologyIndex> index;
        const double ix = bench::timeSeconds([&] { index = std::make_unique<TopologyIndex>(t); });
        row(preset, "index (children, links, names)", ix, bench::rssMiB() - base, "");

        const double st = bench::timeSeconds([&] { (void)computeStats(t); });
        row(preset, "derived figures (incl. max-flow)", st, 0, "");

        QByteArray text;
        const double ex = bench::timeSeconds([&] { text = explicitTopologyDocument(t); });
        row(preset, "write explicit JSON", ex, double(text.size()) / (1 << 20), "MiB = file size");

        malloc_trim(0);
        base = bench::rssMiB();
        bench::resetPeak();
        LoadedTopology back;
        const double ld = bench::timeSeconds([&] { back = parseTopologyText(text, "bench.json"); });
        row(preset, "load explicit JSON (peak)", ld, bench::peakMiB() - base,
            back.topology == t ? "round trip equal" : "ROUND TRIP DIFFERS");
        back = {};
        text.clear();
        text.squeeze();

        // A Design dock edit: the field set, the parameters checked, the topology generated,
        // indexed and its figures counted, and the 3D layout computed, as the window does.
        if (const std::optional<SiteParams> params = presetParams(preset)) {
            const double edit = bench::timeSeconds([&] {
                SiteParams p = *params;
                setDesignField(p, *findDesignField(DesignScope::Cluster, "oversubscription"), 0,
                               "3");
                const TopologyDocument doc(generateSite(p), p, "bench");
                (void)doc.stats();
                (void)computeLayout(doc.topology(), doc.index(), LayoutKind::Floor);
            });
            row(preset, "design edit: regenerate + layout", edit, 0,
                "oversubscription 3: what the Design dock redoes per edit");
        }

        malloc_trim(0);
        base = bench::rssMiB();
        NaiveGraph naive;
        const double nv = bench::timeSeconds([&] { naive = buildNaive(t); });
        row(preset, "baseline: heap node per entity", nv, bench::rssMiB() - base,
            std::to_string(naive.nodes.size()) + " nodes + std::map by name");
    }
    // Foreign fabric formats (issue 11): the backend fabric of a 24K-GPU cluster written in
    // each format and read back through detection, the reader and the structure inference.
    for (const char* preset : {"meta-roce-24k", "meta-ib-24k"}) {
        const Topology t = generatePreset(preset);
        const BackendFabric original = backendFabric(t);
        struct Format {
            const char* name;
            QByteArray (*write)(const Topology&);
        };
        for (const Format& f : {Format{"ibnetdiscover", ibnetdiscoverDocument},
                                Format{"infragraph", infragraphDocument},
                                Format{"networkx", networkxDocument}, Format{"ns3", ns3Document}}) {
            QByteArray text;
            const double wr = bench::timeSeconds([&] { text = f.write(t); });
            row(preset, (std::string("write ") + f.name).c_str(), wr,
                double(text.size()) / (1 << 20), "MiB = file size");
            malloc_trim(0);
            const double base = bench::rssMiB();
            bench::resetPeak();
            LoadedTopology back;
            const double rd = bench::timeSeconds([&] { back = parseTopologyText(text, f.name); });
            const BackendFabric read = backendFabric(back.topology);
            std::string differ;
            auto check = [&](const char* what, size_t got, size_t want) {
                if (got != want)
                    differ += std::string(differ.empty() ? "" : ", ") + what + " " +
                              std::to_string(got) + " (not " + std::to_string(want) + ")";
            };
            check("GPUs", back.topology.gpus.size(), t.gpus.size());
            check("hosts", back.topology.hosts.size(), t.hosts.size());
            check("NICs", read.nics.size(), original.nics.size());
            check("links", read.links.size(), original.links.size());
            check("pods", back.topology.pods.size(), t.pods.size());
            row(preset, (std::string("import ") + f.name + " (peak)").c_str(), rd,
                bench::peakMiB() - base,
                differ.empty() ? "same GPUs, hosts, NICs, links, pods" : differ);
        }
        for (const Format& f : {Format{"graphml", graphmlDocument}, Format{"dot", dotDocument}}) {
            QByteArray text;
            const double wr = bench::timeSeconds([&] { text = f.write(t); });
            row(preset, (std::string("write ") + f.name).c_str(), wr,
                double(text.size()) / (1 << 20), "MiB = file size");
        }
        size_t netbox = 0;
        const double nb = bench::timeSeconds([&] {
            for (const auto& [name, content] : netboxCsvFiles(t))
                netbox += size_t(content.size());
        });
        row(preset, "write netbox CSV set", nb, double(netbox) / (1 << 20), "MiB = 8 files");
    }
    return 0;
}
