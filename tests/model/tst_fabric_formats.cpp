// Foreign fabric formats: the real files other projects ship, presets exported and read
// back (same counts and derived figures), located errors on cut and corrupted files, the
// structure inference and its sidecar, and the graph-tool and inventory exports.
#include "BackendFabric.h"
#include "EntityProperties.h"
#include "FabricWriters.h"
#include "Presets.h"
#include "TopologyFile.h"
#include "TopologyStats.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

#include <cmath>

using namespace cs;

namespace {

const QString kReal = CS_SOURCE_DIR "/tests/fixtures/real/";

QByteArray readAll(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) qFatal("cannot read %s", qPrintable(path));
    return f.readAll();
}

void writeFile(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size())
        qFatal("cannot write %s", qPrintable(path));
}

long long switchesOfTier(const Topology& t, int tier) {
    long long n = 0;
    for (const Switch& s : t.switches)
        n += s.role != SwitchRole::NvSwitch && networkOf(s.role) == Network::Backend &&
             tierOf(s.role) == tier;
    return n;
}

int32_t switchNamed(const Topology& t, const std::string& name) {
    for (size_t i = 0; i < t.switches.size(); ++i)
        if (t.switches[i].name == name) return int32_t(i);
    return kNone;
}

bool hasFact(const LoadedTopology& l, const std::string& what) {
    for (const InferredFact& f : l.inferred)
        if (f.what == what) return true;
    return false;
}

InputError errorOf(const QByteArray& text, const std::string& name) {
    try {
        parseTopologyText(text, name);
    } catch (const InputException& e) {
        return e.error();
    }
    return {};
}

} // namespace

class TestFabricFormats : public QObject {
    Q_OBJECT
private slots:
    void detectsEachFormatByContent_data();
    void detectsEachFormatByContent();
    void readsTheRdmaCoreIbnetdiscoverExample();
    void appliesANodeNameMap();
    void readsTheIbsimExample();
    void readsTheInfraGraphClosWithoutItsDeviceFiles();
    void readsInfraGraphDeviceFilesBesideIt();
    void refusesHtsimParametersNamingTheFormats();
    void readsInfraGraphEdgesWithSlices();
    void guessesKindsAndPlacesStraySwitchesInTheCore();
    void exportedPresetsReadBackTheSame_data();
    void exportedPresetsReadBackTheSame();
    void ns3ExportsAnNvl72RackAsOneServer();
    void locatesErrorsInCutAndCorruptedFiles_data();
    void locatesErrorsInCutAndCorruptedFiles();
    void sidecarStatesWhatWouldBeInferred();
    void sidecarNamingAnUnknownSwitchIsRefused();
    void inspectorMarksInferredFacts();
    void graphmlDotAndNetboxHoldTheFabric();
    void openDialogFilterListsEveryFormat();
};

void TestFabricFormats::detectsEachFormatByContent_data() {
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<int>("format");
    QTest::newRow("native") << QByteArray(R"({"format": "clusterscope-topology"})")
                            << int(TopologyFormat::Native);
    QTest::newRow("ibnetdiscover")
        << readAll(kReal + "rdma-core-ibnetdiscover-topology-file-example.txt")
        << int(TopologyFormat::IbNetDiscover);
    QTest::newRow("ibsim") << readAll(kReal + "ibsim-net-examples-net.txt")
                           << int(TopologyFormat::IbNetDiscover);
    QTest::newRow("infragraph yaml")
        << readAll(kReal + "infragraph-two-tier-clos-fabric-infrastructure.yaml")
        << int(TopologyFormat::InfraGraph);
    QTest::newRow("infragraph json") << QByteArray(R"({"infrastructure": {"instances": []}})")
                                     << int(TopologyFormat::InfraGraph);
    QTest::newRow("networkx nodes first")
        << QByteArray(R"({"nodes": [], "links": []})") << int(TopologyFormat::NetworkX);
    QTest::newRow("networkx links first")
        << QByteArray(R"({"links": [], "nodes": []})") << int(TopologyFormat::NetworkX);
    QTest::newRow("ns-3") << QByteArray("10 8 1 1 9 H100\n9 8\n") << int(TopologyFormat::Ns3);
    QTest::newRow("htsim: none") << readAll(kReal + "astra-sim-htsim-8nodes.topo") << -1;
    QTest::newRow("json of something else: none") << QByteArray(R"({"a": 1})") << -1;
}

void TestFabricFormats::detectsEachFormatByContent() {
    QFETCH(QByteArray, text);
    QFETCH(int, format);
    const auto got = detectTopologyFormat(text);
    QCOMPARE(got ? int(*got) : -1, format);
}

void TestFabricFormats::readsTheRdmaCoreIbnetdiscoverExample() {
    const LoadedTopology l =
        loadTopologyFile(kReal + "rdma-core-ibnetdiscover-topology-file-example.txt");
    const Topology& t = l.topology;
    QCOMPARE(l.format, TopologyFormat::IbNetDiscover);
    QCOMPARE(toString(t.clusters.front().fabric), toString(Fabric::InfiniBand));
    // Four Ca records, one with two ports: five NICs; both switches have hosts: two leaves.
    QCOMPARE(t.hosts.size(), size_t(4));
    QCOMPARE(t.nics.size(), size_t(5));
    QCOMPARE(switchesOfTier(t, 1), 2LL);
    QCOMPARE(switchesOfTier(t, 2), 0LL);
    // The adapters share one description, so their ids name them.
    QCOMPARE(t.hosts.front().name, std::string("H-0008f10403960984"));
    // Two switch-to-switch links (ports 10 and 6 of the ISR9024), each read once.
    const int32_t isr = switchNamed(t, "ISR9024 Voltaire");
    QVERIFY(isr != kNone);
    QCOMPARE(t.switches[size_t(isr)].ports, uint16_t(24));
    int between = 0;
    for (const Link& l2 : t.links)
        between += l2.a.kind == EntityKind::Switch && l2.b.kind == EntityKind::Switch &&
                   t.switches[size_t(l2.a.index)].role != SwitchRole::NvSwitch &&
                   t.switches[size_t(l2.b.index)].role != SwitchRole::NvSwitch;
    QCOMPARE(between, 2);
    // Every NIC link carries the speed the file gives (4xSDR or 1xSDR).
    for (const Nic& n : t.nics)
        QVERIFY2(n.gbps == 10 || n.gbps == 2.5f, n.name.c_str());
    const TopologyStats s = computeStats(t);
    QVERIFY(std::isnan(s.oversubscription)); // one pod: not applicable, never 0
    QVERIFY(hasFact(l, "switchTiers"));
    QVERIFY(hasFact(l, "gpusPerHost"));
    QVERIFY(!hasFact(l, "fabric")); // the format says InfiniBand
    // The manual's closing prose is skipped, and said so.
    bool skipped = false;
    for (const InferredFact& f : l.inferred)
        skipped = skipped || (f.what == "source" && f.how.find("line 55") != std::string::npos);
    QVERIFY(skipped);
}

void TestFabricFormats::appliesANodeNameMap() {
    QTemporaryDir dir;
    const QString map = dir.filePath("node-name-map");
    // Two adapters of one host, named as infiniband-diags' maps name them.
    writeFile(map, "# guid name\n0x0008f10403960558 \"node01 HCA-1\"\n"
                   "0x0008f10403960984 \"node01 mlx5_1\"\n"
                   "0x5442ba00003080 \"leaf-a\"\n");
    TopologyReadOptions o;
    o.nodeNameMap = map.toStdString();
    const Topology t =
        loadTopologyFile(kReal + "rdma-core-ibnetdiscover-topology-file-example.txt", o).topology;
    QVERIFY(switchNamed(t, "leaf-a") != kNone);
    bool node01 = false;
    for (const Host& h : t.hosts)
        node01 = node01 || (h.name == "node01" && h.gpuCount == 3);
    QVERIFY(node01);
    QCOMPARE(t.hosts.size(), size_t(3));
    writeFile(map, "0x0008f10403960558 node01\n");
    try {
        loadTopologyFile(kReal + "rdma-core-ibnetdiscover-topology-file-example.txt", o);
        QFAIL("a map line without a quoted name was accepted");
    } catch (const InputException& e) {
        QCOMPARE(e.error().file, map.toStdString());
        QCOMPARE(e.error().line, 1);
    }
}

void TestFabricFormats::readsTheIbsimExample() {
    const LoadedTopology l = loadTopologyFile(kReal + "ibsim-net-examples-net.txt");
    const Topology& t = l.topology;
    QCOMPARE(t.hosts.size(), size_t(2));
    const int32_t s1 = switchNamed(t, "Switch1"), s2 = switchNamed(t, "Switch2");
    QVERIFY(s1 != kNone && s2 != kNone);
    QCOMPARE(toString(t.switches[size_t(s1)].role), toString(SwitchRole::IbLeaf)); // hosts below it
    QCOMPARE(toString(t.switches[size_t(s2)].role),
             toString(SwitchRole::IbSpine)); // two hops from the hosts
    // No speeds in the file: assumed, and listed as such.
    bool speeds = false;
    for (const InferredFact& f : l.inferred)
        speeds = speeds || (f.what == "linkSpeeds" && f.count == 4);
    QVERIFY(speeds);
    for (const Nic& n : t.nics)
        QCOMPARE(n.gbps, 400.0f);
}

void TestFabricFormats::readsTheInfraGraphClosWithoutItsDeviceFiles() {
    const LoadedTopology l =
        loadTopologyFile(kReal + "infragraph-two-tier-clos-fabric-infrastructure.yaml");
    const Topology& t = l.topology;
    QCOMPARE(t.name, std::string("generic-clos-fabric"));
    QCOMPARE(t.hosts.size(), size_t(4)); // instance counts from the highest index connected
    QCOMPARE(t.nics.size(), size_t(16));
    QCOMPARE(t.gpus.size(), size_t(16)); // one per NIC: inferred
    QCOMPARE(switchesOfTier(t, 1), 4LL);
    QCOMPARE(switchesOfTier(t, 2), 3LL);
    // gigabytes_per_second: 100 is 800 Gb/s.
    for (const Nic& n : t.nics)
        QCOMPARE(n.gbps, 800.0f);
    QVERIFY(hasFact(l, "gpusPerHost"));
    QVERIFY(hasFact(l, "fabric"));
    int missingDevices = 0;
    for (const InferredFact& f : l.inferred)
        missingDevices += f.what == "source" && f.how.find("defined neither") != std::string::npos;
    QCOMPARE(missingDevices, 2);
    QVERIFY(std::isnan(computeStats(t).oversubscription));
}

void TestFabricFormats::readsInfraGraphDeviceFilesBesideIt() {
    QTemporaryDir dir;
    writeFile(dir.filePath("clos.yaml"),
              readAll(kReal + "infragraph-two-tier-clos-fabric-infrastructure.yaml"));
    // NIC k serves NPU 3-k: the importer must take the device's wiring, not guess k.
    writeFile(dir.filePath("generic-server.yaml"), R"(devices:
  - name: generic-server
    components:
      - {name: npu, type: npu, count: 4}
      - {name: nic, type: nic, count: 4, external: true}
    links:
      - name: pcie
    connections:
      - npu.3.pcie.nic.0
      - npu.2.pcie.nic.1
      - npu.1.pcie.nic.2
      - npu.0.pcie.nic.3
)");
    const LoadedTopology l = loadTopologyFile(dir.filePath("clos.yaml"));
    QVERIFY(!hasFact(l, "gpusPerHost"));
    QVERIFY(!hasFact(l, "nicGpus"));
    const Topology& t = l.topology;
    QCOMPARE(t.gpus.size(), size_t(16));
    const Host& h0 = t.hosts.front();
    QCOMPARE(t.nics.front().host, 0);
    QCOMPARE(t.gpus[size_t(t.nics.front().gpu)].local, uint8_t(3));
    QCOMPARE(h0.gpuCount, uint8_t(4));
}

void TestFabricFormats::refusesHtsimParametersNamingTheFormats() {
    const InputError e = errorOf(readAll(kReal + "astra-sim-htsim-8nodes.topo"), "8nodes.topo");
    QCOMPARE(e.line, 1);
    QVERIFY2(e.message.find("htsim") != std::string::npos, e.message.c_str());
    for (const TopologyFormatInfo& f : topologyFormats())
        QVERIFY2(e.message.find(std::string(f.name)) != std::string::npos, e.message.c_str());
}

void TestFabricFormats::readsInfraGraphEdgesWithSlices() {
    const QByteArray text = R"(infrastructure:
  name: e
  devices:
    - name: srv
      components: [{name: npu, type: npu, count: 2}, {name: nic, type: nic, count: 2}]
    - name: sw
      components: [{name: port, type: port, count: 8}]
  links: [{name: l, bandwidth: {gigabits_per_second: 200}}]
  instances: [{name: h, device: srv, count: 2}, {name: leaf, device: sw, count: 2},
              {name: spine, device: sw, count: 1}]
  edges:
    - {ep1: {instance: "h[0:2]", component: "nic[0]"}, ep2: {instance: leaf, component: "port[0]"},
       link: l, scheme: one2one}
    - {ep1: {instance: "leaf", component: "port[7]"}, ep2: {instance: "spine", component: "port[0:2]"},
       link: l, scheme: one2one}
)";
    const Topology t = parseTopologyText(text, "edges.yaml").topology;
    QCOMPARE(t.hosts.size(), size_t(2));
    QCOMPARE(t.gpus.size(), size_t(4)); // the device says 2 NPUs per host
    QCOMPARE(switchesOfTier(t, 1), 2LL);
    QCOMPARE(switchesOfTier(t, 2), 1LL);
    // one2one in order: h[0] to leaf[0], h[1] to leaf[1]; leaf[k]'s port 7 to spine port k.
    QCOMPARE(backendFabric(t).nics.size(), size_t(2));
    QCOMPARE(backendFabric(t).links.size(), size_t(2));
    for (const Nic& n : t.nics)
        QCOMPARE(n.gbps, 200.0f);
    // many2many joins every end to every end: here one spine port twice, refused.
    QByteArray many = text;
    many.replace(many.lastIndexOf("one2one"), 7, "many2many");
    QVERIFY(errorOf(many, "e.yaml").message.find("connected twice") != std::string::npos);
    // A server wired straight to a server (a composed device) is refused.
    QByteArray hostToHost = text;
    hostToHost.replace("ep1: {instance: \"h[0:2]\", component: \"nic[0]\"}, ep2: {instance: leaf, "
                       "component: \"port[0]\"}",
                       "ep1: {instance: \"h[0]\", component: nic}, ep2: {instance: \"h[1]\", "
                       "component: nic}");
    QVERIFY(errorOf(hostToHost, "e.yaml").message.find("two hosts") != std::string::npos);
}

void TestFabricFormats::guessesKindsAndPlacesStraySwitchesInTheCore() {
    const QByteArray text = R"({"nodes": [{"id": "a"}, {"id": "b"}, {"id": "tor-1"},
        {"id": "x", "kind": "switch"}, {"id": "y", "kind": "switch"}],
        "links": [{"source": "a", "target": "tor-1"}, {"source": "b", "target": "tor-1"},
                  {"source": "x", "target": "y"}]})";
    const LoadedTopology l = parseTopologyText(text, "g.json");
    const Topology& t = l.topology;
    QCOMPARE(t.hosts.size(), size_t(2)); // one link each, no switch-like name
    QCOMPARE(toString(t.switches[size_t(switchNamed(t, "tor-1"))].role),
             toString(SwitchRole::Rtsw)); // "tor" in its name
    // x and y reach no host: the core tier, and said so.
    QCOMPARE(toString(t.switches[size_t(switchNamed(t, "x"))].role), toString(SwitchRole::Atsw));
    bool stray = false;
    for (const InferredFact& f : l.inferred)
        stray = stray || (f.what == "switchTiers" &&
                          f.how.find("not reachable") != std::string::npos && f.count == 2);
    QVERIFY(stray);
}

void TestFabricFormats::exportedPresetsReadBackTheSame_data() {
    QTest::addColumn<QString>("preset");
    QTest::addColumn<int>("format");
    QTest::addColumn<bool>("namesCarried");
    for (const char* p : {"small-256", "small-ib-256", "dgx-h100-superpod", "dgx-a100-superpod"})
        for (const auto& [name, f, names] :
             {std::tuple{"ibnetdiscover", ExportFormat::IbNetDiscover, true},
              std::tuple{"infragraph", ExportFormat::InfraGraph, false},
              std::tuple{"networkx", ExportFormat::NetworkX, true},
              std::tuple{"ns3", ExportFormat::Ns3, false}})
            QTest::addRow("%s %s", p, name) << QString(p) << int(f) << names;
    // Pods the file names are kept: meta-ib-24k's pods hold six leaf-spine blocks each, joined
    // only through the cores, which a format without pod names reads as 48 pods.
    QTest::addRow("meta-ib-24k networkx") << "meta-ib-24k" << int(ExportFormat::NetworkX) << true;
}

// SimAI's ns-3 format has one NVSwitch per "server": an NVL72 rack is one, of 72 GPUs, each
// GPU with all of its NVLink (9 trays x 800 Gb/s); read back, the rack's GPUs share NVLink.
void TestFabricFormats::ns3ExportsAnNvl72RackAsOneServer() {
    const Topology original = generatePreset("gb200-nvl72-su");
    const QByteArray text = ns3Document(original);
    const QList<QByteArray> lines = text.split('\n');
    const QList<QByteArray> head = lines[0].split(' ');
    QCOMPARE(head[1], QByteArray("72")); // GPUs per server
    QCOMPARE(head[2], QByteArray("8"));  // servers
    QCOMPARE(lines[2], QByteArray("0 576 7200Gbps 250ns 0"));
    QCOMPARE(lines[2 + 72], QByteArray("72 577 7200Gbps 250ns 0"));
    const LoadedTopology back = parseTopologyText(text, "nvl72.txt");
    QCOMPARE(back.topology.gpus.size(), size_t(576));
    QVERIFY(back.topology.sameNvlinkDomain(0, 71));
    QVERIFY(!back.topology.sameNvlinkDomain(71, 72));
}

void TestFabricFormats::exportedPresetsReadBackTheSame() {
    QFETCH(QString, preset);
    QFETCH(int, format);
    QFETCH(bool, namesCarried);
    const Topology original = generatePreset(preset.toStdString());
    const QByteArray text = exportDocument(ExportFormat(format), original);
    const LoadedTopology back = parseTopologyText(text, "exported");
    const Topology& t = back.topology;
    QCOMPARE(t.hosts.size(), original.hosts.size());
    QCOMPARE(t.gpus.size(), original.gpus.size());
    for (int tier = 1; tier <= 3; ++tier)
        QCOMPARE(switchesOfTier(t, tier), switchesOfTier(original, tier));
    const BackendFabric fo = backendFabric(original), fb = backendFabric(t);
    QCOMPARE(fb.nics.size(), fo.nics.size());
    QCOMPARE(fb.links.size(), fo.links.size());
    QCOMPARE(t.pods.size(), original.pods.size());
    const TopologyStats so = computeStats(original), sb = computeStats(t);
    QCOMPARE(sb.injectionGbps, so.injectionGbps);
    QCOMPARE(std::isnan(sb.oversubscription), std::isnan(so.oversubscription));
    if (!std::isnan(so.oversubscription)) QCOMPARE(sb.oversubscription, so.oversubscription);
    for (size_t p = 0; p < so.podStats.size(); ++p) {
        const PodStats &a = so.podStats[p], &b = sb.podStats[p];
        QCOMPARE(b.gpus, a.gpus);
        QCOMPARE(b.injectionGbps, a.injectionGbps);
        QCOMPARE(b.uplinkGbps, a.uplinkGbps);
        QCOMPARE(b.bisectionGbps, a.bisectionGbps);
        QCOMPARE(b.fullBisection, a.fullBisection);
    }
    // Racks come back from names where the format carries them, else one per leaf: the
    // same for one-leaf-per-rack wiring.
    const bool rail = preset.startsWith("dgx-");
    if (namesCarried || !rail) QCOMPARE(sb.racks, so.racks);
    // NetworkX carries the tiers; the others leave them to the hops from the hosts.
    QCOMPARE(hasFact(back, "switchTiers"), ExportFormat(format) != ExportFormat::NetworkX);
}

void TestFabricFormats::locatesErrorsInCutAndCorruptedFiles_data() {
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<int>("line");
    QTest::addColumn<QString>("says");
    const QByteArray ib = readAll(kReal + "rdma-core-ibnetdiscover-topology-file-example.txt");
    const QByteArray ibsim = readAll(kReal + "ibsim-net-examples-net.txt");
    const QByteArray ig = readAll(kReal + "infragraph-two-tier-clos-fabric-infrastructure.yaml");
    const QByteArray ns3 = ns3Document(generatePreset("small-256"));
    const QByteArray nx = networkxDocument(generatePreset("small-256"));
    auto cutAtLine = [](const QByteArray& t, int lines) {
        qsizetype at = 0;
        for (int i = 0; i < lines; ++i)
            at = t.indexOf('\n', at) + 1;
        return t.left(at);
    };
    // Cut after the first switch record: its hosts' and the second switch's records are gone.
    QTest::newRow("ibnetdiscover cut short") << cutAtLine(ib, 19) << 14 << "has no record";
    QTest::newRow("ibnetdiscover cut inside a line")
        << ib.left(ib.indexOf("\"H-0008f10403961354\"[1]") + 8) << 14 << "expected a port line";
    QByteArray badPort = ib;
    badPort.replace("[10]    \"S-0008f10400410015\"[1]", "[99]    \"S-0008f10400410015\"[1]");
    QTest::newRow("ibnetdiscover port beyond the radix") << badPort << 15 << "which has 24 ports";
    QByteArray twice = ibsim;
    twice.replace("[2]\t\"Hca2\"[2]", "[2]\t\"Hca1\"[1]");
    QTest::newRow("ibsim port joined twice") << twice << 27 << "already used";
    QByteArray header = ibsim;
    header.replace("Switch 8 \"Switch2\"", "Switch eight \"Switch2\"");
    QTest::newRow("ibsim bad header") << header << 31 << "PORTS from 1 to 65535";
    QTest::newRow("infragraph cut inside a connection")
        << ig.left(ig.indexOf("server.1.nic.1.eth1.leafsw.1.port.1") + 20) << 30
        << "expected `instance";
    QByteArray unknownLink = ig;
    unknownLink.replace("server.2.nic.0.eth1", "server.2.nic.0.eth9");
    QTest::newRow("infragraph unknown link") << unknownLink << 33 << "eth9";
    QByteArray unknownInstance = ig;
    unknownInstance.replace("leafsw.3.port.6.eth2.spinesw", "leafsw.3.port.6.eth2.spine");
    QTest::newRow("infragraph unknown instance")
        << unknownInstance << 52 << "not one of the instances";
    QByteArray yaml = ig;
    yaml.replace("  instances:\n", "  instances: [\n");
    // yaml-cpp notices the open list on the line after it.
    QTest::newRow("infragraph not YAML") << yaml << 18 << "not valid YAML";
    QTest::newRow("ns-3 cut short") << cutAtLine(ns3, 100) << 100 << "cut short";
    QByteArray rate = ns3;
    rate.replace(rate.indexOf("Gbps", rate.indexOf('\n', rate.indexOf('\n') + 1)), 4, "Gbs!");
    QTest::newRow("ns-3 bad bandwidth") << rate << 3 << "expected a bandwidth";
    QTest::newRow("ns-3 header") << QByteArray("12 8 1 1 9 H100\n") << 1
                                 << "whole number of servers";
    QByteArray target = nx;
    const qsizetype at = target.indexOf("\"target\":\"") + 10;
    target.insert(at, "nobody-");
    QTest::newRow("networkx unknown target") << target << 1 << "links[0].target";
    QTest::newRow("networkx bad kind")
        << QByteArray("{\"nodes\": [\n {\"id\": 1, \"kind\": \"router\"}\n], \"links\": []}") << 2
        << "host | server | switch";
    // Ids longer than ClusterScope's own format reads are refused where they are declared: an
    // exported copy would not read again.
    QByteArray longHost = ibsim;
    longHost.replace("\"Hca2\"", "\"" + QByteArray(5000, 'h') + "\"");
    QTest::newRow("ibsim id past 4096 characters")
        << longHost << 38 << "at most 4096 characters"; // its header line
    QTest::newRow("networkx id past 4096 characters")
        << QByteArray("{\"nodes\": [\n {\"id\": \"" + QByteArray(5000, 's') +
                      "\", \"kind\": \"switch\"}\n], \"links\": []}")
        << 2 << "at most 4096 characters";
    QTest::newRow("nothing known")
        << QByteArray("\n\nhello world\n") << 1 << "it starts with \"hello world\"";
    // A file named by mistake may hold secrets: the message shows the start, not the values.
    QTest::newRow("an environment")
        << QByteArray("API_TOKEN=s3cr3t\0HOME=/root") << 1 << "it starts with \"API_TOKEN...\"";
}

void TestFabricFormats::locatesErrorsInCutAndCorruptedFiles() {
    QFETCH(QByteArray, text);
    QFETCH(int, line);
    QFETCH(QString, says);
    const InputError e = errorOf(text, "broken");
    QVERIFY2(!e.message.empty(), "the broken file was accepted");
    QCOMPARE(e.file, std::string("broken"));
    QVERIFY2(e.message.find(says.toStdString()) != std::string::npos ||
                 e.field.find(says.toStdString()) != std::string::npos,
             e.toString().c_str());
    QVERIFY2(e.toString().find("s3cr3t") == std::string::npos, e.toString().c_str());
    QCOMPARE(e.line, line);
}

void TestFabricFormats::sidecarStatesWhatWouldBeInferred() {
    QTemporaryDir dir;
    const QString file = dir.filePath("net");
    writeFile(file, readAll(kReal + "ibsim-net-examples-net.txt"));
    writeFile(file + ".structure.json", R"({"fabric": "roce", "gpuModel": "A100-SXM-80GB",
        "gpusPerHost": 8, "linkGbps": 200, "switchTiers": {"Switch2": "core"},
        "hostRacks": {"Hca1": "rack-a", "Hca2": "rack-a"}})");
    const LoadedTopology l = loadTopologyFile(file); // the sidecar is found beside the file
    const Topology& t = l.topology;
    QCOMPARE(toString(t.clusters.front().fabric), toString(Fabric::Roce));
    QCOMPARE(t.gpuModel, std::string("A100-SXM-80GB"));
    QCOMPARE(t.gpus.size(), size_t(16));
    QCOMPARE(toString(t.switches[size_t(switchNamed(t, "Switch2"))].role),
             toString(SwitchRole::Atsw));
    QCOMPARE(t.hosts[0].rack, t.hosts[1].rack);
    QCOMPARE(t.racks[size_t(t.hosts[0].rack)].name, std::string("rack-a"));
    for (const Nic& n : t.nics)
        QCOMPARE(n.gbps, 200.0f);
    for (const char* stated : {"fabric", "gpuModel", "gpusPerHost", "racks"})
        QVERIFY2(!hasFact(l, stated), stated);
}

void TestFabricFormats::sidecarNamingAnUnknownSwitchIsRefused() {
    QTemporaryDir dir;
    const QString file = dir.filePath("net");
    writeFile(file, readAll(kReal + "ibsim-net-examples-net.txt"));
    const QString sidecar = dir.filePath("mine.json");
    writeFile(sidecar, R"({"switchTiers": {"Switch9": "spine"}})");
    TopologyReadOptions o;
    o.structureFile = sidecar.toStdString();
    try {
        loadTopologyFile(file, o);
        QFAIL("a sidecar naming no switch of the file was accepted");
    } catch (const InputException& e) {
        QCOMPARE(e.error().file, sidecar.toStdString());
        QCOMPARE(e.error().field, std::string("switchTiers.Switch9"));
    }
    writeFile(sidecar, R"({"switchTiers": {"Switch2": "middle"}})");
    try {
        loadTopologyFile(file, o);
        QFAIL("an unknown tier was accepted");
    } catch (const InputException& e) {
        QVERIFY2(e.error().message.find("leaf | spine | core") != std::string::npos, e.what());
    }
}

void TestFabricFormats::inspectorMarksInferredFacts() {
    TopologyDocument doc(loadTopologyFile(kReal + "ibsim-net-examples-net.txt"), "net");
    auto rowsOf = [&](Endpoint e) {
        std::vector<std::string> names;
        for (const auto& [k, v] : entityProperties(doc, e))
            names.push_back(k);
        return names;
    };
    const auto host = rowsOf({EntityKind::Host, 0});
    QVERIFY(std::find(host.begin(), host.end(), "inferred: racks") != host.end());
    QVERIFY(std::find(host.begin(), host.end(), "inferred: gpusPerHost") != host.end());
    const auto sw = rowsOf({EntityKind::Switch, 0});
    QVERIFY(std::find(sw.begin(), sw.end(), "inferred: switchTiers") != sw.end());
    const auto preset = openTopology("small-256", {});
    for (const auto& [k, v] : entityProperties(*preset, {EntityKind::Host, 0}))
        QVERIFY2(k.rfind("inferred", 0) != 0, k.c_str());
}

void TestFabricFormats::graphmlDotAndNetboxHoldTheFabric() {
    const Topology t = generatePreset("small-256");
    size_t expectedNodes = t.hosts.size() + t.storage.size();
    for (const Switch& s : t.switches)
        expectedNodes += s.role != SwitchRole::NvSwitch;
    size_t expectedEdges = 0;
    for (const Link& l : t.links)
        expectedEdges += l.a.kind != EntityKind::Gpu && l.b.kind != EntityKind::Gpu &&
                         !(l.a.kind == EntityKind::Switch &&
                           t.switches[size_t(l.a.index)].role == SwitchRole::NvSwitch);
    QXmlStreamReader xml(graphmlDocument(t));
    size_t nodes = 0, edges = 0;
    while (!xml.atEnd()) {
        if (xml.readNext() != QXmlStreamReader::StartElement) continue;
        nodes += xml.name() == u"node";
        edges += xml.name() == u"edge";
    }
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    QCOMPARE(nodes, expectedNodes);
    QCOMPARE(edges, expectedEdges);
    const QByteArray dot = dotDocument(t);
    QCOMPARE(size_t(dot.count(" -- ")), expectedEdges);
    QVERIFY(dot.startsWith("graph \"small-256\" {"));
    const auto files = netboxCsvFiles(t);
    QCOMPARE(files.size(), size_t(8));
    auto rows = [&](const char* name) {
        for (const auto& [n, content] : files)
            if (n == name) return content.count('\n') - 1;
        return qsizetype(-1);
    };
    QCOMPARE(size_t(rows("devices.csv")), expectedNodes);
    QCOMPARE(size_t(rows("cables.csv")), expectedEdges);
    QCOMPARE(size_t(rows("interfaces.csv")), expectedEdges * 2);
    QCOMPARE(size_t(rows("racks.csv")), t.racks.size());
}

void TestFabricFormats::openDialogFilterListsEveryFormat() {
    const std::string filter = topologyOpenFilter();
    for (const TopologyFormatInfo& f : topologyFormats())
        QVERIFY2(filter.find(std::string(f.name) + " (") != std::string::npos, filter.c_str());
    QVERIFY(filter.find("*.yaml") != std::string::npos);
    QVERIFY(filter.rfind("All files (*)") == filter.size() - 13);
}

QTEST_GUILESS_MAIN(TestFabricFormats)
#include "tst_fabric_formats.moc"
